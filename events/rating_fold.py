"""Folding each game's recorded results into its ratings (events.ratings): chunk by chunk, each
chunk one transaction that writes only while the game's lock is still its fold's and leaves where
the next starts; a result recorded after later ones were folded is folded again from its place on.
A rebuild folds every result into fresh keys while a marker sends each result recorded meanwhile
there too, and swaps them in in one transaction (docs/ratings.md)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import cast

import redis
from redis.client import Pipeline
from redis.exceptions import LockError, WatchError
from redis.lock import Lock

from domain import GAMES
from events import keys
from events.ratings import Entry, HeadToHead, Rate, Rating, RatingBook, Result

CHUNK = 500  # results folded in one transaction
LOCK_SECONDS = 600  # a fold that died lets go of its game after this long; extended after each chunk
SWAP_TRIES = 20  # a swap begun again when a result recorded meanwhile changed what it renames


def _compared(result: Result, identity: str, other: str) -> tuple[int, int, int]:
    """(ahead, behind, tied) of `identity` against `other` in one result."""
    mine, theirs = result.place_of(identity), result.place_of(other)
    return int(mine < theirs), int(mine > theirs), int(mine == theirs)


@dataclass
class Tally:
    """What a chunk changes in the counters: places and head to head, each identity's own side, as differences."""

    places: dict[str, Counter[int]] = field(default_factory=dict)
    versus: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def count(self, result: Result, identity: str, sign: int) -> None:
        """Count `identity`'s side of `result` (sign 1), or take it back (sign -1)."""
        self.places.setdefault(identity, Counter())[result.place_of(identity)] += sign
        mine = self.versus.setdefault(identity, {})
        for other in result.identities():
            if other != identity:
                counts = mine.setdefault(other, [0, 0, 0])
                for index, each in enumerate(_compared(result, identity, other)):
                    counts[index] += sign * each


@dataclass
class Chunk:
    """A chunk's plan, read before its transaction: the entries it takes back, the ratings before it, the counters' change."""

    results: list[Result]
    later: dict[str, list[bytes]] = field(default_factory=dict)
    before: dict[str, Rating] = field(default_factory=dict)
    tally: Tally = field(default_factory=Tally)


