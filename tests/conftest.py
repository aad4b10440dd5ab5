"""Shared fixtures: stores on fakeredis and on a real Redis server (the embedded one), and
real `meeple worker` processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import fakeredis
import pytest
import redis

from events.execute import Executor
from events.store import EventStore
from runtime.embedded import EmbeddedRedis
from tests.browsers import chromium  # noqa: F401 - the session's browser, for the tests that open pages


@pytest.fixture(scope="session")
def real_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # flushed once a second: nothing kills this one, and the tests' writes need no flush each
    with EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendfsync="everysec") as server:
        yield server.url


@pytest.fixture
def real_redis(real_redis_url: str) -> Iterator[redis.Redis]:  # type: ignore[type-arg]
    client = redis.Redis.from_url(real_redis_url)
    client.flushall()
    yield client
    client.close()


@pytest.fixture(params=["fakeredis", pytest.param("redis", marks=pytest.mark.redis)])
def client(request: pytest.FixtureRequest) -> redis.Redis:  # type: ignore[type-arg]
    """The same tests on fakeredis and on a real server."""
    if request.param == "fakeredis":
        return fakeredis.FakeRedis()
    return request.getfixturevalue("real_redis")  # type: ignore[no-any-return]


@pytest.fixture
def store(client: redis.Redis) -> EventStore:  # type: ignore[type-arg]
    return EventStore(client)


@pytest.fixture
def executor(store: EventStore) -> Executor:
    return Executor(store)


class Start(Protocol):
    """Starts a `meeple worker` on the session's store, or on the one at `url`."""

    def __call__(self, url: str | None = None) -> subprocess.Popen[bytes]: ...


@pytest.fixture
def start_worker(real_redis_url: str, real_redis: redis.Redis, tmp_path: Path) -> Iterator[Start]:  # type: ignore[type-arg]
    """Starts `meeple worker` processes (each in its own process group) on the session's store, or
    on the one at `url`; stops them after the test."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(url: str | None = None) -> subprocess.Popen[bytes]:
        env = os.environ | {"MEEPLE_REDIS_URL": url or real_redis_url, "MEEPLE_SWEEP_SECONDS": "1"}
        log = (tmp_path / f"worker{len(processes)}.log").open("wb")
        process = subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], env=env,
                                   cwd=Path(__file__).parents[1], stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        processes.append(process)
        return process

    yield start
    for process in processes:  # every one asked first: one slow to stop leaves none running into the next test
        try:  # the whole group: a worker killed by its test may have left a job's process behind
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for process in processes:
        process.wait(timeout=30)
