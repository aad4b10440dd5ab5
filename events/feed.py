"""The feed: one stream naming each game that may have changed, written beside its appends and
its changes of status (it lives in no game's slot, so no script can write it). The reactors read
it through a consumer group, the inbox streams follow it; it is capped, and the reactors' sweep
covers whatever it loses."""

from __future__ import annotations

from typing import cast

import redis
from redis.client import Pipeline

from events import keys

LENGTH = 100_000  # announcements kept, about

_Entries = list[tuple[bytes, dict[bytes, bytes]]]
Announcement = tuple[str, str]  # the entry's id, the game's id


def announce(pipe: Pipeline, game_id: str) -> None:
    """Queue on `pipe` the news that the game may have changed."""
    pipe.xadd(keys.feed(), {"game": game_id}, maxlen=LENGTH, approximate=True)


class Feed:
    """The feed, read from one position on or by a consumer group."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis) -> None:
        """`waiting` serves the blocking reads."""
        self.redis = client
        self.waiting = waiting

    def tell(self, game_id: str) -> None:
        """Announce now that the game may have changed (e.g. a new game inviting players)."""
        pipe = self.redis.pipeline(transaction=False)
        announce(pipe, game_id)
        pipe.execute()

    def position(self) -> str:
        """The id of the newest announcement, to follow the feed from."""
        newest = cast(_Entries, self.redis.xrevrange(keys.feed(), "+", "-", count=1))
        return newest[0][0].decode() if newest else "0-0"

    def follow(self, after: str, timeout_ms: int) -> list[Announcement]:
        """Announcements after the id `after`, waiting up to `timeout_ms` for the first."""
        answer = self.waiting.xread({keys.feed(): after}, count=500, block=timeout_ms)
        return _announcements(cast(list[tuple[bytes, _Entries]], answer))

    def join(self, group: str, since_ms: int = 0) -> None:
        """Join the consumer group `group`, creating it if need be to read the announcements made
        since `since_ms` (milliseconds since the epoch; 0: all the feed holds), so that none made
        before the group existed is missed. A group that exists keeps its place."""
        try:
            self.redis.xgroup_create(keys.feed(), group, id=f"{max(since_ms, 0)}-0", mkstream=True)
        except redis.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    def take(self, group: str, consumer: str, count: int, block_ms: int | None) -> list[Announcement]:
        """Up to `count` announcements no member of `group` was given yet, waiting up to
        `block_ms` for the first (None: not at all). Raises GroupLost if the store lost the
        group (it restarted without its last writes): the member joins again, saying from when."""
        try:
            answer = self.waiting.xreadgroup(group, consumer, {keys.feed(): ">"}, count=count, block=block_ms)
        except redis.ResponseError as error:
            if "NOGROUP" not in str(error):
                raise
            raise GroupLost(group) from error
        return _announcements(cast(list[tuple[bytes, _Entries]], answer or []))

    def ack(self, group: str, announcements: list[Announcement]) -> None:
        """Tell the group that these announcements were handled."""
        if announcements:
            self.redis.xack(keys.feed(), group, *(entry_id for entry_id, _ in announcements))


class GroupLost(Exception):
    """The store no longer has the consumer group: it must be joined again."""


def _announcements(answer: list[tuple[bytes, _Entries]]) -> list[Announcement]:
    return [(entry_id.decode(), fields[b"game"].decode()) for _, entries in answer for entry_id, fields in entries]
