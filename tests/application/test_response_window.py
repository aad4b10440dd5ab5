"""The rules' own deadline (TAKI's +3 window) counts from the window's opening, live and in an imported log."""

from __future__ import annotations

import time

from application.deadlines import due, early_deadline, log_clock, window_opened
from domain.core.rng import ScriptedRng
from domain.taki.cards import DECK
from domain.taki.commands import Pass, Play
from events.envelope import DeadlinePolicy, Envelope, TurnDeadline
from events.execute import Executor
from events.log_file import export_lines, read_log
from tests.logs import entries, joined


def plus3_window(executor: Executor, deadline: TurnDeadline | None = None) -> Envelope:
    """A three-seat TAKI game "w" whose seat 0 has just played a +3 (60 s to answer); the window's opening event."""
    order = [card.id for card in DECK]
    order.remove("none.plus3.1")
    order.insert(0, "none.plus3.1")  # dealt first, to seat 0
    executor.store.games.create("w", "taki", {"plus3_response_seconds": 60}, 3, deadline)
    for seat in range(3):
        executor.store.seats.claim("w", seat, f"p{seat}", f"token-{seat}-w")
    executor.start("w", ScriptedRng([order]))
    executor.execute("w", Play(0, ("none.plus3.1",)), actor="seat:0")
    return executor.store.streams.read("w")[-1]


def test_an_answer_in_a_plus3_window_gives_the_seats_still_awaited_no_more_time(executor: Executor) -> None:
    opening = plus3_window(executor)
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


def test_an_imported_logs_deadline_in_a_plus3_window_counts_from_its_opening(executor: Executor) -> None:
    opening = plus3_window(executor, TurnDeadline(86_400, DeadlinePolicy.SKIP))  # a day a move: no clock runs out
    executor.execute("w", Pass(1), actor="seat:1")
    executor.execute("w", Pass(2), actor="deadline:2")  # the window's own deadline
    record, envelopes = executor.store.games.get("w"), executor.store.streams.read("w")
    header, events = entries(list(export_lines(record, envelopes, log_clock(executor.store, record, envelopes))))
    answered, closed = (envelope.command_id for envelope in envelopes[-2:])  # seat 1's answer, then the deadline's

    def timed(deadline_after: int) -> tuple[int, str] | None:
        """What the import finds early in the log with seat 1 answering 10 s after the window's opening and
        the deadline `deadline_after` ms after it."""
        at = {answered: opening.time + 10_000, closed: opening.time + deadline_after}
        lines = joined(header, [event | {"time": at.get(event["command_id"], event["time"])} for event in events])
        return early_deadline(read_log(lines.decode().splitlines()))

    assert timed(60_000) is None
    assert "before its time ran out" in timed(59_999)[1]  # type: ignore[index]
