"""Keeping the ratings: a consumer of the feed, in a group of its own, records the result of each
rated game that finished (application.results) and folds it into the ratings
(application.ratings), each game apart. A game announced again, a consumer run twice or one catching up records
nothing twice: a result is recorded once by its game's id. A sweep of the games filed as finished
since the last (all of them, the first time: so a store whose ratings were kept under older keys
has them recorded and folded anew into the keys of events.ratings) records what the feed lost."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
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
from events.slots import AWAY
from runtime.config import Config

log = logging.getLogger("meeple.ratings")

GROUP = "ratings"  # the rating keepers' consumer group on the feed
OVERLAP_MS = 60_000  # how far before the last sweep's start the next looks, for filings that came late


class RatingKeeper:
    """Records and folds the results of rated games as they finish."""

    def __init__(self, executor: Executor, sweep_seconds: float = 10.0, provisional_sigma: float = Config.provisional_sigma) -> None:
        self.executor = executor
        self.redis: redis.Redis = executor.store.redis
        self.ratings = Ratings(self.redis, provisional_sigma)
        self.sweep_seconds = sweep_seconds
        self.name = f"{socket.gethostname()}-{threading.get_native_id()}-{time.monotonic_ns()}"

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
        """Keep the results of the games filed as finished since the last sweep (every one, the first time); fold them."""
        started = clock.now()
        since = self.ratings.swept() - OVERLAP_MS
        kept = 0
        for shard in self.executor.store.shards.names:
            found = cast(list[bytes], self.redis.zrangebyscore(keys.games_with_status(Lifecycle.FINISHED, shard), since, "+inf"))
            kept += sum(self._kept(game_id.decode()) for game_id in found)
        self.ratings.fold_all()
        self.ratings.mark_swept(started)
        return kept

    def run(self, stop: threading.Event) -> None:
        """Consume the feed until `stop` is set, sweeping every `sweep_seconds`."""
        while not stop.is_set() and not self._guarded(partial(self.executor.store.feed.join, GROUP)):
            pass  # the store may be away when the worker starts
        next_sweep = 0.0
        while not stop.is_set():
            if time.monotonic() >= next_sweep:
                self._guarded(self.sweep)
                next_sweep = time.monotonic() + self.sweep_seconds
            self._guarded(lambda: self.consume(1000))

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
