"""An import's events written apart a few at a time and made the game's stream at once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import redis

from application import copies
from application.errors import Unavailable
from events import keys, slots, streams
from events.envelope import Lifecycle
from events.errors import GameNotFound
from events.store import EventStore
from tests.logs import genuine_export

GAME_ID = "imported1"


@pytest.fixture
def lines(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A genuine export, imported as GAME_ID five events a chunk (each chunk whole moves)."""
    monkeypatch.setattr(streams, "STAGED_CHUNK", 5)
    monkeypatch.setattr(copies, "new_id", lambda: GAME_ID)
    return genuine_export("taki", 2, 3)


def imported(store: EventStore, lines: list[str]) -> str:
    return copies.import_log(store, copies.checked_log("\n".join(lines).encode(), max_events=10_000), "ann")


def on_each_chunk(monkeypatch: pytest.MonkeyPatch, then: Callable[[int], None]) -> None:
    """Call `then` with the count of chunks written so far after each one an import writes."""
    written = 0
    run = slots.run

    def counted(client: Any, key: str, queue: Any) -> list[Any]:
        nonlocal written
        replies = run(client, key, queue)
        written += 1
        then(written)
        return replies

    monkeypatch.setattr(slots, "run", counted)


def test_an_import_written_in_chunks_is_its_log_and_leaves_nothing_staged(
        store: EventStore, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    chunks: list[int] = []
    on_each_chunk(monkeypatch, chunks.append)
    record = store.games.get(imported(store, lines))
    stored, written = store.streams.read(GAME_ID), [json.loads(line) for line in lines[1:]]
    assert len(chunks) > 10 and record.status is Lifecycle.FINISHED and record.version == len(written)
    assert [(e.version, e.type, e.payload, e.actor, e.cause) for e in stored] == [
        (line["version"], line["type"], line["payload"], line["actor"], line.get("command")) for line in written]
    assert [e.command_id == stored[i - 1].command_id for i, e in enumerate(stored) if i] == [
        line["command_id"] == written[i - 1]["command_id"] for i, line in enumerate(written) if i]
    assert store.redis.ttl(keys.stream(GAME_ID)) == -1
    assert not store.redis.exists(keys.staged(GAME_ID), keys.staged_meta(GAME_ID))


def test_an_import_refused_a_chunk_midway_leaves_no_game_and_its_chunks_expiring(
        store: EventStore, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse_the_third(written: int) -> None:
        if written == 3:
            raise redis.ResponseError("OOM command not allowed when used memory > 'maxmemory'")

    on_each_chunk(monkeypatch, refuse_the_third)
    with pytest.raises(redis.ResponseError):
        imported(store, lines)
    with pytest.raises(GameNotFound):
        store.games.get(GAME_ID)
    assert sorted(store.redis.keys(f"*{{{GAME_ID}}}*")) == sorted(
        key.encode() for key in (keys.staged(GAME_ID), keys.staged_meta(GAME_ID)))
    assert 0 < store.redis.ttl(keys.staged(GAME_ID)) <= streams.STAGED_TTL


def test_a_reader_sees_an_import_not_at_all_or_whole(
        store: EventStore, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[int, int] | None] = []

    def look(_: object = None) -> None:
        try:
            seen.append((store.games.get(GAME_ID).version, len(store.streams.read(GAME_ID))))
        except GameNotFound:
            seen.append(None)

    on_each_chunk(monkeypatch, look)
    publish = store.streams.publish
    monkeypatch.setattr(store.streams, "publish", lambda *args: (look(), publish(*args), look()))
    imported(store, lines)
    whole = (len(lines) - 1,) * 2
    assert seen[0] is None and set(seen) == {None, (0, 0), whole} and seen[-1] == whole
    assert seen.index((0, 0)) > seen.index(None) and seen.count(whole) == 1


def test_an_import_whose_staged_events_expired_before_publishing_leaves_no_game_and_says_so(
        store: EventStore, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    publish = store.streams.publish

    def expired_first(game_id: str, version: int, status: Lifecycle) -> None:
        store.redis.delete(keys.staged(game_id), keys.staged_meta(game_id))  # as STAGED_TTL ends them
        publish(game_id, version, status)

    monkeypatch.setattr(store.streams, "publish", expired_first)
    with pytest.raises(Unavailable) as refused:
        imported(store, lines)
    assert refused.value.code == "import_interrupted"
    with pytest.raises(GameNotFound):
        store.games.get(GAME_ID)
    assert store.redis.keys(f"*{{{GAME_ID}}}*") == []
    assert [key for key in store.redis.keys("*") if store.redis.type(key) == b"zset" and
            store.redis.zscore(key, GAME_ID) is not None] == []
