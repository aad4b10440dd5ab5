"""AI seats played by real `meeple worker` processes (RQ workers and the reactor) on a real Redis."""

from __future__ import annotations

import itertools
import os
import signal
import time
from pathlib import Path

import pytest
import redis

from domain.core.rng import SeededRng
from events import keys
from events.errors import VersionConflict
from events.execute import Executor
from events.store import EventStore
from runtime.embedded import EmbeddedRedis
from tests.conftest import Start
from tests.workers.conftest import new_game, reacting, wait_for

pytestmark = pytest.mark.redis


def finished(executor: Executor, game_id: str) -> bool:
    loaded = executor.load(game_id)
    return bool(loaded.game.status(loaded.state).finished)


@pytest.mark.parametrize("game", ["taki", "djambi", "bahama_taxi"])
def test_a_game_of_bots_plays_to_the_end_by_itself(executor: Executor, start_worker: Start, game: str) -> None:
    game_id, _ = new_game(executor, {0: "random", 1: "greedy", 2: "search", 3: "greedy"}, game=game)
    start_worker()
    assert wait_for(lambda: finished(executor, game_id), timeout=240)
    actors = {e.actor for e in executor.store.streams.read(game_id)} - {"system"}
    assert actors and actors <= {"bot:0", "bot:1", "bot:2", "bot:3"}  # a short game may end before every seat moves


@pytest.mark.parametrize(("game", "options"), [("taki", {}), ("djambi", {}), ("bahama_taxi", {"max_rounds": 25})])
def test_a_person_among_bots_always_gets_the_turn_back(executor: Executor, start_worker: Start, game: str,
                                                       options: dict[str, object]) -> None:
    game_id, _ = new_game(executor, {1: "greedy", 2: "random", 3: "greedy"}, game=game, options=options)
    start_worker()
    chooser = SeededRng(5)
    while not finished(executor, game_id):
        assert wait_for(lambda: finished(executor, game_id) or 0 in executor.load(game_id).game.status(
            executor.load(game_id).state).to_move, timeout=60), "the bots never gave the turn back"
        loaded = executor.load(game_id)
        if loaded.game.status(loaded.state).finished:
            break
        command = loaded.game.bots["random"](loaded.state, 0, chooser)  # a person who plays any legal move
        try:
            executor.execute(game_id, command, actor="seat:0", expected_version=loaded.version)
        except VersionConflict:
            pass  # a bot answered a +3 in the same window first: look at the game again, as a client would on 409


def test_killing_a_worker_loses_no_bot_move(executor: Executor, start_worker: Start) -> None:
    game_id, _ = new_game(executor, {0: "random", 1: "random", 2: "random"}, seats=3)
    first = start_worker()
    assert wait_for(lambda: executor.load(game_id).version > 40 or finished(executor, game_id), timeout=120)
    os.killpg(first.pid, signal.SIGKILL)  # a job already in a work horse may still finish
    first.wait()
    start_worker()
    assert wait_for(lambda: finished(executor, game_id), timeout=240)


def test_a_worker_started_before_its_store_waits_for_it(start_worker: Start, tmp_path: Path) -> None:
    store = EmbeddedRedis(tmp_path / "store")
    worker = start_worker(store.url)
    time.sleep(3)
    assert worker.poll() is None, "the worker exited while its store was away"
    with store:
        connection = redis.Redis.from_url(store.url)
        assert wait_for(lambda: reacting(connection), timeout=30)
        executor = Executor(EventStore(connection))
        game_id, _ = new_game(executor, {0: "greedy", 1: "greedy"}, seats=2)
        assert wait_for(lambda: finished(executor, game_id), timeout=120)


def test_a_game_of_bots_leaves_no_job_behind(executor: Executor, start_worker: Start) -> None:
    game_id, _ = new_game(executor, {0: "random", 1: "random"}, seats=2)
    start_worker()
    assert wait_for(lambda: finished(executor, game_id), timeout=120)
    client = executor.store.redis
    left = lambda: sorted(key.decode() for key in client.scan_iter(f"rq:*{game_id}*"))  # noqa: E731
    assert wait_for(lambda: not left(), timeout=10), left()  # no job hash, no result, no execution
    for registry, queue in itertools.product(("finished", "failed"), keys.WORKER_QUEUES):
        assert not [job for job in client.zrange(f"rq:{registry}:{queue}", 0, -1) if game_id.encode() in job]
