"""The embedded server keeps every acknowledged append across a restart and a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from events.envelope import NewEvent
from events.store import EventStore
from runtime.config import Config
from runtime.embedded import EmbeddedRedis

pytestmark = pytest.mark.redis


@pytest.mark.parametrize("stop", ["terminate", "kill -9"])
def test_appends_survive_a_restart(tmp_path: Path, stop: str) -> None:
    server = EmbeddedRedis(tmp_path)
    server.start()
    store = EventStore(redis.Redis.from_url(server.url))
    store.games.create("g", "taki", {}, 2)
    for version in range(50):
        store.streams.append("g", version, [NewEvent("e", 1, {"n": version})], command_id="c", actor="system")
    store.redis.close()
    server.stop() if stop == "terminate" else server.kill()
    with EmbeddedRedis(tmp_path) as again:
        store = EventStore(redis.Redis.from_url(again.url))
        assert [e.payload["n"] for e in store.streams.read("g")] == list(range(50))
        assert store.games.get("g").version == 50
        store.redis.close()


def test_the_embedded_store_flushes_always_or_every_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEEPLE_STORE_FSYNC", raising=False)
    assert Config.from_env().store_fsync == "always"
    monkeypatch.setenv("MEEPLE_STORE_FSYNC", "no")  # the OS's own pace: up to ~30 s of answered moves at risk
    with pytest.raises(ValueError, match="MEEPLE_STORE_FSYNC"):
        Config.from_env()
