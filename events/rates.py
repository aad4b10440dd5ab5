"""Rate limits' fixed-window counters, each checked and counted in one step (take_rate.lua): a
request is counted only where no counter of its own is at its limit, so that requests at the same
moment pass no more than a limit allows, a refused one uses up no other limit, and no counter
outlives its window."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import redis

from events import scripts

_TAKE = scripts.source("take_rate.lua")


def take(client: redis.Redis, counters: Sequence[tuple[str, int, int]]) -> list[tuple[int, bool]]:
    """Count one more in each `(key, limit, seconds)` counter, or in none if any is at its limit:
    each counter's count after it, and whether that counter refused it."""
    pipe = client.pipeline(transaction=False)
    for key, limit, seconds in counters:
        pipe.eval(_TAKE, 1, key, limit, seconds + 1)
    replies = cast(list[list[int]], pipe.execute())
    if not all(counted for counted, _ in replies):  # give back what the counters that had room counted
        pipe = client.pipeline(transaction=False)
        for (key, _, _), (counted, _) in zip(counters, replies, strict=True):
            if counted:
                pipe.decr(key)
        pipe.execute()
    return [(count, not counted) for counted, count in replies]
