"""A fork's secrets: `Game.redeal` deals again, under a fresh seal, every card no seat of the
fork may know - in TAKI the hands and the draw pile, in Bahama Taxi the pile and the four-card
hands - and nothing face up; Djambi hides nothing and deals nothing."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from domain import GAMES
from domain.core.codec import to_primitive
from domain.core.rng import SeededRng
from domain.core.shuffles import commitment
from tests.playing import moves_on, random_game

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("taki", 2, {}), ("taki", 5, {"mode": "tournament"}),
    ("bahama_taxi", 2, {"max_rounds": 40}), ("bahama_taxi", 4, {"max_rounds": 30, "hand_size": 4}),
    ("bahama_taxi", 3, {"max_rounds": 30, "hand_size": 4, "dice": True, "unknown_destination": True}),
]


def fork_point(name: str, seats: int, options: dict[str, Any], seed: int) -> tuple[list[Any], Any]:
    """The log and the state of a random game some moves in, where a fork is made."""
    game = GAMES[name]
    parsed = game.parse_options(options, seats)
    log = list(game.setup(parsed, seats, SeededRng(seed)))
    for step in random_game(game, seats, parsed, seed, prefer=moves_on, max_commands=5 + seed * 7, must_end=False):
        log += step.events
    return log, game.replay(parsed, seats, log)


def hidden(state: Any) -> Counter[str]:
    return Counter([str(card) for hand in state.hands for card in hand] + [str(card) for card in state.draw_pile])


def hand(state: Any, seat: int) -> tuple[str, ...]:
    return tuple(str(card) for card in state.hands[seat])


@pytest.mark.parametrize(("name", "seats", "options"), CASES)
def test_a_redeal_deals_every_hidden_card_once_in_hands_of_the_same_sizes_and_changes_nothing_face_up(
        name: str, seats: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    for seed in range(4):
        _, before = fork_point(name, seats, options, seed)
        (event,) = game.redeal(before, SeededRng(seed))
        after = game.evolve(before, event)
        assert hidden(after) == hidden(before) and sorted(event.order) == sorted(hidden(before).elements())
        assert [len(h) for h in after.hands] == [len(h) for h in before.hands]
        assert tuple(hand(after, seat) for seat in range(len(after.hands))) == event.hands
        assert to_primitive(game.view(after, None)) == to_primitive(game.view(before, None))
        moved = {"hands": before.hands, "draw_pile": before.draw_pile}
        if hasattr(before, "version"):
            moved["version"] = before.version
        assert dataclasses.replace(after, **moved) == before  # the hidden cards are all that changed
        assert event.commitment == commitment(event.order, event.salt) and game.audit(before, event) is None
        assert game.events.decode(*game.events.encode(event)) == event


@pytest.mark.parametrize(("name", "seats", "options"), [case for case in CASES if case[0] == "taki" or "hand_size" in case[2]])
def test_a_redealt_hand_is_a_fresh_deal_not_the_one_the_log_shows(name: str, seats: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    _, before = fork_point(name, seats, options, seed=0)
    (event,) = game.redeal(before, SeededRng("fork"))
    after = game.evolve(before, event)
    assert len(before.hands[0]) >= 3 and sorted(hand(after, 0)) != sorted(hand(before, 0))
    assert [str(card) for card in after.draw_pile] != [str(card) for card in before.draw_pile]


@pytest.mark.parametrize(("name", "seats", "options"), CASES)
def test_each_seat_sees_its_own_new_hand_and_nobody_the_order_or_the_others_hands(
        name: str, seats: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    _, before = fork_point(name, seats, options, seed=2)
    (event,) = game.redeal(before, SeededRng(2))
    after = game.evolve(before, event)
    for seat in (*range(seats), None):
        shown = game.redact(event, seat)
        assert set(shown.order) <= {"?"} and shown.salt == "?" and shown.commitment == event.commitment
        for owner, cards in enumerate(shown.hands):
            assert cards == (event.hands[owner] if owner == seat else ("?",) * len(event.hands[owner]))
        seen = to_primitive(game.view(after, seat))
        assert seen["hand"] == (list(event.hands[seat]) if seat is not None and event.hands else None)
        secret = {card for owner, cards in enumerate(event.hands) if owner != seat for card in cards}
        secret |= {str(card) for card in after.draw_pile}
        assert not secret & strings(to_primitive(shown))  # (Bahama Taxi's areas share their cards' names)


def strings(value: Any) -> set[str]:
    """Every string in plain JSON data."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    return set().union(*map(strings, value)) if isinstance(value, list) else set()


@pytest.mark.parametrize(("name", "seats", "options"), CASES)
def test_a_forks_log_passes_its_audit_and_a_broken_redeal_does_not(name: str, seats: int, options: dict[str, Any]) -> None:
    """The fork plays on from the new deal: every later draw comes off the committed order."""
    game = GAMES[name]
    parsed = game.parse_options(options, seats)
    log, state = fork_point(name, seats, options, seed=1)
    rng, chooser = SeededRng(11), random.Random(11)
    log += game.redeal(state, rng)
    state = game.replay(parsed, seats, log)
    for _ in range(400):
        if (status := game.status(state)).finished:
            break
        legal = game.legal_commands(state, chooser.choice(status.to_move))
        for event in game.decide(state, chooser.choice([c for c in legal if moves_on(c)] or list(legal)), rng):
            log.append(event)
            state = game.evolve(state, event)
    assert game.audit_log(parsed, seats, log) == []
    at = next(i for i, e in enumerate(log) if type(e).__name__ == "HiddenCardsRedealt")
    redeal = log[at]
    swapped = (redeal.order[-1],) + redeal.order[1:-1] + (redeal.order[0],)
    for broken, problem in (
        (dataclasses.replace(redeal, order=swapped), "commitment"),
        (dataclasses.replace(redeal, order=redeal.order[1:], commitment=commitment(redeal.order[1:], redeal.salt)), "not those"),
        (dataclasses.replace(redeal, hands=redeal.hands[1:] + redeal.hands[:1]), "dealt"),
    ):
        if broken == redeal:
            continue
        found = game.audit_log(parsed, seats, log[:at] + [broken])
        assert found and found[0][0] == at + 1 and problem in found[0][1], found


def test_djambi_hides_nothing_so_a_fork_deals_nothing() -> None:
    _, state = fork_point("djambi", 4, {}, seed=0)
    assert GAMES["djambi"].redeal(state, SeededRng(0)) == ()
