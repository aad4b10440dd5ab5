"""Real `meeple worker` processes on the session's real Redis server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import pytest
import redis

from events import keys
from events.execute import Executor
from events.store import EventStore
from workers.reactor import GROUP


class Start(Protocol):
    """Starts a `meeple worker` on the session's store, or on the one at `url`."""

    def __call__(self, url: str | None = None) -> subprocess.Popen[bytes]: ...


@pytest.fixture
def executor(real_redis: redis.Redis) -> Executor:  # type: ignore[type-arg]
    return Executor(EventStore(real_redis))


@pytest.fixture
def start_worker(real_redis_url: str, real_redis: redis.Redis, tmp_path: Path) -> Iterator[Start]:  # type: ignore[type-arg]
    """Starts `meeple worker` processes (each in its own process group) on the session's store, or
    on the one at `url`; stops them after the test."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(url: str | None = None) -> subprocess.Popen[bytes]:
        env = os.environ | {"MEEPLE_REDIS_URL": url or real_redis_url, "MEEPLE_SWEEP_SECONDS": "1"}
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


def reacting(client: redis.Redis) -> bool:  # type: ignore[type-arg]
    """Whether a reactor is reading the feed (its consumer group exists)."""
    try:
        return any(group["name"] == GROUP.encode() for group in client.xinfo_groups(keys.feed()))
    except redis.ResponseError:  # no feed yet
        return False


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
