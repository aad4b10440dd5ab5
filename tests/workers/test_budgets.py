"""An AI's budget, from the store to its move: the jobs that play a bot's turn and apply an `auto`
deadline, run by a real RQ worker, let the AI think within the budget its seat or deadline was
given, and within its level's own otherwise."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest
from rq import SimpleWorker

from domain.core.game import Budget, Clock, Seat
from domain.core.rng import Rng
from domain.taki import TAKI
from domain.taki.commands import Command
from domain.taki.state import TakiState
from events.envelope import DeadlinePolicy, TurnDeadline
from events.execute import Executor
from tests.workers.conftest import new_game, two_people
from workers.bots import play_bot_turn
from workers.overdue import apply_deadline
from workers.queues import bot_queue, deadline_queue

pytestmark = pytest.mark.redis


@dataclass(frozen=True)
class Spy:
    """A `search` level that notes the budget it was asked to think within and the clock it was
    given, and plays as `greedy`."""

    budget: Budget
    clock: Clock | None = None
    seen: list[Budget] = field(default_factory=list, compare=False)
    clocks: list[Clock | None] = field(default_factory=list, compare=False)

    def __call__(self, state: TakiState, seat: Seat, rng: Rng) -> Command:
        self.seen.append(self.budget)
        self.clocks.append(self.clock)
        return TAKI.bots["greedy"](state, seat, rng)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    spy = Spy(Budget(iterations=40, seconds=0.8))
    monkeypatch.setitem(TAKI.bots, "search", spy)  # type: ignore[arg-type]
    return spy


@pytest.mark.parametrize("budget", [Budget(iterations=3, seconds=30.0), None])
def test_a_bot_seat_thinks_within_its_budget(executor: Executor, spy: Spy, budget: Budget | None) -> None:
    game_id, _ = new_game(executor, {0: "search"}, seats=2, budgets=None if budget is None else {0: budget})
    loaded = executor.load(game_id)
    assert TAKI.status(loaded.state).to_move == (0,)
    bot_queue(executor.store.redis).enqueue(play_bot_turn, game_id, loaded.version, 0)
    SimpleWorker([bot_queue(executor.store.redis)], connection=executor.store.redis).work(burst=True)
    assert spy.seen == [budget or spy.budget] and spy.clocks == [time.perf_counter]
    assert executor.store.streams.read(game_id, after=loaded.version)[0].actor == "bot:0"


def test_an_auto_deadline_plays_within_its_budget(executor: Executor, spy: Spy) -> None:
    game_id = two_people(executor, TurnDeadline(1, DeadlinePolicy.AUTO, "search", budget=Budget(iterations=2)))
    version = executor.load(game_id).version
    time.sleep(1.1)  # the deadline passes
    deadline_queue(executor.store.redis).enqueue(apply_deadline, game_id, version, 0)
    SimpleWorker([deadline_queue(executor.store.redis)], connection=executor.store.redis).work(burst=True)
    assert spy.seen == [Budget(iterations=2)] and spy.clocks == [time.perf_counter]
    assert executor.store.streams.read(game_id, after=version)[0].actor == "deadline:0"
