"""Ratings, a projection of the finished rated games: each result (application.results) is
recorded once, by its game's id, and folded into its identities' ratings in one order, that of
the fold: its last event's time, then its game's id. A result recorded after a later one was
folded is folded again from its place on, so the ratings never depend on the order results
arrived in, and rebuilding them from the stored games gives the same numbers to the last bit.
The model is OpenSkill's Plackett-Luce, its parameters stated below (docs/ratings.md)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import redis
from openskill.models import PlackettLuce
from redis.exceptions import LockNotOwnedError, WatchError
from redis.lock import Lock

from application.results import Result, result_of
from events import clock, keys, scripts
from events.envelope import Lifecycle
from events.execute import Executor

MU = 25.0  # a new identity's mean skill
SIGMA = MU / 3  # its uncertainty: three sigmas span the scale
BETA = SIGMA / 2  # the skill gap that makes a win about 76% likely between two
TAU = SIGMA / 100  # the uncertainty added before each game, so that a rating keeps moving
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
LOCK_SECONDS = 600  # a folder that died lets go of the fold after this long


@dataclass(frozen=True, slots=True)
class Rating:
    """An identity's skill in one game: its mean and uncertainty, the results it took part in, and
    the time of its latest (ms since the epoch)."""

    mu: float = MU
    sigma: float = SIGMA
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


def rate(result: Result, before: dict[str, Rating]) -> dict[str, Rating]:
    """Each identity's rating after `result`, from `before` (a new identity starts at MU, SIGMA)."""
    identities = result.identities()
    teams = [[MODEL.create_rating([before.get(identity, Rating()).mu, before.get(identity, Rating()).sigma])]
             for identity in identities]
    ranks = [float(result.place_of(identity)) for identity in identities]
    after = MODEL.rate(teams, ranks=ranks)
    return {identity: Rating(team[0].mu, team[0].sigma, before.get(identity, Rating()).games + 1, result.at)
            for identity, team in zip(identities, after, strict=True)}


def _entry(game_id: str, rating: Rating) -> str:
    """A history entry: the game and the rating after it, its floats written to the last bit."""
    return f"{game_id} {rating.mu!r} {rating.sigma!r}"


def _place(entry: bytes, at: float) -> tuple[int, str]:
    """Where a history entry stands in the fold's order: its game's time, then its game's id."""
    return int(at), entry.split(b" ")[0].decode()


def parse_entry(entry: bytes, at: float) -> tuple[str, int, float, float]:
    """A history entry read back: the game's id, its time, and mu and sigma after it."""
    game_id, mu, sigma = entry.decode().split(" ")
    return game_id, int(at), float(mu), float(sigma)


