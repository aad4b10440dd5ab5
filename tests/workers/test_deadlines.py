"""Turn deadlines and the +3 response window, applied by real `meeple worker` processes."""

from __future__ import annotations

import time

import pytest
from rq.job import Job

from application.deadlines import Due, due
from domain.core.rng import ScriptedRng
from domain.taki.cards import DECK
from domain.taki.commands import Draw, Play
from events.envelope import DeadlinePolicy, Envelope, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.vacations import Vacations
from tests.conftest import Start
from tests.workers.conftest import two_people, wait_for

pytestmark = pytest.mark.redis


def commands(executor: Executor, game_id: str) -> list[Envelope]:
    """The first event of each command after the setup."""
    firsts: dict[str, Envelope] = {}
    for envelope in executor.store.streams.read(game_id):
        if envelope.actor != "system":
            firsts.setdefault(envelope.command_id, envelope)
    return sorted(firsts.values(), key=lambda e: e.version)


def test_skip_sends_the_games_timeout_command_once(executor: Executor, start_worker: Start) -> None:
    game_id = two_people(executor, TurnDeadline(1, DeadlinePolicy.SKIP))
    setup_version = executor.load(game_id).version
    start_worker()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 2, timeout=30)
    first, second = commands(executor, game_id)[:2]
    assert (first.actor, first.version, first.type) == ("deadline:0", setup_version + 1, "cards_drawn")
    assert second.actor == "deadline:1"
    assert len({e.version for e in commands(executor, game_id)}) == len(commands(executor, game_id))


def test_auto_lets_the_ai_play_the_move(executor: Executor, start_worker: Start) -> None:
    game_id = two_people(executor, TurnDeadline(1, DeadlinePolicy.AUTO, "greedy"))
    start_worker()
    assert wait_for(lambda: len(commands(executor, game_id)) >= 1, timeout=30)
    assert commands(executor, game_id)[0].actor == "deadline:0"


def test_a_move_in_time_makes_the_deadline_do_nothing(executor: Executor, start_worker: Start) -> None:
    game_id = two_people(executor, TurnDeadline(2, DeadlinePolicy.SKIP))
    version = executor.load(game_id).version
    start_worker()
    job_id = f"deadline-{game_id}-{version}-0-{due(executor.store, executor.load(game_id), 0).at}"  # type: ignore[union-attr]
    assert wait_for(lambda: Job.exists(job_id, connection=executor.store.redis), timeout=30)
    executor.execute(game_id, Draw(0), actor="seat:0", expected_version=version)
    assert wait_for(lambda: len(commands(executor, game_id)) >= 2, timeout=30)
    first, second = commands(executor, game_id)[:2]
    assert first.actor == "seat:0" and second.actor == "deadline:1"
    assert wait_for(lambda: not Job.exists(job_id, connection=executor.store.redis), timeout=10)  # ran, not kept
    assert "deadline:0" not in {command.actor for command in commands(executor, game_id)}  # and did nothing


def test_a_plus3_window_closes_by_its_own_deadline(executor: Executor, start_worker: Start) -> None:
    order = [card.id for card in DECK]
    order.remove("none.plus3.1")
    order.insert(0, "none.plus3.1")  # dealt first, to seat 0; the flip (index 16) is a coloured card
    game_id = two_people(executor, None, {"plus3_response_seconds": 1}, ScriptedRng([order]))
    executor.execute(game_id, Play(0, ("none.plus3.1",)), actor="seat:0")
    assert executor.load(game_id).state.plus3 is not None
    start_worker()
    assert wait_for(lambda: executor.load(game_id).state.plus3 is None, timeout=30)
    passed = [e for e in executor.store.streams.read(game_id) if e.type == "plus3_passed"]
    assert [(e.actor, e.payload["seat"]) for e in passed] == [("deadline:1", 1)]
    assert len(executor.load(game_id).state.hands[1]) == 11


def test_a_vacation_moves_a_deadline_as_far_as_the_game_allows(executor: Executor, start_worker: Start,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_VACATION_DAYS_PER_YEAR", "1")  # the worker spends no day more for ann
    players, vacations = PlayerStore(executor.store.redis), Vacations(executor.store.redis, 1)
    ann = players.register("ann", "ann", "ann-token-0123456789")
    executor.store.games.create("v", "taki", {}, 2, TurnDeadline(1, DeadlinePolicy.SKIP, vacation_days=1))
    executor.store.seats.claim("v", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("v", 1, "bo", "seat-token-bo")
    executor.start("v", ScriptedRng())
    version = executor.load("v").version
    since = executor.store.streams.read("v", after=version - 1)[0].time
    vacations.take(ann.id, since + 4000, since)  # away from the turn's start, back 4 s later: within the day allowed
    assert due(executor.store, executor.load("v"), 0) == Due(since + 5000, DeadlinePolicy.SKIP, None)  # the clock stood still
    start_worker()
    time.sleep(2.5)
    assert executor.load("v").version == version  # the 1 s deadline waited
    assert wait_for(lambda: len(commands(executor, "v")) >= 1, timeout=30)
    assert commands(executor, "v")[0].actor == "deadline:0" and commands(executor, "v")[0].time >= since + 5000
    executor.store.games.create("w", "taki", {}, 2, TurnDeadline(1, DeadlinePolicy.SKIP, vacation_days=1))
    executor.store.seats.claim("w", 0, "ann", "seat-token-ann-w", player_id=ann.id)
    executor.store.seats.claim("w", 1, "bo", "seat-token-bo-w")
    executor.start("w", ScriptedRng())
    begun = executor.store.streams.read("w")[-1].time
    Vacations(executor.store.redis, 4).take(ann.id, begun + 3 * 86_400_000, begun)  # three days: one counts
    assert due(executor.store, executor.load("w"), 0).at == begun + 1000 + 86_400_000  # type: ignore[union-attr]


def test_forfeit_makes_the_silent_seat_leave(executor: Executor, start_worker: Start) -> None:
    game_id = two_people(executor, TurnDeadline(1, DeadlinePolicy.FORFEIT))
    start_worker()
    assert wait_for(lambda: executor.load(game_id).state.is_over, timeout=30)
    state = executor.load(game_id).state
    assert state.forfeited == (0,) and state.result is not None and state.result.ranking == ((1,), (0,))
    assert commands(executor, game_id)[0].actor == "deadline:0"
