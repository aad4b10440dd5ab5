"""Whether a player is online: they hold an event stream open (a page of the web client, their
inbox or a game's), as the stream leases of the API record it (service.leases)."""

from __future__ import annotations

import time

import redis

from events import keys


def is_online(client: redis.Redis, player_id: str) -> bool:
    """Whether a stream lease under the player's token has not lapsed."""
    return client.zcount(keys.open_streams(f"token:{player_id}"), time.time(), "+inf") > 0
