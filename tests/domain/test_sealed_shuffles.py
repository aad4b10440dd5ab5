"""Sealed shuffles: every shuffle is committed to, and a log's audit finds any card that did not
come from the committed order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from domain import GAMES
from domain.bahama_taxi.events import CitizenAppeared
from domain.core.rng import SeededRng
from domain.core.shuffles import commitment
from domain.taki.events import CardsDrawn, DeckShuffled, LeadingCardTurned
from tests.playing import moves_on, random_game


def played(name: str, seats: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every event of a random game, its opening included."""
    game = GAMES[name]
    parsed = game.parse_options(options, seats)
    events = list(game.setup(parsed, seats, SeededRng(seed)))
    for step in random_game(game, seats, parsed, seed, prefer=moves_on):
        events += step.events
    return events


def audit(name: str, seats: int, options: dict[str, Any], events: list[Any]) -> list[tuple[int, str]]:
    game = GAMES[name]
    return game.audit_log(game.parse_options(options, seats), seats, events)


@pytest.mark.parametrize(("name", "seats", "options"), [
    ("taki", 2, {}), ("taki", 10, {}), ("taki", 4, {"mode": "tournament"}), ("djambi", 4, {}),
    ("bahama_taxi", 2, {"max_rounds": 40}), ("bahama_taxi", 8, {"max_rounds": 10}),
    ("bahama_taxi", 4, {"max_rounds": 30, "dice": True, "hand_size": 4, "unknown_destination": True}),
    ("bahama_taxi", 3, {"max_rounds": 20, "setup": "shift_change"}),
    ("bahama_taxi", 3, {"max_rounds": 20, "setup": "start_as_destination"}),
    ("bahama_taxi", 2, {"max_rounds": 30, "contraband": True}),
])
def test_an_honest_game_passes_its_audit(name: str, seats: int, options: dict[str, Any]) -> None:
    for seed in range(3):
        events = played(name, seats, options, seed)
        assert audit(name, seats, options, events) == []
        sealed = [e for e in events if hasattr(e, "commitment")]
        assert all(e.commitment == commitment(e.order, e.salt) and len(e.salt) == 32 for e in sealed)


def test_a_taki_game_reshuffles_under_seal() -> None:
    events = played("taki", 10, {}, seed=1)
    reshuffles = [e for e in events if type(e).__name__ == "DiscardReshuffled"]
    assert reshuffles and all(e.commitment for e in reshuffles)


def edited(events: list[Any], kind: type, change: Any) -> list[Any]:
    """The log with the first event of `kind` changed."""
    at = next(i for i, e in enumerate(events) if isinstance(e, kind))
    return events[:at] + [change(events[at])] + events[at + 1:]


def test_every_kind_of_tampering_with_a_taki_log_is_found() -> None:
    events = played("taki", 3, {}, seed=5)
    deck = next(e for e in events if isinstance(e, DeckShuffled))
    swapped = (deck.order[1], deck.order[0]) + deck.order[2:]
    cases = {
        "a reordered deck": edited(events, DeckShuffled, lambda e: replace(e, order=swapped)),
        "another salt": edited(events, DeckShuffled, lambda e: replace(e, salt="1" * 32)),
        "no seal": edited(events, DeckShuffled, lambda e: replace(e, salt="", commitment="")),
        "a card drawn from deeper down": edited(
            events, CardsDrawn, lambda e: replace(e, cards=(deck.order[-1],) * len(e.cards)) if e.cards else e),
        "another leading card": edited(events, LeadingCardTurned, lambda e: replace(e, card=deck.order[0])),
    }
    for what, log in cases.items():
        assert audit("taki", 3, {}, log), what
    resealed = edited(events, DeckShuffled, lambda e: replace(e, order=swapped, commitment=commitment(swapped, e.salt)))
    assert audit("taki", 3, {}, resealed)  # the deal no longer follows the order


def test_a_bahama_taxi_citizen_not_drawn_from_the_top_is_found() -> None:
    events = played("bahama_taxi", 2, {"max_rounds": 20}, seed=2)
    problems = audit("bahama_taxi", 2, {"max_rounds": 20},
                     edited(events, CitizenAppeared, lambda e: replace(e, origin=e.destination, destination=e.origin)))
    assert problems and "citizen c1" in problems[0][1]
