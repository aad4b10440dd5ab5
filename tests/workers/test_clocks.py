"""Clocks that reach zero, applied by real `meeple worker` processes: the timeout policies, vacation
days spent automatically in correspondence games (once for every game of the player at once, by
two workers at once), never for a clock of seconds, the allowance running out, and a deadline
brought nearer by a vacation ended early."""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from rq.job import Job

from application.deadlines import due, spend_vacation_day
from application.vacations import come_back
from domain.core.rng import ScriptedRng
from events import clock, keys
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.vacations import DAY, Spent, Vacations, spans_of
from players.webhooks import Webhooks
from tests.conftest import Start
from tests.workers.conftest import two_people, wait_for
from tests.workers.test_deadlines import commands
from tests.workers.test_webhooks import Receiver, receiver  # noqa: F401 - the fixture

pytestmark = pytest.mark.redis


def fischer(seconds: int, policy: DeadlinePolicy = DeadlinePolicy.SKIP, level: str | None = None) -> TurnDeadline:
    return TurnDeadline(seconds, policy, level, clock=ClockSystem.FISCHER, increment=1, maximum=seconds + 5)


def a_day() -> TurnDeadline:
    """A correspondence clock: a day in the bank, none added."""
    return TurnDeadline(DAY // 1000, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER, maximum=DAY // 1000)


def begun(executor: Executor, monkeypatch: pytest.MonkeyPatch, at: int, games: int) -> list[str]:
    """`games` games of ann's against bo, on a day's clock, begun at `at` by the store's clock."""
    with monkeypatch.context() as patched:
        patched.setattr(clock, "now", lambda: at)
        return [ann_against_bo(executor, a_day())[0] for _ in range(games)]


def ann_against_bo(executor: Executor, deadline: TurnDeadline) -> tuple[str, str]:
    """A started two-seat TAKI game with registered ann at seat 0, to move first; its id and ann's."""
    players = PlayerStore(executor.store.redis)
    ann = players.get("ann") or players.register("ann", "ann", "ann-token-0123456789")
    game_id = f"c{time.monotonic_ns()}"
    executor.store.games.create(game_id, "taki", {}, 2, deadline)
    executor.store.seats.claim(game_id, 0, "ann", f"seat-ann-{game_id}", player_id=ann.id)
    players.joined(ann.id, game_id)
    executor.store.seats.claim(game_id, 1, "bo", f"seat-bo-{game_id}")
    executor.start(game_id, ScriptedRng())
    return game_id, ann.id


@pytest.mark.parametrize(("policy", "level"), [(DeadlinePolicy.SKIP, None), (DeadlinePolicy.AUTO, "greedy"),
                                               (DeadlinePolicy.FORFEIT, None)])
def test_each_timeout_policy_applies_when_a_fischer_clock_reaches_zero(
        executor: Executor, start_worker: Start, policy: DeadlinePolicy, level: str | None) -> None:
    game_id = two_people(executor, fischer(1, policy, level))
    started = executor.store.streams.read(game_id)[-1].time
    start_worker()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 1, timeout=30)
    first = commands(executor, game_id)[0]
    assert first.actor == "deadline:0" and first.time >= started + 1000
    if policy is DeadlinePolicy.FORFEIT:
        assert executor.load(game_id).state.forfeited == (0,)


