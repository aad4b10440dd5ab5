"""The store-wide keys split into shards, as on a Redis Cluster: every game is listed, counted,
swept and announced once, whichever shard it went to, and the shards spread over the slots."""

from __future__ import annotations

from collections import Counter

import pytest
import redis
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from events import keys
from events.envelope import Lifecycle
from events.shards import COUNT, Shards
from events.store import EventStore
from tests.events.test_store import events, new_game


@pytest.fixture
def sharded(client: redis.Redis) -> EventStore:  # type: ignore[type-arg]
    return EventStore(client, shards=Shards.cluster())


def test_each_shard_lies_in_its_own_share_of_the_slots() -> None:
    shards = Shards.cluster().names
    ranges = [key_slot(keys.feed(shard).encode()) * COUNT // REDIS_CLUSTER_HASH_SLOTS for shard in shards]
    assert len(shards) == COUNT and ranges == list(range(COUNT))
    assert {key_slot(keys.feed(shard).encode()) for shard in shards} == \
        {key_slot(keys.games_with_status(Lifecycle.ACTIVE, shard).encode()) for shard in shards}


def test_games_spread_over_the_shards_and_keep_theirs() -> None:
    shards = Shards.cluster()
    placed = Counter(shards.of(f"game-{number}") for number in range(1600))
    assert len(placed) == COUNT and min(placed.values()) > 50
    assert shards.of("game-7") == shards.of("game-7") and Shards.single().of("game-7") == ""


def test_listing_merges_the_shards_newest_first_page_by_page(sharded: EventStore) -> None:
    for number in range(30):
        new_game(sharded, f"g{number:02}")
        sharded.redis.zadd(keys.listed(None, None, sharded.shards.of(f"g{number:02}")), {f"g{number:02}": 1000 + number})
    assert len({sharded.shards.of(f"g{number:02}") for number in range(30)}) > 5
    page, cursor = sharded.games.page(None, None, None, 7)
    seen = [record.id for record in page]
    while cursor is not None:
        page, cursor = sharded.games.page(None, None, cursor, 7)
        seen += [record.id for record in page]
    assert seen == [f"g{number:02}" for number in reversed(range(30))]
    assert sharded.games.count_by_status()[Lifecycle.WAITING] == 30


def test_the_sweep_and_the_feed_cover_every_shard(sharded: EventStore) -> None:
    games = [new_game(sharded, f"g{number}") for number in range(12)]
    sharded.feed.join("reactors")
    position = sharded.feed.position()
    for game in games:
        sharded.streams.append(game, 0, events("a"), command_id="c", actor="system", status=Lifecycle.ACTIVE)
    assert {game for game, _ in sharded.games.indexed(Lifecycle.ACTIVE)} == set(games)
    following, announced = sharded.feed.follow(position, timeout_ms=100)
    assert {game for _, game in announced} == set(games)  # the first append may announce twice
    assert sharded.feed.follow(following, timeout_ms=10) == (following, [])
    taken = sharded.feed.take("reactors", "r1", 100, None)
    assert {game for _, game in taken} == set(games)
    sharded.feed.ack("reactors", taken)
    assert all(sharded.redis.xpending(keys.feed(shard), "reactors")["pending"] == 0 for shard in sharded.shards.names)
    assert sharded.feed.take("reactors", "r1", 100, 60) == []  # waited, and nothing came
