"""Blocks: a player may block another, whose invitations then never reach them (and whose words a
later chat leaves unshown). A block is the blocker's own list; the blocked player is never told, the
blocker's inbox streams are (their unread messages count the blocked player's no more, or again, and
their invitations to the blocked player's tournaments are shown no more, or again)."""

from __future__ import annotations

from typing import cast

import redis

from events import keys
from events.clock import now
from players.conversations import About, wake_inboxes

_BLOCK = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
"""


class Blocks:
    def __init__(self, client: redis.Redis, limit: int) -> None:
        """`limit`: how many players one player may block."""
        self.redis = client
        self.limit = limit
        self._block = client.register_script(_BLOCK)  # the count and the addition at once

    def block(self, player_id: str, blocked: str) -> bool:
        """Block a player (again, harmlessly); False when the player already blocks `limit` others."""
        if not self._block(keys=[keys.blocks(player_id)], args=[blocked, now(), self.limit]):
            return False
        wake_inboxes(self.redis, [player_id], About.MESSAGES, About.TOURNAMENTS)
        return True

    def unblock(self, player_id: str, blocked: str) -> bool:
        """Lift a block; whether there was one."""
        if not self.redis.zrem(keys.blocks(player_id), blocked):
            return False
        wake_inboxes(self.redis, [player_id], About.MESSAGES, About.TOURNAMENTS)
        return True

    def of(self, player_id: str) -> list[tuple[str, int]]:
        """The players a player blocks, each with when (ms since the epoch), newest first."""
        pairs = cast(list[tuple[bytes, float]], self.redis.zrevrange(keys.blocks(player_id), 0, -1, withscores=True))
        return [(blocked.decode(), int(since)) for blocked, since in pairs]

    def blocked_among(self, player_id: str, others: list[str]) -> set[str]:
        """Those of `others` the player blocks."""
        found = self.redis.zmscore(keys.blocks(player_id), others) if others else []
        return {other for other, since in zip(others, found, strict=True) if since is not None}

    def blocking(self, player_ids: list[str], other: str) -> set[str]:
        """Those of `player_ids` who block `other`."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.zscore(keys.blocks(player_id), other)
        return {player_id for player_id, since in zip(player_ids, pipe.execute(), strict=True) if since is not None}
