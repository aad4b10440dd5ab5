"""The reactor's sweep: it starts a full game nobody started, and lets the feed through while it runs."""

from __future__ import annotations

import threading
import time

import pytest

from domain.core.rng import SeededRng
from events.execute import Executor
from tests.workers.conftest import wait_for
from workers.reactor import Reactor

pytestmark = pytest.mark.redis


def started_game(executor: Executor, game_id: str) -> None:
    executor.store.create_game(game_id, "taki", {}, 2)
    for seat in range(2):
        executor.store.claim_seat(game_id, seat, f"p{seat}", f"token-{game_id}-{seat}")
    executor.start(game_id, SeededRng(1))


def test_a_full_game_whose_start_was_lost_is_started_by_the_sweep(executor: Executor) -> None:
    executor.store.create_game("full", "taki", {}, 2)
    for seat in range(2):  # the last seat taken, and its API process gone before the start
        executor.store.claim_seat("full", seat, f"p{seat}", f"token-{seat}")
    executor.store.create_game("half", "taki", {}, 2)
    executor.store.claim_seat("half", 0, "p0", "token-half")
    Reactor(executor).sweep()
    assert executor.load("full").version > 0 and executor.store.game("full").status == "active"
    assert executor.load("half").version == 0
    assert [game_id for game_id, _ in executor.store.indexed("active")] == ["full"]


def test_a_sweep_holds_up_no_reaction_to_the_feed(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(40):
        started_game(executor, f"old{number}")
    reactor = Reactor(executor, sweep_seconds=60)
    reacted: list[str] = []
    react = reactor.react

    def slow_react(game_id: str) -> int:
        reacted.append(game_id)
        time.sleep(0.05)  # a sweep of the 40 games takes 2 s
        return react(game_id)

    monkeypatch.setattr(reactor, "react", slow_react)
    stop = threading.Event()
    running = threading.Thread(target=reactor.run, args=(stop,))
    running.start()
    try:
        assert wait_for(lambda: len(reacted) >= 5, timeout=10)
        started_game(executor, "new")  # announced on the feed, and last in the index of games in play
        assert wait_for(lambda: "new" in reacted and "old39" in reacted, timeout=10)
    finally:
        stop.set()
        running.join(timeout=10)
    assert reacted.index("new") < reacted.index("old39")