class RatingStore(RatingBook):
    """The ratings of every game, folded by `rate` from the results recorded."""

    def __init__(self, client: redis.Redis, rate: Rate, provisional_sigma: float) -> None:
        super().__init__(client, provisional_sigma)
        self.rate = rate

    def fold_all(self) -> int:
        """Fold each game's results recorded since its last fold; how many were folded, all games together."""
        return sum(self.fold(game) for game in GAMES)

    def fold(self, game: str) -> int:
        """Fold the game's results recorded since its last fold, from the earliest of them in the
        fold's order on (again, past any folded before); how many were folded. Another process
        folding the game now leaves them to it."""
        if not self.redis.zcard(keys.rating_unfolded(keys.ratings_root(game))):
            return 0
        lock = self.redis.lock(keys.rating_lock(game), timeout=LOCK_SECONDS, blocking_timeout=0)
        if not lock.acquire(blocking=False):
            return 0
        try:
            return self._fold(game, False, lock)
        finally:
            let_go(lock)

    def rebuilding(self, games: Iterable[str]) -> Rebuild:
        """A rebuild of these games' ratings, each game's lock taken and its marker set (LockError if
        another process holds a lock beyond LOCK_SECONDS)."""
        return Rebuild(self, list(games))

    def rebuild(self, game: str, results: Iterable[Result], swept: int) -> int:
        """Fold `results` (all of one game) into fresh keys and swap them for the live ones, the
        game's finished games having been read from `swept` (ms) on; how many count."""
        with self.rebuilding([game]) as rebuild:
            for result in results:
                rebuild.add(result)
            rebuild.swap(swept)
            return rebuild.added

    def _fold(self, game: str, fresh: bool, lock: Lock, keep: Callable[[Lock], bool] | None = None) -> int:
        """Fold as `fold` says, holding `lock`, a chunk at a time, keeping it (extending it, unless
        `keep` says how) between chunks."""
        root = keys.ratings_root(game, fresh)
        first = cast(list[bytes], self.redis.zrange(keys.rating_unfolded(root), 0, 0))
        start = first[0].decode() if first else None
        folded = 0
        while start is not None:
            done, start = self._chunk(game, fresh, lock, start)
            folded += done
            if done == 0 or (start is not None and not (keep or extended)(lock)):
                break
        return folded

    def _start(self, root: str, start: str) -> int | None:
        """The rank in the fold's order of the first unfolded result from `start` on that is in it,
        dropping from the unfolded any not in the order (none is, unless a store was left so)."""
        while (rank := cast(int | None, self.redis.zrank(keys.rating_order(root), start))) is None:
            self.redis.zrem(keys.rating_unfolded(root), start)
            first = cast(list[bytes], self.redis.zrange(keys.rating_unfolded(root), 0, 0))
            if not first:
                return None
            start = first[0].decode()
        return rank

    def _chunk(self, game: str, fresh: bool, lock: Lock, start: str) -> tuple[int, str | None]:
        """Fold up to CHUNK results from `start` in one transaction, writing only while the lock is
        this fold's; how many were folded, and where the next chunk starts (none after the last)."""
        root = keys.ratings_root(game, fresh)
        rank = self._start(root, start)
        if rank is None:
            return 0, None
        ids = cast(list[tuple[bytes, float]], self.redis.zrange(keys.rating_order(root), rank, rank + CHUNK, withscores=True))
        chunk, following = [game_id.decode() for game_id, _ in ids[:CHUNK]], ids[CHUNK:]
        plan = self._plan(game, fresh, self.results(game, chunk, fresh=fresh))
        writes = self._counters(root, plan)
        pipe = _watching(self.redis, lock)
        if pipe is None:
            return 0, None
        pipe.multi()
        self._write(pipe, root, plan)
        for write in writes:
            write(pipe)
        pipe.zrem(keys.rating_unfolded(root), *chunk)
        if following:
            pipe.zadd(keys.rating_unfolded(root), {following[0][0]: following[0][1]})  # where a fold resumes if this one stops here
        try:
            pipe.execute()
        except WatchError:  # the lock expired under this fold and another took it
            return 0, None
        return len(chunk), following[0][0].decode() if following else None

    def _plan(self, game: str, fresh: bool, results: list[Result]) -> Chunk:
        """Read what a chunk of `results` takes back: each of its identities' entries from its first
        result's place to its last's (entries past it are taken back by the chunks that reach them),
        and their ratings before it."""
        plan, root = Chunk(results), keys.ratings_root(game, fresh)
        if not results:
            return plan
        start, end = results[0].position, results[-1].position
        identities = sorted({identity for result in results for identity in result.identities()})
        pipe = self.redis.pipeline(transaction=False)
        for identity in identities:
            pipe.zrangebyscore(keys.rating_history(root, identity), start[0], end[0], withscores=True)
            pipe.zrevrangebyscore(keys.rating_history(root, identity), f"({start[0]}", "-inf", start=0, num=1, withscores=True)
            pipe.zcount(keys.rating_history(root, identity), "-inf", f"({start[0]}")
        read = pipe.execute()
        undone: dict[str, list[str]] = {}
        for index, identity in enumerate(identities):
            spanned, earlier, counted = read[3 * index:3 * index + 3]
            entries = [(raw, Entry.parse(raw, score)) for raw, score in spanned]
            plan.later[identity] = [raw for raw, entry in entries if start <= entry.position <= end]
            kept = [entry for _, entry in entries if entry.position < start] or [Entry.parse(*each) for each in earlier]
            if kept:
                last = max(kept, key=lambda entry: entry.position)
                before = int(counted) + sum(entry.position < start for _, entry in entries)
                plan.before[identity] = Rating(last.mu, last.sigma, before, last.at)
            for _, entry in entries:
                if start <= entry.position <= end:
                    undone.setdefault(entry.game_id, []).append(identity)
        for result in self.results(game, list(undone), fresh=fresh):
            for identity in undone[result.game_id]:
                plan.tally.count(result, identity, -1)
        return plan

    def _write(self, pipe: Pipeline, root: str, plan: Chunk) -> None:
        """Queue the chunk's ratings: the entries taken back gone, each result's entries added, each
        identity's rating now and its place on the leaderboard's sets."""
        for identity, later in plan.later.items():
            if later:
                pipe.zrem(keys.rating_history(root, identity), *later)
        now = dict(plan.before)
        for result in plan.results:
            after = self.rate(result, now)
            now.update(after)
            for identity, rating in after.items():
                entry = Entry(result.game_id, result.at, rating.mu, rating.sigma, result.place_of(identity), result.unlisted)
                pipe.zadd(keys.rating_history(root, identity), {entry.text: result.at})
        if now:
            pipe.hset(keys.rating_now(root), mapping={identity: rating.to_json() for identity, rating in now.items()})
        for identity, rating in now.items():
            provisional = rating.sigma > self.provisional_sigma
            pipe.zadd(keys.rating_board(root, provisional), {identity: -rating.value})
            pipe.zadd(keys.rating_last(root, provisional), {identity: rating.last})
            pipe.zrem(keys.rating_board(root, not provisional), identity)
            pipe.zrem(keys.rating_last(root, not provisional), identity)

    def _counters(self, root: str, plan: Chunk) -> list[Callable[[Pipeline], object]]:
        """The writes that set the counters the chunk changes to their new values (a count come to
        nothing removed), read now: the counters are written only by the fold, under its lock."""
        for result in plan.results:  # the tally of what the chunk adds, counted ahead of the write
            for identity in result.identities():
                plan.tally.count(result, identity, 1)
        identities = sorted(plan.tally.places)
        pipe = self.redis.pipeline(transaction=False)
        for identity in identities:
            pipe.hgetall(keys.rating_places(root, identity))
            pipe.hmget(keys.rating_versus(root, identity), list(plan.tally.versus[identity]))
        read = pipe.execute()
        writes: list[Callable[[Pipeline], object]] = []
        for index, identity in enumerate(identities):
            places = {int(place): int(count) for place, count in cast(dict[bytes, bytes], read[2 * index]).items()}
            places.update({place: places.get(place, 0) + change for place, change in plan.tally.places[identity].items()})
            writes.extend(_places_written(root, identity, places))
            others = list(plan.tally.versus[identity])
            for other, raw in zip(others, cast(list[bytes | None], read[2 * index + 1]), strict=True):
                was = HeadToHead.parse(other, raw)
                change = plan.tally.versus[identity][other]
                writes.extend(_versus_written(root, identity, HeadToHead(other, was.ahead + change[0], was.behind + change[1],
                                                                          was.tied + change[2])))
        return writes


