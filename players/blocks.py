"""Blocks: a player may block another, whose invitations then never reach them (and whose words a
later chat leaves unshown). A block is the blocker's own list; the blocked player is never told."""

from __future__ import annotations

import time
from typing import cast

import redis

from events import keys


class Blocks:
    def __init__(self, client: redis.Redis, limit: int) -> None:
        """`limit`: how many players one player may block."""
        self.redis = client
        self.limit = limit

    def block(self, player_id: str, blocked: str) -> bool:
        """Block a player (again, harmlessly); False when the player already blocks `limit` others."""
        key = keys.blocks(player_id)
        if self.redis.zscore(key, blocked) is None and self.redis.zcard(key) >= self.limit:
            return False
        self.redis.zadd(key, {blocked: int(time.time() * 1000)}, nx=True)
        return True

    def unblock(self, player_id: str, blocked: str) -> bool:
        """Lift a block; whether there was one."""
        return bool(self.redis.zrem(keys.blocks(player_id), blocked))

    def of(self, player_id: str) -> list[tuple[str, int]]:
        """The players a player blocks, each with when (ms since the epoch), newest first."""
        pairs = cast(list[tuple[bytes, float]], self.redis.zrevrange(keys.blocks(player_id), 0, -1, withscores=True))
        return [(blocked.decode(), int(since)) for blocked, since in pairs]

    def blocking(self, player_ids: list[str], other: str) -> set[str]:
        """Those of `player_ids` who block `other`."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.zscore(keys.blocks(player_id), other)
        return {player_id for player_id, since in zip(player_ids, pipe.execute(), strict=True) if since is not None}
