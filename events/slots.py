"""Commands sent together to the one server that holds a key's slot — on a cluster, its master —
on one connection, so that a WAIT after a write covers that write."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.exceptions import ClusterDownError, RedisClusterException, ResponseError, SlotNotCoveredError, TryAgainError

# what a store answers while it is away, or while a cluster fails over: try again shortly
AWAY = (redis.ConnectionError, redis.TimeoutError, ClusterDownError, TryAgainError, SlotNotCoveredError)


def run(client: redis.Redis, key: str, queue: Callable[[Pipeline], None]) -> list[Any]:
    """The replies to the commands `queue` puts on a pipeline to `key`'s server, a failed command's its error."""
    replies = _sent(client, key, queue)
    # a map of slots out of date (a replica promoted) draws MOVED: a redirected command was not run
    if isinstance(client, RedisCluster) and any(_redirected(reply) for reply in replies):
        _reread_map(client)
        replies = _sent(client, key, queue)
    return replies


def _sent(client: redis.Redis, key: str, queue: Callable[[Pipeline], None]) -> list[Any]:
    """The replies to the commands `queue` puts on one pipeline to the server holding `key`."""
    pipe = _pipeline(client, key)
    queue(pipe)
    try:
        return pipe.execute(raise_on_error=False)
    except (redis.ConnectionError, redis.TimeoutError):
        _reread_map(client)  # the next command goes to whoever took over; this one may have run
        raise


def _pipeline(client: redis.Redis, key: str) -> Pipeline:
    if isinstance(client, RedisCluster):
        return client.get_redis_connection(client.get_node_from_key(key)).pipeline(transaction=False)
    return client.pipeline(transaction=False)


def _redirected(reply: Any) -> bool:
    return isinstance(reply, ResponseError) and str(reply).startswith(("MOVED", "ASK"))


def _reread_map(client: redis.Redis) -> None:
    if isinstance(client, RedisCluster):
        with contextlib.suppress(redis.RedisError, RedisClusterException):  # the next command tries again
            client.nodes_manager.initialize()
