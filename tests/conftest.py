"""Shared fixtures: stores on fakeredis and on a real Redis server (the embedded one)."""

from __future__ import annotations

from collections.abc import Iterator

import fakeredis
import pytest
import redis

from events.execute import Executor
from events.store import EventStore
from service.embedded import EmbeddedRedis


@pytest.fixture(scope="session")
def real_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
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
