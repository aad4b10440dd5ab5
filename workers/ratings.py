"""Keeping the ratings: a consumer of the feed, in a group of its own, records the result of each
rated game that finished (application.results) and folds it into the ratings
(application.ratings), each game apart. A game announced again, a consumer run twice or one catching up records
nothing twice: a result is recorded once by its game's id. A sweep of the games filed as finished
since the last (all of them, the first time: so a store whose ratings were kept under older keys
has them recorded and folded anew into the keys of events.ratings) records what the feed lost: one
keeper at a time, BATCH games of each shard a pass, the feed read between passes."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import cast

import redis

from application.ratings import Ratings
from application.results import result_of
from events import clock, keys
from events.envelope import Lifecycle
from events.errors import GameNotFound, GroupLost
from events.execute import Executor
from events.feed import Announcement
from events.rating_fold import extended, let_go
from events.slots import AWAY
from runtime.config import Config

log = logging.getLogger("meeple.ratings")

GROUP = "ratings"  # the rating keepers' consumer group on the feed
OVERLAP_MS = 60_000  # how far before the last sweep's start the next looks, for filings that came late
BATCH = 200  # finished games of each shard a sweep's pass reads
SWEEP_SECONDS = 60  # a keeper that died sweeping lets another sweep after this long; extended after each pass


@dataclass
class Sweep:
    """A sweep under way: when it began, each game's mark as this sweep last saw or set it (a mark
    changed by another process is left to it), and each shard's place: the score it reached and how
    many games of that score it read, or None once read to its end."""

    started: int
    marks: dict[str, int | None]
    places: dict[str, tuple[float, int] | None]

    def reached(self) -> int:
        """The mark this sweep may leave now: its start once every shard is read, else that of the
        least advanced shard, as a mark the next sweep, looking OVERLAP_MS before it, resumes at."""
        left = [place[0] for place in self.places.values() if place is not None]
        return self.started if not left else min(self.started, int(min(left)) + OVERLAP_MS)


class RatingKeeper:
    """Records and folds the results of rated games as they finish."""

    def __init__(self, executor: Executor, sweep_seconds: float = 10.0, provisional_sigma: float = Config.provisional_sigma) -> None:
        self.executor = executor
        self.redis: redis.Redis = executor.store.redis
        self.ratings = Ratings(self.redis, provisional_sigma)
        self.sweep_seconds = sweep_seconds
        self.name = f"{socket.gethostname()}-{threading.get_native_id()}-{time.monotonic_ns()}"
        self.sweeping: Sweep | None = None
        self.sweep_lock = self.redis.lock(keys.rating_sweeping(), timeout=SWEEP_SECONDS, blocking_timeout=0)

    def keep(self, game_id: str) -> bool:
        """Record the game's result if it is a rated game that finished and counts; whether it is new."""
        status, rated, game = cast(list[bytes | None], self.redis.hmget(keys.meta(game_id), "status", "rated", "game"))
        if rated != b"1" or status != Lifecycle.FINISHED.encode() or game is None or self.ratings.is_recorded(game.decode(), game_id):
            return False
        try:
            result = result_of(self.executor, game_id)
        except GameNotFound:
            return False
        return result is not None and self.ratings.record(result)

    def consume(self, block_ms: int | None) -> int:
        """Keep the results of the games announced on the feed, waiting up to `block_ms`; fold them; how many were new."""
        try:
            announced = self.executor.store.feed.take(GROUP, self.name, 100, block_ms)
        except GroupLost:
            self.executor.store.feed.join(GROUP)
            return 0
        by_game: dict[str, list[Announcement]] = {}
        for announcement in announced:
            by_game.setdefault(announcement[1], []).append(announcement)
        kept = 0
        for game_id, announcements in by_game.items():
            kept += self._kept(game_id)
            self.executor.store.feed.ack(GROUP, announcements)  # its result recorded (or none is): the fold finds it
        self.ratings.fold_all()
        return kept

    def _kept(self, game_id: str) -> bool:
        """`keep`, logging a game that fails to be kept rather than leaving those after it (a store
        away is raised, leaving the game's announcements pending)."""
        try:
            return self.keep(game_id)
        except AWAY:
            raise
        except Exception:
            log.exception("keeping the result of game %s failed", game_id)
            return False

    def sweep(self) -> int:
        """Keep the results of the games filed as finished since the last sweep (every one, the
        first time), pass after pass to its end, unless another keeper sweeps; how many were new."""
        kept = self.sweep_pass()
        while self.sweeping is not None:
            kept += self.sweep_pass()
        return kept

    def sweep_pass(self) -> int:
        """One pass of a sweep (beginning one if none is under way, unless another keeper sweeps):
        keep the results of the next BATCH finished games of each shard, fold them, and move the
        marks as far as the sweep reached; how many were new."""
        if not self._sweeping():
            return 0
        sweep = self.sweeping
        assert sweep is not None
        kept = 0
        for shard, place in sweep.places.items():
            if place is not None:
                found = cast(list[tuple[bytes, float]], self.redis.zrangebyscore(
                    keys.games_with_status(Lifecycle.FINISHED, shard), place[0], "+inf", start=place[1], num=BATCH, withscores=True))
                kept += sum(self._kept(game_id.decode()) for game_id, _ in found)
                sweep.places[shard] = _advanced(place, found)
        self.ratings.fold_all()
        sweep.marks = self.ratings.mark_swept(sweep.reached(), sweep.marks)
        if all(place is None for place in sweep.places.values()) or not sweep.marks:
            self.sweeping = None
            let_go(self.sweep_lock)
        return kept

    def _sweeping(self) -> bool:
        """Whether this keeper sweeps now: its sweep lock extended, or taken and a sweep begun."""
        if self.sweeping is not None:
            if extended(self.sweep_lock):
                return True
            self.sweeping = None  # another keeper sweeps since this one's lock expired
        if not self.sweep_lock.acquire(blocking=False):
            return False
        marks = self.ratings.marks()
        since = min(mark or 0 for mark in marks.values()) - OVERLAP_MS
        self.sweeping = Sweep(clock.now(), marks, dict.fromkeys(self.executor.store.shards.names, (since, 0)))
        return True

    def run(self, stop: threading.Event) -> None:
        """Consume the feed until `stop` is set, sweeping every `sweep_seconds`."""
        while not stop.is_set() and not self._guarded(partial(self.executor.store.feed.join, GROUP)):
            pass  # the store may be away when the worker starts
        next_sweep = 0.0
        while not stop.is_set():
            if self.sweeping is not None or time.monotonic() >= next_sweep:
                self._guarded(self.sweep_pass)
                if self.sweeping is None:
                    next_sweep = time.monotonic() + self.sweep_seconds
            self._guarded(lambda: self.consume(None if self.sweeping is not None else 1000))

    @staticmethod
    def _guarded(work: Callable[[], object]) -> bool:
        """Whether `work` ran without raising; the loop outlives a store away and any one bad game."""
        try:
            work()
            return True
        except AWAY as error:
            log.warning("store unreachable, retrying: %s", error)
            time.sleep(1)
        except Exception:
            log.exception("keeping the ratings failed")
            time.sleep(0.1)
        return False


def _advanced(place: tuple[float, int], found: list[tuple[bytes, float]]) -> tuple[float, int] | None:
    """A shard's place after reading `found` from `place`: None at its end (fewer than BATCH read)."""
    if len(found) < BATCH:
        return None
    last = found[-1][1]
    same = sum(1 for _, score in found if score == last)
    return last, same + (place[1] if last == place[0] else 0)

