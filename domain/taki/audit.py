"""Checking a finished game's log against its sealed shuffles: each shuffle is the one committed
to and holds the cards it must, and every card dealt, drawn or turned came off the top of the
pile in the committed order (§3, §12); and what else the rules would not have written
(`consistency.py`)."""

from __future__ import annotations

from domain.core.shuffles import broken_redeal, broken_seal, taken_in_order
from domain.taki.cards import DECK
from domain.taki.consistency import inconsistency
from domain.taki.events import (
    CardsDrawn,
    DeckShuffled,
    DiscardReshuffled,
    Event,
    HandDealt,
    HiddenCardsRedealt,
    LeadingCardTurned,
)
from domain.taki.state import TakiState

WHOLE_DECK = sorted(card.id for card in DECK)


def audit(state: TakiState, event: Event) -> str | None:  # noqa: C901 - one case per event that draws from the pile
    """What in `event` does not follow from the sealed shuffles or the rules, given the state before it."""
    if problem := inconsistency(state, event):
        return problem
    pile = [card.id for card in state.draw_pile]
    match event:
        case DeckShuffled(order, salt, committed):
            if sorted(order) != WHOLE_DECK:
                return "the deck shuffled is not the 116 cards"
            return broken_seal(order, salt, committed)
        case DiscardReshuffled(order, salt, committed):
            leading = max((i for i, card in enumerate(state.discard) if not card.is_transparent), default=0)
            if sorted(order) != sorted(card.id for card in state.discard[:leading]):
                return "the cards reshuffled are not those under the leading card"
            return broken_seal(order, salt, committed)
        case HandDealt(seat, cards):  # round-robin: earlier seats have taken their cards out
            if not 0 <= seat < len(state.hands):
                return f"no seat {seat} to deal to"
            return taken_in_order(cards, pile[:: len(state.hands) - seat][: len(cards)], f"seat {seat} was dealt")
        case CardsDrawn(seat, cards):  # always off the top
            return taken_in_order(cards, pile[: len(cards)], f"seat {seat} drew")
        case LeadingCardTurned(card):
            return taken_in_order((card,), pile[:1], "the card turned was")
        case HiddenCardsRedealt(order, hands, salt, committed):  # a fork's deal of the hands and the pile
            return broken_redeal([state.hand_ids(seat) for seat in range(state.seats)], pile, order, hands, salt, committed)
        case _:
            return None