def test_a_vacation_day_is_spent_once_when_clocks_of_two_games_run_out_at_once(
        executor: Executor, start_worker: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    executor.store.redis.delete("meeple:player:{ann}:vacations")
    out = int(time.time() * 1000) + 2000  # both clocks reach zero at this moment
    games = begun(executor, monkeypatch, out - DAY, 2)
    versions = {game_id: executor.load(game_id).version for game_id in games}
    start_worker(), start_worker()  # the two games' deadline jobs may run at once, one in each
    assert wait_for(lambda: bool(spans_of(executor.store.redis, "ann")), timeout=30)
    time.sleep(3)  # both jobs have run by now
    assert spans_of(executor.store.redis, "ann") == ((out, out + DAY),)
    assert Vacations(executor.store.redis, 30).allowance("ann", out).days_left == 29
    for game_id, version in versions.items():
        assert executor.load(game_id).version == version  # no timeout: every clock of ann's stands still
        deadline = due(executor.store, executor.load(game_id), 0)
        assert deadline is not None and deadline.at == out + DAY


def test_two_games_spending_a_day_at_once_spend_one(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    executor.store.redis.delete("meeple:player:{ann}:vacations")
    out = int(time.time() * 1000) - 1000
    games = [executor.load(game_id) for game_id in begun(executor, monkeypatch, out - DAY, 8)]
    with ThreadPoolExecutor(8) as pool:
        spent = list(pool.map(lambda loaded: spend_vacation_day(executor.store, loaded, 0, out, 30), games))
    assert spent == [Spent.DAY] * 8 and spans_of(executor.store.redis, "ann") == ((out, out + DAY),)
    assert spend_vacation_day(executor.store, games[0], 0, out + 1, 30) is Spent.DAY  # covered
    assert spend_vacation_day(executor.store, games[0], 0, out - 1000, 30) is Spent.NOT_DUE  # it runs out later
    assert spans_of(executor.store.redis, "ann") == ((out, out + DAY),)


def test_a_clock_of_seconds_runs_out_without_spending_a_day(executor: Executor, start_worker: Start) -> None:
    executor.store.redis.delete("meeple:player:{ann}:vacations")
    game_id, ann = ann_against_bo(executor, fischer(1))
    start_worker()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 1, timeout=15)
    assert commands(executor, game_id)[0].actor == "deadline:0" and spans_of(executor.store.redis, ann) == ()


def test_when_the_allowance_runs_out_the_timeout_policy_applies(executor: Executor, start_worker: Start,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_VACATION_DAYS_PER_YEAR", "1")
    executor.store.redis.delete("meeple:player:{ann}:vacations")
    vacations, now = Vacations(executor.store.redis, 1), int(time.time() * 1000)
    vacations.take("ann", now + 1, now)  # a vacation that ended at once spends its day
    game_id, = begun(executor, monkeypatch, now + 2 - DAY, 1)
    start_worker()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 1, timeout=30)
    assert commands(executor, game_id)[0].actor == "deadline:0"
    assert spans_of(executor.store.redis, "ann") == ((now, now + 1),)  # no day more was spent


def test_coming_back_early_brings_the_deadline_back(executor: Executor, start_worker: Start,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_VACATION_DAYS_PER_YEAR", "1")
    executor.store.redis.delete("meeple:player:{ann}:vacations")
    vacations = Vacations(executor.store.redis, 1)
    vacations.take("ann", int(time.time() * 1000) + DAY - 60_000, int(time.time() * 1000))  # the one day there is
    game_id, ann = ann_against_bo(executor, fischer(2))
    version = executor.load(game_id).version
    start_worker()
    time.sleep(4)
    assert executor.load(game_id).version == version  # away: the clock stands still
    come_back(executor.store, vacations, ann, int(time.time() * 1000))
    back = time.time()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 1, timeout=30)
    assert commands(executor, game_id)[0].actor == "deadline:0" and time.time() - back < 15


def test_a_day_spent_schedules_the_moved_deadlines_reminders_announces_the_games_and_reminds_no_one_during_it(
        executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    redis = executor.store.redis
    redis.delete("meeple:player:{ann}:vacations")
    before = DAY // 1000 - 5  # a reminder 5 s into the day spent
    monkeypatch.setitem(os.environ, "MEEPLE_REMINDERS", str(before))
    out = int(time.time() * 1000) + 2000
    (game_id,), (other, ann) = begun(executor, monkeypatch, out - DAY, 1), ann_against_bo(executor, a_day())
    Webhooks(redis).add(ann, "ok", f"{receiver}/ok", "s" * 64)
    version = executor.load(game_id).version
    start_worker()
    assert wait_for(lambda: Job.exists(f"remind-{game_id}-{version}-0-{before}-{out + DAY}", connection=redis), timeout=30)
    feed = keys.feed(executor.store.feed.shards.of(other))
    assert wait_for(lambda: any(fields[b"game"] == other.encode() for _, fields in redis.xrange(feed, min=f"{out}-0")),
                    timeout=10)  # ann's other game is announced: its clock stopped too
    time.sleep(max(0.0, out / 1000 + 8 - time.time()))  # past the reminder's moment
    assert [json.loads(body)["kind"] for _, _, body in Receiver.received].count("reminder") == 0
