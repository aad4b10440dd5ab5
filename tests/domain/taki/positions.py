"""Building TAKI tables literally, as the spec's scenarios describe them (§20 conventions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from domain.core.codec import to_primitive
from domain.core.errors import RuleViolation
from domain.core.rng import Rng, ScriptedRng
from domain.taki.cards import BY_ID, DECK, Card, Color
from domain.taki.commands import Command, Play
from domain.taki.decide import decide
from domain.taki.events import Event
from domain.taki.evolve import evolve
from domain.taki.options import TakiOptions
from domain.taki.state import TakiState

FILLER = "y1 y3 y4 g8 g9 b8 b9 y8 y9 g6"  # cards no scenario names, padding hands to a safe size


class Cards:
    """Hands out distinct physical cards by short notation (`r5` is red.5.1, then red.5.2)."""

    def __init__(self) -> None:
        self.used: set[Card] = set()

    def take(self, notation: str) -> tuple[Card, ...]:
        taken = []
        for code in notation.split():
            card = next(c for c in DECK if c.code() == code and c not in self.used)
            self.used.add(card)
            taken.append(card)
        return tuple(taken)


def given(
    hands: Sequence[str],
    lead: str = "r5",
    *,
    discard: str | None = None,
    color: Color | None = None,
    pile: str | None = None,
    filler: int | Sequence[int] = 2,
    options: TakiOptions | None = None,
    **fields: Any,
) -> TakiState:
    """A table: each hand holds the named cards plus `filler` others (a count, or one per seat); the discard pile ends with
    `lead` (or is `discard`); the draw pile is `pile` or every unused card in deck order."""
    deck = Cards()
    discard_cards = deck.take(discard if discard is not None else lead)
    held = [deck.take(hand) for hand in hands]
    spare = [c for c in deck.take(FILLER)]
    pads = [filler] * len(hands) if isinstance(filler, int) else list(filler)
    padded = tuple(hand + tuple(spare.pop(0) for _ in range(pad)) for hand, pad in zip(held, pads))
    draw_pile = deck.take(pile) if pile is not None else tuple(c for c in DECK if c not in deck.used)
    leading = next(c for c in reversed(discard_cards) if not c.is_transparent)
    seats = len(hands)
    state = TakiState(
        options=options or TakiOptions(),
        hands=padded,
        draw_pile=draw_pile,
        discard=discard_cards,
        active_color=color or leading.color,
        turn_no=1,
        announced=(False,) * seats,
        owed=(None,) * seats,
        stages=(8,) * seats if options and options.mode.value == "tournament" else (),
    )
    return replace(state, **fields)


def ids(state: TakiState, seat: int, notation: str) -> tuple[str, ...]:
    """The ids of the named cards in `seat`'s hand."""
    hand = list(state.hands[seat])
    found = []
    for code in notation.split():
        card = next(c for c in hand if c.code() == code)
        hand.remove(card)
        found.append(card.id)
    return tuple(found)


def play(state: TakiState, seat: int, notation: str, **fields: Any) -> Play:
    return Play(seat, ids(state, seat, notation), **fields)


def apply(state: TakiState, *commands: Command, rng: Rng | None = None) -> tuple[TakiState, list[Event]]:
    """Decide and apply each command in turn; the state after them and every event."""
    rng = rng or ScriptedRng()
    events: list[Event] = []
    for command in commands:
        for event in decide(state, command, rng):
            state = evolve(state, event)
            events.append(event)
    return state, events


def rejected(state: TakiState, command: Command, reason: str, index: int | None = None) -> None:
    """The command is refused with `reason` (and the batch `index`)."""
    with pytest.raises(RuleViolation) as refused:
        decide(state, command, ScriptedRng())
    assert (refused.value.reason, refused.value.index) == (reason, index)


def codes(cards: Iterable[Card]) -> list[str]:
    return [card.code() for card in cards]


def hand(state: TakiState, seat: int) -> list[str]:
    return codes(state.hands[seat])


def card_ids(value: object) -> set[str]:
    """Every card id mentioned anywhere in a value, once turned into JSON data."""
    return _walk(to_primitive(value))


def _walk(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if value in BY_ID else set()
    if isinstance(value, dict):
        return _walk(list(value.values()))
    if isinstance(value, Iterable):
        return set().union(*map(_walk, value))
    return set()