class Ratings:
    """The recorded results and the ratings folded from them, in the store's `{ratings}` slot."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._record = scripts.register(client, "record_result.lua")

    def record(self, result: Result) -> bool:
        """Record `result` for folding, unless its game's was recorded before; whether it is new."""
        return bool(self._record(keys=[keys.rating_results(), keys.rating_order(), keys.rating_unfolded()],
                                 args=[result.game_id, result.to_json(), result.at]))

    def is_recorded(self, game_id: str) -> bool:
        return bool(self.redis.hexists(keys.rating_results(), game_id))

    def fold(self) -> int:
        """Fold the results recorded since the last fold, from the earliest of them in the fold's
        order on (again, past any folded before); how many were folded. Another process folding
        now leaves them to it."""
        if not self.redis.zcard(keys.rating_unfolded()):
            return 0
        lock = self.redis.lock(keys.rating_lock(), timeout=LOCK_SECONDS, blocking_timeout=0)
        if not lock.acquire(blocking=False):
            return 0
        try:
            return self._fold(lock)
        finally:
            _release(lock)

    def rebuild(self, results: Iterable[Result], swept: int) -> int:
        """Forget every result and rating and fold `results` afresh, the finished games having been
        read from `swept` (ms) on, so that the next sweep looks again at those filed since; how many count."""
        every = list(results)  # read before the lock is taken: the fold's lock is held for the writes only
        lock = self.redis.lock(keys.rating_lock(), timeout=LOCK_SECONDS, blocking_timeout=LOCK_SECONDS)
        lock.acquire()
        try:
            self._forget()
            for result in every:
                self.record(result)
            self.redis.set(keys.rating_swept(), swept)
            return self._fold(lock)
        finally:
            _release(lock)

    def _forget(self) -> None:
        stale = [key for key in self.redis.scan_iter(match=f"{keys.RATINGS}:*", count=1000)
                 if key != keys.rating_lock().encode()]
        for start in range(0, len(stale), 500):
            self.redis.delete(*stale[start:start + 500])

    def _fold(self, lock: Lock) -> int:
        """Fold as `fold` says, holding `lock`: its writes are made only while the lock is still this
        fold's (the lock key watched), so a fold whose lock expired and was taken writes nothing."""
        first = cast(list[tuple[bytes, float]], self.redis.zrange(keys.rating_unfolded(), 0, 0, withscores=True))
        if not first:
            return 0
        unfolded = cast(list[bytes], self.redis.zrange(keys.rating_unfolded(), 0, -1))
        start = (int(first[0][1]), first[0][0].decode())
        rank = cast(int, self.redis.zrank(keys.rating_order(), start[1]))
        ids = [raw.decode() for raw in cast(list[bytes], self.redis.zrange(keys.rating_order(), rank, -1))]
        results = self.results(ids)
        pipe = self.redis.pipeline(transaction=True)
        pipe.watch(keys.rating_lock())
        if pipe.get(keys.rating_lock()) != lock.local.token:
            pipe.reset()
            return 0
        pipe.multi()
        now = self._undo(pipe, results, start)
        for result in results:
            after = rate(result, now[result.game])
            now[result.game].update(after)
            for identity, rating in after.items():
                pipe.zadd(keys.rating_history(result.game, identity), {_entry(result.game_id, rating): result.at})
        for game, ratings in now.items():
            if ratings:
                pipe.hset(keys.ratings(game), mapping={identity: rating.to_json() for identity, rating in ratings.items()})
        pipe.zrem(keys.rating_unfolded(), *unfolded)
        try:
            pipe.execute()
        except WatchError:  # the lock expired under this fold and another took it
            return 0
        return len(unfolded)

    def _undo(self, pipe: redis.client.Pipeline, results: list[Result], start: tuple[int, str]) -> dict[str, dict[str, Rating]]:
        """Queue on `pipe` the removal of every history entry at or after `start` of the identities
        of `results`; their ratings as they were before `start`, game by game."""
        before: dict[str, dict[str, Rating]] = {result.game: {} for result in results}
        for game, identity in {(result.game, identity) for result in results for identity in result.identities()}:
            history = keys.rating_history(game, identity)
            ending = cast(list[tuple[bytes, float]], self.redis.zrangebyscore(history, start[0], "+inf", withscores=True))
            later = [entry for entry, at in ending if _place(entry, at) >= start]
            if later:
                pipe.zrem(history, *later)
            # the last entry before `start`: past those at its time that are not before it, which sort last among them
            candidates = cast(list[tuple[bytes, float]], self.redis.zrevrangebyscore(
                history, start[0], "-inf", start=0, num=len(later) + 1, withscores=True))
            last = next(((entry, at) for entry, at in candidates if _place(entry, at) < start), None)
            if last is None:
                pipe.hdel(keys.ratings(game), identity)
            else:
                _, at, mu, sigma = parse_entry(*last)
                before[game][identity] = Rating(mu, sigma, self.redis.zcard(history) - len(later), at)
        return before

    def current(self, game: str) -> dict[str, Rating]:
        """Every identity's rating in `game`."""
        return {identity.decode(): Rating.from_json(raw)
                for identity, raw in cast(dict[bytes, bytes], self.redis.hgetall(keys.ratings(game))).items()}

    def rating(self, game: str, identity: str) -> Rating | None:
        """The identity's rating in `game`, if it has one."""
        raw = cast(bytes | None, self.redis.hget(keys.ratings(game), identity))
        return None if raw is None else Rating.from_json(raw)

    def history(self, game: str, identity: str, latest: int | None = None) -> list[tuple[str, int, float, float]]:
        """The identity's history in `game` (its `latest` entries only, if given), oldest first: each
        game's id and time, and mu and sigma after it."""
        start = 0 if latest is None else -latest
        entries = cast(list[tuple[bytes, float]], self.redis.zrange(keys.rating_history(game, identity), start, -1, withscores=True))
        return [parse_entry(entry, at) for entry, at in entries]

    def results(self, game_ids: list[str]) -> list[Result]:
        """The recorded results of these games, in their order, leaving out any not recorded."""
        if not game_ids:
            return []
        return [Result.from_json(raw) for raw in cast(list[bytes], self.redis.hmget(keys.rating_results(), game_ids)) if raw]


def _release(lock: Lock) -> None:
    """Let go of `lock`, unless it expired already."""
    with contextlib.suppress(LockNotOwnedError):
        lock.release()


def rebuild(executor: Executor) -> int:
    """Fold the ratings afresh from every finished game the store holds; how many results count."""
    started = clock.now()
    finished = (game_id for game_id, _ in executor.store.games.indexed(Lifecycle.FINISHED))
    return Ratings(executor.store.redis).rebuild((result for game_id in finished if (result := result_of(executor, game_id))),
                                                 started)
