"""Rebuilding one game's ratings (docs/ratings.md): its lock taken and a new generation begun, which
the game's `rebuilding` marker names so that every result recorded meanwhile reaches it too; the
stored games' results recorded into it, folded, made the current generation with one write, and the
generation before deleted, the lock and marker kept alive all the while; and the deletes of a game's
old generations, each scanning only the game's slot."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import cast

import redis
from redis.cluster import RedisCluster
from redis.exceptions import LockError, WatchError

from events import keys
from events import rating_fold as fold
from events.rating_fold import RatingStore, extended, let_go, watching
from events.ratings import Result

UNLINK = 500  # keys an old generation loses at a time


class Rebuild:
    """A rebuild of one game's ratings, its lock taken and its stale generations deleted on entry:
    `add` records the stored games' results into a new generation, `keep_in_time` keeps the lock
    and marker alive while the stored games are read, `swap` folds it and makes it the current one
    (LockError whenever the lock or the marker was lost)."""

    def __init__(self, store: RatingStore, game: str) -> None:
        self.store, self.redis, self.game = store, store.redis, game
        self.generation = ""  # none begun yet
        self.added = 0
        self.lock = self.redis.lock(keys.rating_lock(game), timeout=fold.LOCK_SECONDS, blocking_timeout=fold.LOCK_SECONDS)
        if not self.lock.acquire():
            raise LockError(f"another process held the {game} ratings' lock for {fold.LOCK_SECONDS} s: is a rebuild running?")
        self.kept_at = time.monotonic()
        try:
            self._begin()
        except BaseException:
            self.close()
            raise

    def _begin(self) -> None:
        """Delete the generations neither current nor of a rebuild still holding the lock (a rebuild
        that died left them) and begin a new one, named by the marker."""
        current = self.store.generation(self.game)
        for generation in generations(self.redis, self.game) - {current} | ({""} if current else set()):
            forget(self.redis, self.game, generation, self._held)
        self.generation = str(self.redis.incr(keys.rating_generations(self.game)))
        self.redis.set(keys.rating_rebuilding(self.game), self.generation, px=int(fold.LOCK_SECONDS * 1000))

    def add(self, result: Result) -> None:
        """Record `result`, one of this game's, into the new generation."""
        if result.game != self.game:
            raise ValueError(f"a {result.game} result in a rebuild of {self.game}")
        root = keys.ratings_root(self.game, self.generation)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(keys.rating_results(root), result.game_id, result.to_json())
        pipe.zadd(keys.rating_order(root), {result.game_id: result.at})
        pipe.zadd(keys.rating_unfolded(root), {result.game_id: result.at})
        pipe.execute()
        self.added += 1
        self.keep_in_time()

    def keep_in_time(self) -> None:
        """Give the lock and marker their whole time again once a third of it has passed since last."""
        if time.monotonic() - self.kept_at >= fold.LOCK_SECONDS / 3:
            if not self._kept(self.lock):
                raise LockError(f"the {self.game} ratings' rebuild lost its lock or its marker")
            self.kept_at = time.monotonic()

    def _kept(self, _: object) -> bool:
        """Whether the lock was still this rebuild's and its marker still there, both given their whole time again."""
        return extended(self.lock) and self.redis.pexpire(keys.rating_rebuilding(self.game), int(fold.LOCK_SECONDS * 1000)) == 1

    def _held(self) -> None:
        """Give the lock its whole time again (LockError if it was lost)."""
        if not extended(self.lock):
            raise LockError(f"the {self.game} ratings' rebuild lost its lock")

    def swap(self, swept: int) -> None:
        """Fold the new generation, make it the current one, marking its sweep `swept`, fold what was
        recorded since that fold, and delete the generation before."""
        root, before = keys.ratings_root(self.game, self.generation), self.store.generation(self.game)
        self.store._fold(root, self.lock, self._kept)
        self._swapped(swept)
        self.store._fold(root, self.lock)
        forget(self.redis, self.game, before, self._held)

    def _swapped(self, swept: int) -> None:
        """Make the new generation the current one, end the marker and mark the sweep, in one
        transaction, while the lock is this rebuild's and the marker names its generation."""
        marker = keys.rating_rebuilding(self.game)
        pipe = watching(self.redis, self.lock, marker)
        if pipe is None or pipe.get(marker) != self.generation.encode():
            if pipe is not None:
                pipe.reset()
            raise LockError(f"the {self.game} ratings' rebuild lost its lock or its marker before its swap")
        pipe.multi()
        pipe.set(keys.rating_current(self.game), self.generation)
        pipe.delete(marker)
        pipe.set(keys.rating_swept(self.game), swept)
        try:
            pipe.execute()
        except WatchError as lost:
            raise LockError(f"the {self.game} ratings' rebuild lost its lock during its swap") from lost

    def close(self) -> None:
        """End the marker if it still names this rebuild's generation and the lock is still its own
        (a rebuild that failed), and let go of the lock."""
        marker = keys.rating_rebuilding(self.game)
        pipe = watching(self.redis, self.lock, marker) if self.generation else None
        if pipe is not None:
            try:
                if pipe.get(marker) == self.generation.encode():
                    pipe.multi()
                    pipe.delete(marker)
                    pipe.execute()
            except WatchError:  # the lock or marker changed: neither is this rebuild's to end
                pass
            finally:
                pipe.reset()
        let_go(self.lock)

    def __enter__(self) -> Rebuild:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _scanned(client: redis.Redis, pattern: str) -> Iterator[bytes]:
    """The keys matching `pattern`, whose hash tag names one slot: scanned on the node holding it alone on a cluster."""
    if isinstance(client, RedisCluster):
        return cast(Iterator[bytes], client.scan_iter(match=pattern, count=1000, target_nodes=client.get_node_from_key(pattern)))
    return cast(Iterator[bytes], client.scan_iter(match=pattern, count=1000))


def generations(client: redis.Redis, game: str) -> set[str]:
    """The generations of the game's ratings that have keys, but the first."""
    prefix = f"{keys.ratings_root(game)}:gen:"
    return {key.decode()[len(prefix):].split(":", 1)[0] for key in _scanned(client, f"{prefix}*")}


def forget(client: redis.Redis, game: str, generation: str, held: Callable[[], None] = lambda: None) -> int:
    """Unlink the keys of one generation of the game's ratings as they are scanned, UNLINK at a time,
    calling `held` after each (to keep a lock); how many. The first generation's are those under the
    game's root but the later generations' and the game's own (keys.rating_game_keys)."""
    root = keys.ratings_root(game, generation)
    kept = {key.encode() for key in keys.rating_game_keys(game)} if not generation else set()
    later = f"{keys.ratings_root(game)}:gen:".encode()
    found = (key for key in _scanned(client, f"{root}:*") if generation or (key not in kept and not key.startswith(later)))
    return _unlinked(client, found, held)


def _unlinked(client: redis.Redis, found: Iterator[bytes], held: Callable[[], None]) -> int:
    """Unlink `found` as it comes, UNLINK at a time, calling `held` after each; how many."""
    batch: list[bytes] = []
    count = 0
    for key in found:
        batch.append(key)
        if len(batch) == UNLINK:
            client.unlink(*batch)
            count, batch = count + len(batch), []
            held()
    if batch:
        client.unlink(*batch)
    return count + len(batch)


def forget_old(client: redis.Redis) -> int:
    """Delete the keys the ratings were kept under before each game had a slot of its own; how many."""
    return _unlinked(client, _scanned(client, keys.old_ratings()), lambda: None)
