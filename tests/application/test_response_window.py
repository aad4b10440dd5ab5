"""The rules' own deadline (TAKI's +3 window) counts from the window's opening, live and in an imported log."""

from __future__ import annotations

import time

from application.deadlines import due, window_opened
from domain.core.rng import ScriptedRng
from domain.taki.cards import DECK
from domain.taki.commands import Pass, Play
from events.envelope import DeadlinePolicy
from events.execute import Executor


def test_an_answer_in_a_plus3_window_gives_the_seats_still_awaited_no_more_time(executor: Executor) -> None:
    order = [card.id for card in DECK]
    order.remove("none.plus3.1")
    order.insert(0, "none.plus3.1")  # dealt first, to seat 0
    executor.store.games.create("w", "taki", {"plus3_response_seconds": 60}, 3, None)
    for seat in range(3):
        executor.store.seats.claim("w", seat, f"p{seat}", f"token-{seat}-w")
    executor.start("w", ScriptedRng([order]))
    executor.execute("w", Play(0, ("none.plus3.1",)), actor="seat:0")
    opening = executor.store.streams.read("w")[-1]
    assert executor.load("w").state.plus3.awaiting == (1, 2)  # type: ignore[union-attr]
    time.sleep(0.01)
    executor.execute("w", Pass(1), actor="seat:1")
    answered = executor.store.streams.read("w")[-1]
    loaded = executor.load("w")
    assert answered.time > opening.time and loaded.state.plus3.awaiting == (2,)  # type: ignore[union-attr]
    assert window_opened(executor.store, loaded) == opening.time
    assert due(executor.store, loaded, 2) == due(executor.store, executor.load("w", opening.version), 2)
    assert due(executor.store, loaded, 2).at == opening.time + 60_000  # type: ignore[union-attr]
    assert due(executor.store, loaded, 2).policy is DeadlinePolicy.SKIP  # type: ignore[union-attr]
