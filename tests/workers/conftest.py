"""The workers' tests: an executor on the session's real Redis server, and waiting for a worker."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis

from events import keys
from events.execute import Executor
from events.store import EventStore
from workers.reactor import GROUP


@pytest.fixture
def executor(real_redis: redis.Redis) -> Executor:  # type: ignore[type-arg]
    return Executor(EventStore(real_redis))


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