class Rebuild:
    """A rebuild of some games' ratings: each game's lock held and its marker set from the start,
    so that every result recorded meanwhile reaches its fresh keys too; `add` records the stored
    games' results into them, `swap` folds them and swaps them in, game by game."""

    def __init__(self, store: RatingStore, games: list[str]) -> None:
        self.store, self.redis = store, store.redis
        self.locks: dict[str, Lock] = {}
        self.added = 0
        try:
            for game in games:
                self._begin(game)
        except BaseException:
            self.close()
            raise

    def _begin(self, game: str) -> None:
        """Take the game's lock, delete what a rebuild that died left and set the marker."""
        lock = self.redis.lock(keys.rating_lock(game), timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS)
        if not lock.acquire():
            raise LockError(f"another process held the {game} ratings' lock for {LOCK_SECONDS} s: is a rebuild running?")
        self.locks[game] = lock
        _unlink(self.redis, f"{keys.ratings_root(game, fresh=True)}:*")
        self.redis.set(keys.rating_rebuilding(game), 1, px=LOCK_SECONDS * 1000)

    def add(self, result: Result) -> None:
        """Record `result` into its game's fresh keys, keeping the locks and markers alive now and then."""
        self.store.record(result, fresh=True)
        self.added += 1
        if self.added % CHUNK == 0:
            self.keep()

    def keep(self) -> None:
        """Give the locks and markers their whole time again (LockError if a lock was lost)."""
        for game, lock in self.locks.items():
            if not self._kept(game, lock):
                raise LockError(f"the {game} ratings' rebuild lost its lock")

    def _kept(self, game: str, lock: Lock) -> bool:
        """Whether the game's lock was still this rebuild's and given its whole time again, with its marker."""
        self.redis.pexpire(keys.rating_rebuilding(game), LOCK_SECONDS * 1000)
        return extended(lock)

    def swap(self, swept: int) -> None:
        """Fold each game's fresh keys, swap them for the live ones in one transaction, marking its
        sweep `swept`, and fold what was recorded since that fold."""
        for game, lock in self.locks.items():
            self.store._fold(game, True, lock, partial(self._kept, game))
            self._swapped(game, lock, swept)
            self.store._fold(game, False, lock)

    def _swapped(self, game: str, lock: Lock, swept: int) -> None:
        """Rename every fresh key over its live one, delete the live keys the rebuild did not make,
        end the marker and mark the sweep, in one transaction, while the lock is this rebuild's and
        no result was recorded since the keys were listed (else listed again)."""
        live, fresh = keys.ratings_root(game), keys.ratings_root(game, fresh=True)
        for _ in range(SWAP_TRIES):
            pipe = _watching(self.redis, lock, keys.rating_order(live), keys.rating_order(fresh))
            if pipe is None:
                raise LockError(f"the {game} ratings' rebuild lost its lock before its swap")
            renamed = {live.encode() + key[len(fresh):]: key for key in _under(self.redis, fresh)}  # listed while watched
            stale = [key for key in _under(self.redis, live, game) if key not in renamed]
            pipe.multi()
            for target, key in renamed.items():
                pipe.execute_command("RENAME", key, target)  # a cluster's pipeline refuses pipe.rename; the keys share a slot
            if stale:
                pipe.delete(*stale)
            pipe.delete(keys.rating_rebuilding(game))
            pipe.set(keys.rating_swept(game), swept)
            with contextlib.suppress(WatchError):
                pipe.execute()
                return
        raise LockError(f"the {game} ratings' swap was disturbed {SWAP_TRIES} times")

    def close(self) -> None:
        """End the markers left (a rebuild that failed) and let go of the locks."""
        for game, lock in self.locks.items():
            self.redis.delete(keys.rating_rebuilding(game))
            let_go(lock)

    def __enter__(self) -> Rebuild:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _under(client: redis.Redis, root: str, game: str | None = None) -> list[bytes]:
    """The keys under `root` (a live `game`'s but its fresh ones, its lock, marker and mark)."""
    found = cast(Iterable[bytes], client.scan_iter(match=f"{root}:*", count=1000))
    if game is None:
        return list(found)
    skipped = {keys.rating_lock(game).encode(), keys.rating_swept(game).encode(), keys.rating_rebuilding(game).encode()}
    fresh = f"{keys.ratings_root(game, fresh=True)}:".encode()
    return [key for key in found if key not in skipped and not key.startswith(fresh)]


