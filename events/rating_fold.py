"""Folding each game's recorded results into its ratings (events.ratings): chunk by chunk, each
chunk one transaction that writes only while the game's lock is still its fold's and leaves where
the next starts; a result recorded after later ones were folded is folded again from its place on.
A rebuild of a game (events.rating_rebuild) folds its generation here too (docs/ratings.md)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
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
        if not self.redis.zcard(keys.rating_unfolded(self.root(game))):
            return 0
        lock = self.redis.lock(keys.rating_lock(game), timeout=LOCK_SECONDS, blocking_timeout=0)
        if not lock.acquire(blocking=False):
            return 0
        try:
            return self._fold(self.root(game), lock)  # read under the lock, which a rebuild's swap takes
        finally:
            let_go(lock)

    def _fold(self, root: str, lock: Lock, keep: Callable[[Lock], bool] | None = None) -> int:
        """Fold the generation at `root` as `fold` says, holding `lock`, a chunk at a time, keeping it
        (extending it, unless `keep` says how) between chunks."""
        first = cast(list[bytes], self.redis.zrange(keys.rating_unfolded(root), 0, 0))
        start = first[0].decode() if first else None
        folded = 0
        while start is not None:
            done, start = self._chunk(root, lock, start)
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

    def _chunk(self, root: str, lock: Lock, start: str) -> tuple[int, str | None]:
        """Fold up to CHUNK results from `start` in one transaction, writing only while the lock is
        this fold's; how many were folded, and where the next chunk starts (none after the last)."""
        rank = self._start(root, start)
        if rank is None:
            return 0, None
        ids = cast(list[tuple[bytes, float]], self.redis.zrange(keys.rating_order(root), rank, rank + CHUNK, withscores=True))
        chunk, following = [game_id.decode() for game_id, _ in ids[:CHUNK]], ids[CHUNK:]
        plan = self._plan(root, self.results_at(root, chunk))
        writes = self._counters(root, plan)
        pipe = watching(self.redis, lock)
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

    def _plan(self, root: str, results: list[Result]) -> Chunk:
        """Read what a chunk of `results` takes back: each of its identities' entries from its first
        result's place to its last's (entries past it are taken back by the chunks that reach them),
        and their ratings before it."""
        plan = Chunk(results)
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
        for result in self.results_at(root, list(undone)):
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


def watching(client: redis.Redis, lock: Lock, *watched: str) -> Pipeline | None:
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
