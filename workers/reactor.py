"""Reacting to appended events: whatever a new version makes due is enqueued as an idempotent
job — an AI seat's move at once, a deadline at the time it passes. The reactor reads the feed through a consumer group; a periodic
sweep of the active games catches anything the feed missed (a process that died between an
append and its announcement, a job lost with its worker)."""

from __future__ import annotations

import logging
import socket
import threading
import time
from datetime import datetime, timezone

import redis
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from events import keys
from events.deadlines import due
from events.execute import Executor, Loaded
from workers.bots import play_bot_turn
from workers.deadlines import apply_deadline
from workers.queues import bot_queue, deadline_queue

log = logging.getLogger("meeple.reactor")

GROUP = "reactors"
# A job needs no copy when it is done, or still waiting in its queue. One that a worker took
# (started, or dequeued but not started) may belong to a worker that died (kill -9): it is
# enqueued again, and whichever copy runs second finds its version stale.


class Reactor:
    """Turns game versions into jobs."""

    def __init__(self, executor: Executor, sweep_seconds: float = 10.0) -> None:
        self.executor = executor
        self.redis: redis.Redis = executor.store.redis
        self.queue = bot_queue(self.redis)
        self.deadlines = deadline_queue(self.redis)
        self.sweep_seconds = sweep_seconds
        self.name = f"{socket.gethostname()}-{threading.get_native_id()}-{time.monotonic_ns()}"

    def react(self, game_id: str) -> int:
        """Enqueue what the game's current version makes due; how many jobs were enqueued."""
        loaded = self.executor.load(game_id)
        status = loaded.game.status(loaded.state)
        if status.finished or loaded.version == 0:
            return 0
        enqueued = 0
        for seat in status.to_move:
            if loaded.record.bots[seat] is not None:
                enqueued += self._enqueue_bot(game_id, loaded.version, seat)
            else:
                enqueued += self._schedule_deadline(loaded, seat)
        return enqueued

    def _enqueue_bot(self, game_id: str, version: int, seat: int) -> bool:
        job_id = f"bot-{game_id}-{version}-{seat}"
        if self._needs_no_copy(job_id, self.queue):
            return False
        self.queue.enqueue(play_bot_turn, game_id, version, seat, job_id=job_id,
                           job_timeout=60, result_ttl=600, failure_ttl=3600)
        return True

    def _schedule_deadline(self, loaded: Loaded, seat: int) -> bool:
        """Schedule the seat's deadline, if it has one, for the moment it passes."""
        deadline = due(self.executor.store, loaded, seat)
        job_id = f"deadline-{loaded.record.id}-{loaded.version}-{seat}"
        if deadline is None or self._needs_no_copy(job_id, self.deadlines):
            return False
        at = datetime.fromtimestamp(deadline.at / 1000, tz=timezone.utc)
        self.deadlines.enqueue_at(at, apply_deadline, loaded.record.id, loaded.version, seat, deadline.policy,
                                  deadline.level, job_id=job_id, job_timeout=60, result_ttl=600, failure_ttl=3600)
        return True

    def _needs_no_copy(self, job_id: str, queue: Queue) -> bool:
        try:
            status = Job.fetch(job_id, connection=self.redis).get_status()
        except NoSuchJobError:
            return False
        return status in (JobStatus.FINISHED, JobStatus.SCHEDULED) or self.redis.lpos(queue.key, job_id) is not None

    def sweep(self) -> None:
        """React to every active game."""
        cursor: int | None = 0
        while cursor is not None:
            games, cursor = self.executor.store.list_games(None, "active", cursor, 100)
            for record in games:
                self.react(record.id)

    def run(self, stop: threading.Event) -> None:
        """Consume the feed until `stop` is set, sweeping every `sweep_seconds`."""
        try:
            self.redis.xgroup_create(keys.feed(), GROUP, id="$", mkstream=True)
        except redis.ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise
        next_sweep = 0.0
        while not stop.is_set():
            if time.monotonic() >= next_sweep:
                self._guarded(self.sweep)
                next_sweep = time.monotonic() + self.sweep_seconds
            self._guarded(self._consume)

    def _consume(self) -> None:
        batches = self.redis.xreadgroup(GROUP, self.name, {keys.feed(): ">"}, count=100, block=1000)
        for _, entries in batches or ():
            for entry_id, fields in entries:
                self.react(fields[b"game"].decode())
                self.redis.xack(keys.feed(), GROUP, entry_id)

    def _guarded(self, work: object) -> None:
        try:
            work()  # type: ignore[operator]
        except redis.ConnectionError as error:
            log.warning("store unreachable, retrying: %s", error)
            time.sleep(1)
        except Exception:  # the loop outlives any one bad game
            log.exception("reaction failed")
            time.sleep(0.1)
