"""What an imported event must satisfy: the sealed pile's cards, taken off its top in order (§4, §6, §11)."""

from __future__ import annotations

from domain.bahama_taxi.consistency import inconsistency
from domain.bahama_taxi.events import (
    CardBurned,
    CitizenAppeared,
    DeckShuffled,
    DestinationDrawn,
    Event,
    HandDealt,
    HiddenCardsRedealt,
    PassengerBoardedAtSetup,
    PawnPlaced,
    StartCardRedrawn,
)
from domain.bahama_taxi.setup import full_deck
from domain.bahama_taxi.state import TaxiState
from domain.core.shuffles import broken_redeal, broken_seal, taken_in_order


def audit(state: TaxiState, event: Event) -> str | None:  # noqa: C901 - one case per event that draws from the pile
    """What in `event` does not follow from the sealed shuffle or the rules (consistency.py), given the state before it."""
    if problem := inconsistency(state, event):
        return problem
    pile = state.draw_pile
    match event:
        case DeckShuffled(order, salt, committed):
            if sorted(order) != sorted(full_deck(state.options, state.seats)):
                return "the pile shuffled is not the game's cards"
            return broken_seal(order, salt, committed)
        case PawnPlaced(seat, card=card) if card is not None:
            return taken_in_order((card,), pile[:1], f"seat {seat}'s start card was")
        case StartCardRedrawn(seat, card):
            return taken_in_order((card,), pile[:1], f"seat {seat} redrew")
        case CardBurned(card):
            return taken_in_order((card,), pile[:1], "the card burned was")
        case HandDealt(seat, cards):  # round-robin: earlier seats have taken their cards out
            if not 0 <= seat < state.seats:
                return f"no seat {seat} to deal to"
            return taken_in_order(cards, pile[:: state.seats - seat][: len(cards)], f"seat {seat} was dealt")
        case CitizenAppeared(citizen, origin, destination):
            if destination is None or destination in state.set_aside:  # unknown, or a start card (§11.6)
                return taken_in_order((origin,), pile[:1], f"citizen {citizen} appeared at")
            return taken_in_order((origin, destination), pile[:2], f"citizen {citizen} has cards")
        case PassengerBoardedAtSetup(_, _, citizen, origin, destination):
            if origin in state.set_aside:  # a start card and one more (§11.5)
                return taken_in_order((destination,), pile[:1], f"passenger {citizen} goes to")
            return taken_in_order((origin, destination), pile[:2], f"passenger {citizen} has cards")
        case DestinationDrawn(citizen, card):
            return taken_in_order((card,), pile[:1], f"citizen {citizen}'s destination was")
        case HiddenCardsRedealt(order, hands, salt, committed):  # a fork's deal of the pile and the hands
            return broken_redeal(state.hands, pile, order, hands, salt, committed)
        case _:
            return None
