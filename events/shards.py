"""The shards of the store-wide keys — the feed and the indexes of games — that every game's
changes write to beside its own keys. On one Redis server there is one shard, under the keys'
plain names. On a Redis Cluster there are COUNT, each under a hash tag of its own, so that these
writes spread over the masters as the games' own keys do; a game's entries always go to the same
shard, chosen by a hash of its id."""

from __future__ import annotations

from zlib import crc32

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

COUNT = 16  # shards on a cluster: fixed, since a game's shard must never change


def _spread_tags(count: int) -> tuple[str, ...]:
    """A hash tag for each shard, the i-th in the i-th of `count` equal ranges of the cluster's slots."""
    # so that shards spread evenly over masters that share the slots evenly
    tags = []
    for shard in range(count):
        low, high = shard * REDIS_CLUSTER_HASH_SLOTS // count, (shard + 1) * REDIS_CLUSTER_HASH_SLOTS // count
        tag = next(f"s{shard}.{n}" for n in range(1_000_000) if low <= key_slot(f"s{shard}.{n}".encode()) < high)
        tags.append("{" + tag + "}")
    return tuple(tags)


class Shards:
    """The shards of one store, each named by the suffix its keys carry ('' for a plain name)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    @classmethod
    def single(cls) -> Shards:
        """One shard, under the plain names (a store on one Redis server)."""
        return cls(("",))

    @classmethod
    def cluster(cls) -> Shards:
        return cls(_spread_tags(COUNT))

    def of(self, game_id: str) -> str:
        """The shard the game's entries go to."""
        if len(self.names) == 1:
            return self.names[0]
        return self.names[crc32(game_id.encode()) % len(self.names)]
