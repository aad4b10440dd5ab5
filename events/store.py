"""The event store on Redis: games' records, seats and streams, and the feed of their changes."""

from __future__ import annotations

import redis

from events.feed import Feed
from events.records import GameRecords
from events.seats import Seats
from events.streams import Streams


class EventStore:
    """Games, seats and event streams in one Redis server or cluster, each kept by a part of its own."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis | None = None) -> None:
        """`waiting` serves the blocking reads of streams and the feed (its socket timeout must
        outlast them); by default `client` does."""
        self.redis = client
        self.games = GameRecords(client)
        self.seats = Seats(client)
        self.streams = Streams(client, waiting or client)
        self.feed = Feed(client, waiting or client)
