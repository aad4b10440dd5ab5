"""The listing's pages: read from the listed games' indexes alone, whatever else the store holds,
and followed by a keyset cursor across the store's shards."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from redis.client import Pipeline

from events import clock, keys
from events.envelope import Lifecycle, NewEvent
from events.records import Cursor, GameRecords
from events.shards import Shards
from events.store import EventStore


def start(store: EventStore, game_id: str) -> None:
    store.streams.append(game_id, 0, [NewEvent("a", 1, {})], command_id="c", actor="system", status=Lifecycle.ACTIVE)


def every_page(games: GameRecords, limit: int, between: Iterator[None] | None = None, **filters: Any) -> list[str]:
    """Every game id a listing shows, page by page, running `between` before each page after the first."""
    page, cursor = games.page(filters.get("game"), filters.get("status"), None, limit)
    found = [record.id for record in page]
    while cursor is not None:
        if between is not None:
            next(between)
        page, cursor = games.page(filters.get("game"), filters.get("status"), Cursor.parse(cursor.code()), limit)
        found += [record.id for record in page]
    return found


class Counted:
    """How many commands a client sends, alone or in pipelines."""

    def __init__(self, client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
        self.commands = 0
        sent, piped = client.execute_command, Pipeline.execute

        def command(*args: Any, **options: Any) -> Any:
            self.commands += 1
            return sent(*args, **options)

        def pipeline(pipe: Pipeline, raise_on_error: bool = True) -> list[Any]:
            self.commands += len(pipe.command_stack)
            return piped(pipe, raise_on_error)

        monkeypatch.setattr(client, "execute_command", command)
        monkeypatch.setattr(Pipeline, "execute", pipeline)


def test_a_page_costs_the_same_however_many_unlisted_games_there_are(
        store: EventStore, client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    for number in range(12):
        store.games.create(f"listed-{number:02}", "taki", {}, 2)
    counted = Counted(client, monkeypatch)
    before = [record.id for record in store.games.page(None, Lifecycle.WAITING, None, 10)[0]]
    alone = counted.commands
    for number in range(3000):
        store.games.create(f"unlisted-{number}", "taki", {}, 2, unlisted=True)
    counted.commands = 0
    after = [record.id for record in store.games.page(None, Lifecycle.WAITING, None, 10)[0]]
    assert after == before == [f"listed-{number:02}" for number in range(11, 1, -1)]
    assert counted.commands == alone  # one read of the listing's index and the ten games' records


@pytest.fixture
def sharded(client: redis.Redis) -> EventStore:  # type: ignore[type-arg]
    return EventStore(client, shards=Shards.cluster())


def test_cursor_pages_over_the_shards_show_each_listed_game_once_newest_first(
        sharded: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    times = itertools.count(1_000_000, 1)
    monkeypatch.setattr(clock, "now", lambda: next(times) // 3)  # three games to a millisecond: ties by id
    names = [f"g{number:02}" for number in range(40)]
    for name in names:
        sharded.games.create(name, "djambi" if name.endswith("7") else "taki", {}, 2, unlisted=name.endswith("3"))
    for name in names[::4]:
        start(sharded, name)
    assert len({sharded.shards.of(name) for name in names}) > 8
    listed = [record.id for record in sorted((sharded.games.get(name) for name in names if not name.endswith("3")),
                                             key=lambda record: (record.created, record.id), reverse=True)]
    created = (sharded.games.create(f"new{number}", "taki", {}, 2) for number in itertools.count())

    def creating() -> Iterator[None]:
        for _ in itertools.count():
            next(created)
            yield

    assert every_page(sharded.games, 7, creating()) == listed
    assert every_page(sharded.games, 1, creating(), game="djambi") == [name for name in listed if name.endswith("7")]
    playing = [name for name in reversed(names[::4])]  # started in this order: the last first
    assert every_page(sharded.games, 2, creating(), status=Lifecycle.ACTIVE) == playing
    assert every_page(sharded.games, 3, creating(), game="taki", status=Lifecycle.ACTIVE) == playing


def test_a_game_that_changes_status_between_pages_is_shown_once(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    times = itertools.count(1_000_000)
    monkeypatch.setattr(clock, "now", lambda: next(times))
    for number in range(6):
        store.games.create(f"g{number}", "taki", {}, 2)
    first, cursor = store.games.page(None, Lifecycle.WAITING, None, 3)
    start(store, first[0].id)  # now active: it leaves the waiting games' listing
    start(store, "g1")  # not shown yet: it will not be
    rest, end = store.games.page(None, Lifecycle.WAITING, cursor, 10)
    assert [r.id for r in first] == ["g5", "g4", "g3"] and [r.id for r in rest] == ["g2", "g0"] and end is None
    assert [r.id for r in store.games.page(None, Lifecycle.ACTIVE, None, 10)[0]] == ["g1", "g5"]


def test_an_older_store_is_listed_once_its_listings_are_built(store: EventStore) -> None:
    for number in range(5):
        store.games.create(f"g{number}", "djambi" if number % 2 else "taki", {}, 2, unlisted=number == 3)
    start(store, "g2")
    expected = {(game, status): [r.id for r in store.games.page(game, status, None, 10)[0]]
                for game in (None, "taki", "djambi") for status in (None, Lifecycle.WAITING, Lifecycle.ACTIVE)}
    store.redis.delete(*(keys.listed(game, status, "") for game in (None, "taki", "djambi") for status in (None, *Lifecycle)))
    assert store.games.page(None, None, None, 10) == ([], None)
    store.games.build_listed_index()
    assert {(game, status): [r.id for r in store.games.page(game, status, None, 10)[0]]
            for game in (None, "taki", "djambi") for status in (None, Lifecycle.WAITING, Lifecycle.ACTIVE)} == expected
    assert expected[(None, None)] == ["g4", "g2", "g1", "g0"] and expected[(None, Lifecycle.ACTIVE)] == ["g2"]


@pytest.mark.parametrize("text", ["", "12", "12.", ".g", "1.g.h", "1.g\n", "١٢.g", "1234567890123456.g", "1." + "g" * 65, "1.é"])
def test_a_cursor_is_read_back_only_as_written(text: str) -> None:
    with pytest.raises(ValueError):
        Cursor.parse(text)
    assert Cursor.parse(Cursor(1795548565093, "kj2hGGJSYo-2abCH").code()) == Cursor(1795548565093, "kj2hGGJSYo-2abCH")
