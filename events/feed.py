"""The feed: streams naming each game that may have changed, one per shard (events.shards),
written beside its appends and its changes of status (it lives in no game's slot, so no script
can write it). The reactors read it through a consumer group, the inbox streams follow it; it is
capped, and the reactors' sweep covers whatever it loses."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

import redis
from redis.client import Pipeline
from redis.typing import KeyT, StreamIdT

from events import keys
from events.errors import GroupLost
from events.shards import Shards

LENGTH = 100_000  # announcements kept per shard, about
POLL_MS = 100  # how often a cluster's shards are read while waiting

_Entries = list[tuple[bytes, dict[bytes, bytes]]]
_Answer = list[tuple[bytes, _Entries]]
Announcement = tuple[str, str]  # the entry's id, the game's id


class Feed:
    """The feed, read from one position on or by a consumer group."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis, shards: Shards) -> None:
        """`waiting` serves the blocking reads."""
        self.redis = client
        self.waiting = waiting
        self.shards = shards
        self.streams = [keys.feed(shard) for shard in shards.names]

    def announce(self, pipe: Pipeline, game_id: str) -> None:
        """Queue on `pipe` the news that the game may have changed."""
        pipe.xadd(keys.feed(self.shards.of(game_id)), {"game": game_id}, maxlen=LENGTH, approximate=True)

    def tell(self, game_id: str) -> None:
        """Announce now that the game may have changed (e.g. a new game inviting players)."""
        pipe = self.redis.pipeline(transaction=False)
        self.announce(pipe, game_id)
        pipe.execute()

    def tell_clocks(self, game_id: str) -> None:
        """Announce now that the game's clocks moved with no event (a vacation begun or ended), and mark it
        in the game's own slot, where its event streams wait."""
        pipe = self.redis.pipeline(transaction=False)
        self.announce(pipe, game_id)
        pipe.xadd(keys.clocks_moved(game_id), {"moved": "1"}, maxlen=1)
        pipe.execute()

    def clocks_told(self, game_id: str) -> str:
        """The id of the latest mark that the game's clocks moved ("0-0" for none)."""
        newest = cast(_Entries, self.redis.xrevrange(keys.clocks_moved(game_id), "+", "-", count=1))
        return newest[0][0].decode() if newest else "0-0"

    def position(self) -> str:
        """Where the feed stands now, to follow it from: the newest announcement's id in each shard."""
        pipe = self.redis.pipeline(transaction=False)
        for stream in self.streams:
            pipe.xrevrange(stream, "+", "-", count=1)
        newest = cast(list[_Entries], pipe.execute())
        return ",".join(entries[0][0].decode() if entries else "0-0" for entries in newest)

    def follow(self, after: str, timeout_ms: int) -> tuple[str, list[Announcement]]:
        """The announcements after the position `after`, and the position after them, waiting up to `timeout_ms`."""
        since: dict[KeyT, StreamIdT] = dict(zip(self.streams, after.split(","), strict=True))
        answer = self._read(timeout_ms, lambda client, block: client.xread(since, count=500, block=block),
                            lambda pipe, stream: pipe.xread({stream: since[stream]}, count=500))
        for stream, entries in answer:
            since[stream.decode()] = entries[-1][0].decode()
        return ",".join(str(position) for position in since.values()), _announcements(answer)

    def join(self, group: str, since_ms: int = 0) -> None:
        """Join `group` on every shard, creating it to read from `since_ms` (epoch milliseconds; 0: all).

        No announcement made since `since_ms` is missed; a group that exists keeps its place."""
        for stream in self.streams:
            try:
                self.redis.xgroup_create(stream, group, id=f"{max(since_ms, 0)}-0", mkstream=True)
            except redis.ResponseError as error:
                if "BUSYGROUP" not in str(error):
                    raise

    def take(self, group: str, consumer: str, count: int, block_ms: int | None) -> list[Announcement]:
        """Up to `count` announcements per shard not yet given to `group`, waiting up to `block_ms` (None: not at all).

        Raises GroupLost if the store lost the group (a restart without its last writes): join again."""
        fresh: dict[KeyT, StreamIdT] = dict.fromkeys(self.streams, ">")
        try:
            answer = self._read(
                block_ms, lambda client, block: client.xreadgroup(group, consumer, fresh, count=count, block=block),
                lambda pipe, stream: pipe.xreadgroup(group, consumer, {stream: ">"}, count=count))
        except redis.ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
            raise GroupLost(group) from error
        return _announcements(answer)

    def ack(self, group: str, announcements: list[Announcement]) -> None:
        """Tell the group that these announcements were handled."""
        by_stream: dict[str, list[str]] = {}
        for entry_id, game_id in announcements:
            by_stream.setdefault(keys.feed(self.shards.of(game_id)), []).append(entry_id)
        if by_stream:
            pipe = self.redis.pipeline(transaction=False)
            for stream, entry_ids in by_stream.items():
                pipe.xack(stream, group, *entry_ids)
            pipe.execute()

    def _read(self, block_ms: int | None, together: Callable[[redis.Redis, int | None], Any],
              each: Callable[[Pipeline, str], Any]) -> _Answer:
        """Every shard's answer: by `together` on one server, else by `each` per shard, waiting up to `block_ms`."""
        if len(self.streams) == 1:
            return cast(_Answer, together(self.waiting, block_ms) or [])
        # A cluster serves no read of keys in several slots: read the shards without waiting, every POLL_MS.
        until = time.monotonic() + (block_ms or 0) / 1000
        while True:
            pipe = self.redis.pipeline(transaction=False)
            for stream in self.streams:
                each(pipe, stream)
            answer = [found for reply in cast(list[_Answer], pipe.execute()) for found in reply or []]
            if answer or time.monotonic() >= until:
                return answer
            time.sleep(min(POLL_MS / 1000, max(until - time.monotonic(), 0)))


def _announcements(answer: _Answer) -> list[Announcement]:
    return [(entry_id.decode(), fields[b"game"].decode()) for _, entries in answer for entry_id, fields in entries]
