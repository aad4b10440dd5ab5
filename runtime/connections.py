"""The connections to the store and to the queues, as the settings name them: one Redis server,
or a Redis Cluster (MEEPLE_REDIS_CLUSTER) for the store with the queues on a server of their own
(MEEPLE_QUEUE_URL), since RQ keeps keys no cluster can serve together."""

from __future__ import annotations

from typing import Any, cast

import redis
from redis.cluster import RedisCluster

from events.durability import Durability
from events.shards import Shards
from events.store import EventStore
from runtime.config import Config


def store_client(config: Config, connections: int | None = None, **options: Any) -> redis.Redis:
    """A client of the store: at most `connections` per server (None: unbounded), a request waiting 10 s for one."""
    assert config.redis_url is not None, "the store's URL is set before connecting"
    bounded = {} if connections is None else {"max_connections": connections, "timeout": 10}
    if config.redis_cluster:  # answers a server's commands, sending each to the master of its key's slot
        pools = {} if connections is None else {"connection_pool_class": redis.BlockingConnectionPool}
        return cast(redis.Redis, RedisCluster.from_url(config.redis_url, **options, **bounded, **pools))
    if connections is None:
        return redis.Redis.from_url(config.redis_url, health_check_interval=30, **options)
    return redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
        config.redis_url, health_check_interval=30, **options, **bounded))


def event_store(config: Config, client: redis.Redis, waiting: redis.Redis | None = None) -> EventStore:
    """The event store on `client`, laid out for a cluster or a server as the settings say."""
    return EventStore(client, waiting, shards=Shards.cluster() if config.redis_cluster else Shards.single(),
                      durability=Durability(config.append_replicas, config.append_wait_ms))


def queue_client(config: Config) -> redis.Redis:
    """A client of the Redis server that holds the queues."""
    assert config.queues_url is not None, "the queues' URL is set before connecting"
    return redis.Redis.from_url(config.queues_url)
