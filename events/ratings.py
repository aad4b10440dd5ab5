"""Ratings in the store, each game's in a slot of its own (`{ratings:<game>}`): the rated results
recorded once, the fold's order, the ratings folded from them with each identity's history and the
counters read by the pages (places, head to head, the leaderboard's sorted sets), and the lock
under which one process at a time folds a game. A fold runs chunk by chunk, each chunk one
transaction that writes only while the lock is still its fold's and leaves where the next starts;
a rebuild folds into fresh keys and swaps them in at once (docs/ratings.md)."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import redis
from redis.client import Pipeline
from redis.exceptions import LockError, WatchError
from redis.lock import Lock

from domain import GAMES
from events import keys, scripts

CHUNK = 500  # results folded in one transaction
WALK = 200  # identities a leaderboard reads at a time, walking down from its top
LOCK_SECONDS = 600  # a fold that died lets go of its game after this long; extended after each chunk


@dataclass(frozen=True, slots=True)
class Result:
    """A finished rated game's places, best first, each a tuple of identities sharing it, and the
    time (ms since the epoch) of its last event; `names` shows each identity as it sat. An unlisted
    game (or a copy of one) is `unlisted`: what the ratings show never names it."""

    game_id: str
    game: str
    at: int
    places: tuple[tuple[str, ...], ...]
    names: dict[str, str]
    unlisted: bool = False

    @property
    def public_id(self) -> str | None:
        """The game's id as the ratings show it: none for an unlisted game."""
        return None if self.unlisted else self.game_id

    def identities(self) -> list[str]:
        return [identity for place in self.places for identity in place]

    def place_of(self, identity: str) -> int:
        """Its place, 1 for the best."""
        return next(index for index, place in enumerate(self.places, start=1) if identity in place)

    def to_json(self) -> str:
        return json.dumps({"game_id": self.game_id, "game": self.game, "at": self.at,
                           "places": [list(place) for place in self.places], "names": self.names,
                           "unlisted": self.unlisted}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Result:
        data: dict[str, Any] = json.loads(text)
        return cls(data["game_id"], data["game"], data["at"], tuple(tuple(place) for place in data["places"]), data["names"],
                   data.get("unlisted", False))


@dataclass(frozen=True, slots=True)
class Rating:
    """An identity's skill in one game: its mean and uncertainty, the results it took part in, and
    the time of its latest (ms since the epoch)."""

    mu: float
    sigma: float
    games: int = 0
    last: int = 0

    @property
    def value(self) -> float:
        """The rating shown and ranked by: the skill it has with 99.7% certainty, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> str:
        return json.dumps([self.mu, self.sigma, self.games, self.last])

    @classmethod
    def from_json(cls, text: str | bytes) -> Rating:
        mu, sigma, games, last = json.loads(text)
        return cls(mu, sigma, games, last)


@dataclass(frozen=True, slots=True)
class Entry:
    """A history entry: the game, its time, the rating's mu and sigma after it (to the last bit), and the place taken."""

    game_id: str
    at: int
    mu: float
    sigma: float
    place: int

    @property
    def text(self) -> str:
        return f"{self.game_id} {self.mu!r} {self.sigma!r} {self.place}"

    @property
    def position(self) -> tuple[int, str]:
        """Where it stands in the fold's order: its game's time, then its game's id."""
        return self.at, self.game_id

    @classmethod
    def parse(cls, text: bytes, at: float) -> Entry:
        game_id, mu, sigma, place = text.decode().split(" ")
        return cls(game_id, int(at), float(mu), float(sigma), int(place))


@dataclass(frozen=True, slots=True)
class Record:
    """How an identity fared against one other in a game: games together, and those it finished ahead, behind, level."""

    other: str
    ahead: int
    behind: int
    tied: int

    @property
    def played(self) -> int:
        return self.ahead + self.behind + self.tied

    @classmethod
    def parse(cls, other: str, text: bytes | None) -> Record:
        ahead, behind, tied = (int(count) for count in (text or b"0 0 0").split(b" "))
        return cls(other, ahead, behind, tied)


Rate = Callable[[Result, dict[str, Rating]], dict[str, Rating]]  # each identity's rating after a result, from those before


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one game's ratings, live or a rebuild's fresh ones; the lock and the sweep's mark are always the live ones."""

    game: str
    fresh: bool = False

    @property
    def root(self) -> str:
        return keys.ratings_root(self.game) + (":fresh" if self.fresh else "")

    @property
    def results(self) -> str:
        """Hash: game id → the rated result it counts for, as JSON, recorded once."""
        return f"{self.root}:results"

    @property
    def order(self) -> str:
        """Sorted set: every recorded result's game id, scored by its last event's time; ties by id (the fold's order)."""
        return f"{self.root}:order"

    @property
    def unfolded(self) -> str:
        """Sorted set: the results the fold has yet to reach, scored as `order` (the next fold starts at the first)."""
        return f"{self.root}:unfolded"

    @property
    def now(self) -> str:
        """Hash: identity → its rating now, as JSON (mu, sigma, games, last)."""
        return f"{self.root}:now"

    def board(self, provisional: bool) -> str:
        """Sorted set: the established (or provisional) identities, scored by minus their rating shown."""
        return f"{self.root}:board:{'provisional' if provisional else 'established'}"

    def last(self, provisional: bool) -> str:
        """Sorted set: the same identities as `board`, scored by the time of their latest result."""
        return f"{self.root}:last:{'provisional' if provisional else 'established'}"

    def history(self, identity: str) -> str:
        """Sorted set: an Entry after each of the identity's results, scored by its time."""
        return f"{self.root}:history:{identity}"

    def places(self, identity: str) -> str:
        """Hash: place → how many times the identity finished there."""
        return f"{self.root}:places:{identity}"

    def versus(self, identity: str) -> str:
        """Hash: another identity → `<ahead> <behind> <tied>`, the identity's games against it."""
        return f"{self.root}:versus:{identity}"

    def opponents(self, identity: str) -> str:
        """Sorted set: every identity met, scored by minus the games together (most met first, ties by id)."""
        return f"{self.root}:opponents:{identity}"


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


class RatingStore:
    """Every game's recorded results and the ratings folded from them by `rate`; an identity is
    provisional while its sigma is above `provisional_sigma`."""

    def __init__(self, client: redis.Redis, rate: Rate, provisional_sigma: float) -> None:
        self.redis = client
        self.rate = rate
        self.provisional_sigma = provisional_sigma
        self._record = scripts.register(client, "record_result.lua")

    def record(self, result: Result, fresh: bool = False) -> bool:
        """Record `result` for folding, unless its game's was recorded before; whether it is new."""
        at = Keys(result.game, fresh)
        return bool(self._record(keys=[at.results, at.order, at.unfolded], args=[result.game_id, result.to_json(), result.at]))

    def is_recorded(self, game: str, game_id: str) -> bool:
        return bool(self.redis.hexists(Keys(game).results, game_id))

    def swept(self) -> int:
        """Up to when (ms) every game's finished games were swept: the earliest game's mark, 0 if one has none."""
        marks = [cast(bytes | None, self.redis.get(keys.rating_swept(game))) for game in GAMES]  # a slot each: no MGET
        return min(int(mark or 0) for mark in marks)

    def mark_swept(self, until: int) -> None:
        for game in GAMES:
            self.redis.set(keys.rating_swept(game), until)

    def fold_all(self) -> int:
        """Fold each game's results recorded since its last fold; how many were folded, all games together."""
        return sum(self.fold(game) for game in GAMES)

    def fold(self, game: str) -> int:
        """Fold the game's results recorded since its last fold, from the earliest of them in the
        fold's order on (again, past any folded before); how many were folded. Another process
        folding the game now leaves them to it."""
        if not self.redis.zcard(Keys(game).unfolded):
            return 0
        lock = self.redis.lock(keys.rating_lock(game), timeout=LOCK_SECONDS, blocking_timeout=0)
        if not lock.acquire(blocking=False):
            return 0
        try:
            return self._fold(Keys(game), lock)
        finally:
            _release(lock)

    def rebuild(self, game: str, results: Iterable[Result], swept: int) -> int:
        """Fold `results` (all of one game) into fresh keys and swap them for the live ones at once,
        the game's finished games having been read from `swept` (ms) on, so that the next sweep
        looks again at those filed since; how many count."""
        every = list(results)  # read before the lock is taken: the fold's lock is held for the writes only
        fresh = Keys(game, fresh=True)
        lock = self.redis.lock(keys.rating_lock(game), timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS)
        lock.acquire()
        try:
            self._delete(self._under(fresh))  # what a rebuild that died left
            for result in every:
                self.record(result, fresh=True)
            self._fold(fresh, lock)
            self._swap(fresh, lock, swept)
            return len(every)
        finally:
            _release(lock)

    def _under(self, at: Keys) -> list[bytes]:
        """The keys under `at`'s root (a live root's but its fresh ones, its lock and its mark)."""
        skipped = {f"{at.root}:fresh".encode(), keys.rating_lock(at.game).encode(), keys.rating_swept(at.game).encode()}
        return [key for key in cast(Iterable[bytes], self.redis.scan_iter(match=f"{at.root}:*", count=1000))
                if key not in skipped and not key.startswith(f"{at.root}:fresh:".encode())]

    def _delete(self, found: list[bytes]) -> None:
        for start in range(0, len(found), 500):
            self.redis.delete(*found[start:start + 500])

    def _swap(self, fresh: Keys, lock: Lock, swept: int) -> None:
        """Rename every fresh key over its live one, delete the live keys the rebuild did not make
        and mark the sweep, in one transaction, while the lock is still this rebuild's."""
        live, made = Keys(fresh.game), self._under(fresh)
        renamed = {live.root.encode() + key[len(fresh.root):]: key for key in made}
        stale = [key for key in self._under(live) if key not in renamed]
        pipe = self._watching(lock)
        if pipe is None:
            raise LockError("the rebuild's lock was lost before its swap")
        for target, key in renamed.items():
            pipe.execute_command("RENAME", key, target)  # a cluster's pipeline refuses pipe.rename; the keys share a slot
        if stale:
            pipe.delete(*stale)
        pipe.set(keys.rating_swept(fresh.game), swept)
        try:
            pipe.execute()
        except WatchError as lost:
            raise LockError("the rebuild's lock was lost during its swap") from lost

    def _watching(self, lock: Lock) -> Pipeline | None:
        """A transaction begun while `lock` is still this process's (its key watched), or None."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.watch(lock.name)
        if pipe.get(lock.name) != lock.local.token:
            pipe.reset()
            return None
        pipe.multi()
        return pipe

    def _fold(self, at: Keys, lock: Lock) -> int:
        """Fold as `fold` says, holding `lock`, a chunk at a time, extending the lock between chunks."""
        first = cast(list[bytes], self.redis.zrange(at.unfolded, 0, 0))
        start = first[0].decode() if first else None
        folded = 0
        while start is not None:
            done, start = self._chunk(at, lock, start)
            folded += done
            if done == 0 or (start is not None and not _extended(lock)):
                break
        return folded

    def _chunk(self, at: Keys, lock: Lock, start: str) -> tuple[int, str | None]:
        """Fold up to CHUNK results from `start` in one transaction, writing only while the lock is
        this fold's; how many were folded, and where the next chunk starts (none after the last)."""
        rank = cast(int | None, self.redis.zrank(at.order, start))
        if rank is None:
            return 0, None
        ids = cast(list[tuple[bytes, float]], self.redis.zrange(at.order, rank, rank + CHUNK, withscores=True))
        chunk, following = [game_id.decode() for game_id, _ in ids[:CHUNK]], ids[CHUNK:]
        plan = self._plan(at, self.results(at.game, chunk, fresh=at.fresh))
        writes = self._counters(at, plan)
        pipe = self._watching(lock)
        if pipe is None:
            return 0, None
        self._write(pipe, at, plan)
        for write in writes:
            write(pipe)
        pipe.zrem(at.unfolded, *chunk)
        if following:
            pipe.zadd(at.unfolded, {following[0][0]: following[0][1]})  # where a fold resumes if this one stops here
        try:
            pipe.execute()
        except WatchError:  # the lock expired under this fold and another took it
            return 0, None
        return len(chunk), following[0][0].decode() if following else None

    def _plan(self, at: Keys, results: list[Result]) -> Chunk:
        """Read what a chunk of `results` takes back: each of its identities' entries at or after its
        start (those of earlier chunks are all before it), and their ratings before it."""
        plan = Chunk(results)
        if not results:
            return plan
        start = (results[0].at, results[0].game_id)
        identities = sorted({identity for result in results for identity in result.identities()})
        pipe = self.redis.pipeline(transaction=False)
        for identity in identities:
            pipe.zrangebyscore(at.history(identity), start[0], "+inf", withscores=True)
            pipe.zrevrangebyscore(at.history(identity), f"({start[0]}", "-inf", start=0, num=1, withscores=True)
            pipe.zcard(at.history(identity))
        read = pipe.execute()
        undone: dict[str, list[str]] = {}
        for index, identity in enumerate(identities):
            ending, earlier, count = read[3 * index:3 * index + 3]
            entries = [(raw, Entry.parse(raw, score)) for raw, score in ending]
            plan.later[identity] = [raw for raw, entry in entries if entry.position >= start]
            kept = [entry for _, entry in entries if entry.position < start] or [Entry.parse(*each) for each in earlier]
            if kept:
                last = max(kept, key=lambda entry: entry.position)
                plan.before[identity] = Rating(last.mu, last.sigma, count - len(plan.later[identity]), last.at)
            for _, entry in entries:
                if entry.position >= start:
                    undone.setdefault(entry.game_id, []).append(identity)
        for result in self.results(at.game, list(undone), fresh=at.fresh):
            for identity in undone[result.game_id]:
                plan.tally.count(result, identity, -1)
        return plan

    def _write(self, pipe: Pipeline, at: Keys, plan: Chunk) -> None:
        """Queue the chunk's ratings: the entries taken back gone, each result's entries added, each
        identity's rating now and its place on the leaderboard's sets."""
        for identity, later in plan.later.items():
            if later:
                pipe.zrem(at.history(identity), *later)
        now = dict(plan.before)
        for result in plan.results:
            after = self.rate(result, now)
            now.update(after)
            for identity, rating in after.items():
                entry = Entry(result.game_id, result.at, rating.mu, rating.sigma, result.place_of(identity))
                pipe.zadd(at.history(identity), {entry.text: result.at})
        if now:
            pipe.hset(at.now, mapping={identity: rating.to_json() for identity, rating in now.items()})
        for identity, rating in now.items():
            provisional = rating.sigma > self.provisional_sigma
            pipe.zadd(at.board(provisional), {identity: -rating.value})
            pipe.zadd(at.last(provisional), {identity: rating.last})
            pipe.zrem(at.board(not provisional), identity)
            pipe.zrem(at.last(not provisional), identity)

    def _counters(self, at: Keys, plan: Chunk) -> list[Callable[[Pipeline], object]]:
        """The writes that set the counters the chunk changes to their new values (a count come to
        nothing removed), read now: the counters are written only by the fold, under its lock."""
        for result in plan.results:  # the tally of what the chunk adds, counted ahead of the write
            for identity in result.identities():
                plan.tally.count(result, identity, 1)
        identities = sorted(plan.tally.places)
        pipe = self.redis.pipeline(transaction=False)
        for identity in identities:
            pipe.hgetall(at.places(identity))
            pipe.hmget(at.versus(identity), list(plan.tally.versus[identity]))
        read = pipe.execute()
        writes: list[Callable[[Pipeline], object]] = []
        for index, identity in enumerate(identities):
            places = {int(place): int(count) for place, count in cast(dict[bytes, bytes], read[2 * index]).items()}
            places.update({place: places.get(place, 0) + change for place, change in plan.tally.places[identity].items()})
            writes.extend(_places_written(at, identity, places))
            others = list(plan.tally.versus[identity])
            for other, raw in zip(others, cast(list[bytes | None], read[2 * index + 1]), strict=True):
                was = Record.parse(other, raw)
                change = plan.tally.versus[identity][other]
                writes.extend(_record_written(at, identity, Record(other, was.ahead + change[0], was.behind + change[1],
                                                                    was.tied + change[2])))
        return writes

    def rating(self, game: str, identity: str) -> Rating | None:
        """The identity's rating in `game`, if it has one."""
        raw = cast(bytes | None, self.redis.hget(Keys(game).now, identity))
        return None if raw is None else Rating.from_json(raw)

    def history(self, game: str, identity: str, latest: int | None = None) -> tuple[list[Entry], int]:
        """The identity's history in `game` (its `latest` entries only, if given), oldest first, and how many entries it has in all."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(Keys(game).history(identity), 0 if latest is None else -latest, -1, withscores=True)
        pipe.zcard(Keys(game).history(identity))
        entries, total = pipe.execute()
        return [Entry.parse(raw, at) for raw, at in entries], int(total)

    def places(self, game: str, identity: str) -> list[int]:
        """How many times the identity finished at each place in `game`, from the first to its worst."""
        found = {int(place): int(count) for place, count in cast(dict[bytes, bytes], self.redis.hgetall(Keys(game).places(identity))).items()}
        return [found.get(place, 0) for place in range(1, max(found, default=0) + 1)]

    def versus(self, game: str, identity: str, other: str) -> Record | None:
        """How the identity fared against `other` in `game`, if they met."""
        raw = cast(bytes | None, self.redis.hget(Keys(game).versus(identity), other))
        return None if raw is None else Record.parse(other, raw)

    def opponents(self, game: str, identity: str, after: int, limit: int) -> tuple[int, list[Record]]:
        """How many identities the identity met in `game`, and `limit` of them past the first `after`, most met first."""
        at = Keys(game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(at.opponents(identity))
        pipe.zrange(at.opponents(identity), after, after + limit - 1)
        total, others = pipe.execute()
        if not others:
            return int(total), []
        raw = cast(list[bytes | None], self.redis.hmget(at.versus(identity), others))
        return int(total), [Record.parse(other.decode(), each) for other, each in zip(others, raw, strict=True)]

    def board(self, game: str, provisional: bool, since: int, after: int, limit: int) -> tuple[int, list[tuple[str, Rating]]]:
        """How many established (or provisional) identities played `game` since `since` (ms), and
        `limit` of them past the first `after`, best first (ties by identity), read from the top down."""
        at = Keys(game)
        total = int(self.redis.zcount(at.last(provisional), since, "+inf"))
        found: list[str] = []
        skipped, position = 0, 0
        while len(found) < limit and skipped + len(found) < total:
            walked = [raw.decode() for raw in cast(list[bytes], self.redis.zrange(at.board(provisional), position, position + WALK - 1))]
            if not walked:
                break
            lasts = self.redis.zmscore(at.last(provisional), walked)
            active = [identity for identity, last in zip(walked, lasts, strict=True) if last is not None and last >= since]
            taken = active[max(0, after - skipped):]
            skipped += len(active) - len(taken)
            found.extend(taken[:limit - len(found)])
            position += WALK
        raw = cast(list[bytes | None], self.redis.hmget(at.now, found)) if found else []
        return total, [(identity, Rating.from_json(each)) for identity, each in zip(found, raw, strict=True) if each]

    def results(self, game: str, game_ids: list[str], fresh: bool = False) -> list[Result]:
        """The recorded results of these games, in their order, leaving out any not recorded."""
        if not game_ids:
            return []
        return [Result.from_json(raw) for raw in cast(list[bytes], self.redis.hmget(Keys(game, fresh).results, game_ids)) if raw]


def _places_written(at: Keys, identity: str, places: dict[int, int]) -> list[Callable[[Pipeline], object]]:
    """The writes that leave the identity's place counts at `places`."""
    gone = [place for place, count in places.items() if count <= 0]
    writes: list[Callable[[Pipeline], object]] = []
    if gone:
        writes.append(lambda pipe: pipe.hdel(at.places(identity), *gone))
    if len(gone) < len(places):
        writes.append(lambda pipe: pipe.hset(at.places(identity), mapping={place: count for place, count in places.items() if count > 0}))
    return writes


def _record_written(at: Keys, identity: str, record: Record) -> list[Callable[[Pipeline], object]]:
    """The writes that leave the identity's record against `record.other` as `record` says."""
    if record.played <= 0:
        return [lambda pipe: pipe.hdel(at.versus(identity), record.other),
                lambda pipe: pipe.zrem(at.opponents(identity), record.other)]
    return [lambda pipe: pipe.hset(at.versus(identity), record.other, f"{record.ahead} {record.behind} {record.tied}"),
            lambda pipe: pipe.zadd(at.opponents(identity), {record.other: -record.played})]


def _extended(lock: Lock) -> bool:
    """Whether `lock`, still this fold's, was given its whole time again."""
    try:
        lock.reacquire()
        return True
    except LockError:
        return False


def _release(lock: Lock) -> None:
    """Let go of `lock`, unless it expired already."""
    with contextlib.suppress(LockError):
        lock.release()
