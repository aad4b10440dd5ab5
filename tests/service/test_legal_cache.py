"""A seat's legal commands are listed once per version of a game, and anew for a version of the
same number reached by other moves."""

from __future__ import annotations

import dataclasses
from typing import Any

import fakeredis

from domain.core.rng import SeededRng
from events.execute import Executor, Loaded
from events.store import EventStore
from service.legal import LegalCommands


class Counting:
    """A game's rules, counting how often they list legal commands."""

    def __init__(self, rules: Any) -> None:
        self.rules, self.listed = rules, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def legal_commands(self, state: Any, seat: int) -> Any:
        self.listed += 1
        return self.rules.legal_commands(state, seat)


def started(executor: Executor) -> Loaded:
    executor.store.games.create("g", "djambi", {}, 4)
    for seat in range(4):
        executor.store.seats.claim("g", seat, f"p{seat}", f"token{seat}")
    executor.start("g", SeededRng(1))
    return executor.load("g")


def test_a_version_is_listed_once_per_seat_and_form() -> None:
    loaded = started(Executor(EventStore(fakeredis.FakeRedis())))
    counting = Counting(loaded.game)
    loaded = dataclasses.replace(loaded, game=counting)
    legal = LegalCommands()
    seat = loaded.game.status(loaded.state).to_move[0]
    first = legal.answer(loaded, seat, "list")
    assert legal.answer(loaded, seat, "list") is first and counting.listed == 1
    assert len(first["commands"]) == 891 and first["version"] == loaded.version
    grouped = legal.answer(loaded, seat, "grouped")
    assert counting.listed == 2 and [choice["value"] for choice in grouped["choices"]][0] == "djambi.play"
    legal.answer(dataclasses.replace(loaded, command_id="another"), seat, "list")  # the same number, other moves
    assert counting.listed == 3


def test_the_least_recently_asked_answers_are_let_go() -> None:
    loaded = started(Executor(EventStore(fakeredis.FakeRedis())))
    counting = Counting(loaded.game)
    legal = LegalCommands(capacity=2)
    for seat in range(3):
        legal.answer(dataclasses.replace(loaded, game=counting), seat, "list")
    legal.answer(dataclasses.replace(loaded, game=counting), 2, "list")
    legal.answer(dataclasses.replace(loaded, game=counting), 0, "list")
    assert counting.listed == 4  # seat 2 was kept, seat 0 let go
