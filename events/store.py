"""The event store on Redis: games' records, seats and streams, and the feed of their changes."""

from __future__ import annotations

import redis

from events.durability import Durability
from events.feed import Feed
from events.records import GameRecords
from events.seats import Seats
from events.shards import Shards
from events.streams import Streams


class EventStore:
    """Games, seats and event streams in one Redis server or cluster, each kept by a part of its own."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis | None = None, shards: Shards | None = None,
                 durability: Durability = Durability()) -> None:
        """`waiting` (by default `client`) serves the blocking reads: its socket timeout must outlast them.

        `shards` splits the store-wide keys (by default one shard: a store on one Redis server)."""
        self.redis = client
        self.shards = shards or Shards.single()
        self.feed = Feed(client, waiting or client, self.shards)
        self.games = GameRecords(client, self.shards, self.feed)
        self.seats = Seats(client, self.games)
        self.streams = Streams(client, waiting or client, self.games, durability)