def _unlink(client: redis.Redis, pattern: str) -> int:
    """Unlink every key matching `pattern`, 500 at a time; how many."""
    found = [key for key in cast(Iterable[bytes], client.scan_iter(match=pattern, count=1000))]
    for start in range(0, len(found), 500):
        client.unlink(*found[start:start + 500])
    return len(found)


def forget_old(client: redis.Redis) -> int:
    """Delete the keys the ratings were kept under before each game had a slot of its own; how many."""
    return _unlink(client, keys.old_ratings())


def _watching(client: redis.Redis, lock: Lock, *watched: str) -> Pipeline | None:
    """A pipeline watching `lock`'s key and `watched`, the lock still this process's (its transaction
    to begin with `multi`), or None: the lock not taken, expired or another's."""
    token = lock.local.token
    if token is None:
        return None
    pipe = client.pipeline(transaction=True)
    pipe.watch(lock.name, *watched)
    if pipe.get(lock.name) != token:
        pipe.reset()
        return None
    return pipe


def _places_written(root: str, identity: str, places: dict[int, int]) -> list[Callable[[Pipeline], object]]:
    """The writes that leave the identity's place counts at `places`."""
    gone = [place for place, count in places.items() if count <= 0]
    writes: list[Callable[[Pipeline], object]] = []
    if gone:
        writes.append(lambda pipe: pipe.hdel(keys.rating_places(root, identity), *gone))
    if len(gone) < len(places):
        writes.append(lambda pipe: pipe.hset(keys.rating_places(root, identity),
                                             mapping={place: count for place, count in places.items() if count > 0}))
    return writes


def _versus_written(root: str, identity: str, record: HeadToHead) -> list[Callable[[Pipeline], object]]:
    """The writes that leave the identity's record against `record.other` as `record` says."""
    if record.played <= 0:
        return [lambda pipe: pipe.hdel(keys.rating_versus(root, identity), record.other),
                lambda pipe: pipe.zrem(keys.rating_opponents(root, identity), record.other)]
    return [lambda pipe: pipe.hset(keys.rating_versus(root, identity), record.other, f"{record.ahead} {record.behind} {record.tied}"),
            lambda pipe: pipe.zadd(keys.rating_opponents(root, identity), {record.other: -record.played})]


def extended(lock: Lock) -> bool:
    """Whether `lock`, still this process's, was given its whole time again."""
    try:
        lock.reacquire()
        return True
    except LockError:
        return False


def let_go(lock: Lock) -> None:
    """Let go of `lock`, unless it expired already."""
    with contextlib.suppress(LockError):
        lock.release()
