"""AI seats played by real `meeple worker` processes (RQ workers and the reactor) on a real Redis."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from domain.core.rng import SeededRng
from domain.taki.commands import Play
from events.execute import Executor
from events.store import EventStore

pytestmark = pytest.mark.redis

Start = Callable[[], subprocess.Popen[bytes]]


@pytest.fixture
def executor(real_redis: redis.Redis) -> Executor:  # type: ignore[override]
    return Executor(EventStore(real_redis))


@pytest.fixture
def start_worker(real_redis_url: str, real_redis: redis.Redis, tmp_path: Path) -> Iterator[Start]:
    processes: list[subprocess.Popen[bytes]] = []

    def start() -> subprocess.Popen[bytes]:
        env = os.environ | {"MEEPLE_REDIS_URL": real_redis_url, "MEEPLE_SWEEP_SECONDS": "1"}
        log = (tmp_path / f"worker{len(processes)}.log").open("wb")
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                                   cwd=Path(__file__).parents[2], stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        processes.append(process)
        return process

    yield start
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def new_game(executor: Executor, bots: dict[int, str], seats: int = 4) -> tuple[str, dict[int, str]]:
    game_id = f"g{time.monotonic_ns()}"
    executor.store.create_game(game_id, "taki", {}, seats)
    tokens = {}
    for seat in range(seats):
        if seat in bots:
            executor.store.claim_seat(game_id, seat, f"{bots[seat]} bot", None, bot=bots[seat])
        else:
            tokens[seat] = f"token-{seat}-{game_id}"
            executor.store.claim_seat(game_id, seat, "person", tokens[seat])
    executor.start(game_id, SeededRng(len(bots)))
    return game_id, tokens


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def finished(executor: Executor, game_id: str) -> bool:
    loaded = executor.load(game_id)
    return bool(loaded.game.status(loaded.state).finished)


def test_a_game_of_bots_plays_to_the_end_by_itself(executor: Executor, start_worker: Start) -> None:
    game_id, _ = new_game(executor, {0: "random", 1: "greedy", 2: "random", 3: "greedy"})
    start_worker()
    assert wait_for(lambda: finished(executor, game_id), timeout=240)
    actors = {e.actor for e in executor.store.read(game_id)}
    assert actors == {"system", "bot:0", "bot:1", "bot:2", "bot:3"}


def test_a_person_among_bots_always_gets_the_turn_back(executor: Executor, start_worker: Start) -> None:
    game_id, _ = new_game(executor, {1: "greedy", 2: "random", 3: "greedy"})
    start_worker()
    chooser = random.Random(5)
    while not finished(executor, game_id):
        assert wait_for(lambda: finished(executor, game_id) or 0 in executor.load(game_id).game.status(
            executor.load(game_id).state).to_move, timeout=60), "the bots never gave the turn back"
        loaded = executor.load(game_id)
        if loaded.game.status(loaded.state).finished:
            break
        legal = loaded.game.legal_commands(loaded.state, 0)
        plays = [c for c in legal if isinstance(c, Play)]
        command = chooser.choice(plays or list(legal))
        executor.execute(game_id, command, actor="seat:0", expected_version=loaded.version)


def test_killing_a_worker_loses_no_bot_move(executor: Executor, start_worker: Start) -> None:
    game_id, _ = new_game(executor, {0: "random", 1: "random", 2: "random"}, seats=3)
    first = start_worker()
    assert wait_for(lambda: executor.load(game_id).version > 40 or finished(executor, game_id), timeout=120)
    os.killpg(first.pid, signal.SIGKILL)  # a job already in a work horse may still finish
    first.wait()
    start_worker()
    assert wait_for(lambda: finished(executor, game_id), timeout=240)
