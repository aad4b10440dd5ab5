"""Shuffle, deal eight cards each and turn the leading card (§3); deal a fork's hidden cards anew."""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.rng import Rng
from domain.core.shuffles import fresh_deal, seal
from domain.taki.cards import BY_ID, DECK
from domain.taki.events import DeckShuffled, Event, HandDealt, HiddenCardsRedealt, LeadingCardTurned, TurnStarted
from domain.taki.options import TakiOptions
from domain.taki.state import TakiState

MIN_SEATS, MAX_SEATS = 2, 10
HAND_SIZE = 8


def setup(options: TakiOptions, seats: int, rng: Rng) -> tuple[Event, ...]:
    """The opening events: the shuffle, the deal, the leading card and the first turn."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise RuleViolation("seat_count", f"TAKI is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}.")
    order = rng.shuffled([card.id for card in DECK])
    dealt = order[: HAND_SIZE * seats]
    # §3.2: one card at a time, round-robin from seat 0
    events: list[Event] = [DeckShuffled(order, *seal(order, rng))]
    events += [HandDealt(seat, dealt[seat::seats]) for seat in range(seats)]
    pile = list(order[HAND_SIZE * seats:])
    while BY_ID[pile[0]].color is None:  # §3.3, A1: a colourless card goes to the bottom
        events.append(LeadingCardTurned(pile[0], buried=True))
        pile.append(pile.pop(0))
    events += [LeadingCardTurned(pile[0]), TurnStarted(options.first_seat, 1)]
    return tuple(events)


def redeal(state: TakiState, rng: Rng) -> tuple[Event, ...]:
    """A fork's secrets (Meeple's own rule): the hands and the draw pile shuffled together and dealt again, hands the same size."""
    # the original's log shows every hand and the pile; the discard pile, face up, stays as it is
    hands = [state.hand_ids(seat) for seat in range(state.seats)]
    dealt = fresh_deal(hands, [card.id for card in state.draw_pile], rng)
    return () if dealt is None else (HiddenCardsRedealt(*dealt),)
