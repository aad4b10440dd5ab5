"""The RQ queues Meeple uses, and the executor a job works with."""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import threading
import time
from datetime import datetime, timezone
from types import FrameType, TracebackType

import redis
from rq import Queue, Worker, get_current_job
from rq.job import Job
from rq.job_lifecycle import call_exception_handlers
from rq.scheduler import RQScheduler

from events import keys
from events.envelope import MAX_THINK_SECONDS
from events.execute import Executor
from events.store import EventStore
from workers.errors import WorkerError

MOVE_JOB_SECONDS = 2 * MAX_THINK_SECONDS  # what a job that moves for a seat is given: thinking, loading, appending
# what is kept of a job that carries the version it was made for once it has run: its result and
# its hash are read by nothing (a copy enqueued again finds its version stale), so nothing; one
# that failed is kept an hour for its operator to read why
RESULT_TTL, FAILURE_TTL = 0, 3600
# how long a job running when the worker is asked to stop may go on: then it is killed, and the
# reactor's sweep enqueues it again (RQ's work horse has a process group of its own, so a signal
# to the worker's group does not reach it, and RQ alone would wait for the job's whole timeout)
JOB_STOP_SECONDS = 5


def retry_intervals(setting: str, default: str) -> list[int]:
    """Seconds between a job's attempts: the environment's `setting` (comma-separated), or `default`."""
    return [int(s) for s in os.environ.get(setting, default).split(",")]

_executors: dict[int, Executor] = {}  # by the id of the connection to the store they work on
_named: Executor | None = None  # over the store use_store named, if it did
log = logging.getLogger("meeple.worker")


def bot_queue(connection: redis.Redis) -> Queue:
    return Queue(keys.BOT_QUEUE, connection=connection)


def ai_games_queue(connection: redis.Redis) -> Queue:
    return Queue(keys.AI_GAMES_QUEUE, connection=connection)


def deadline_queue(connection: redis.Redis) -> Queue:
    return Queue(keys.DEADLINE_QUEUE, connection=connection)


def moment(at_ms: int) -> datetime:
    """When to schedule a job due at `at_ms`: rounded up to RQ's whole seconds, so a deadline is never early."""
    return datetime.fromtimestamp(math.ceil(at_ms / 1000), tz=timezone.utc)


def use_store(store: EventStore) -> None:
    """Run this process's jobs against `store`, which keeps the games apart from the queues."""
    global _named
    _named = Executor(store)


def job_connection() -> redis.Redis:
    """The connection to the queues of the running job's worker."""
    job = get_current_job()
    assert job is not None, "called outside an RQ job"
    return job.connection


def attempt_number() -> int:
    """Which attempt the running job makes: 1, then one more per retry (its Retry gives one per interval)."""
    job = get_current_job()
    assert job is not None, "called outside an RQ job"
    return len(job.retry_intervals or ()) - (job.retries_left or 0) + 1


def job_executor() -> Executor:
    """The executor over the running job's store: the one `use_store` named, else its queue's Redis server."""
    if _named is not None:
        return _named
    connection = job_connection()
    if id(connection) not in _executors:
        _executors[id(connection)] = Executor(EventStore(connection))
    return _executors[id(connection)]


class _Worker(Worker):
    """An RQ worker that knows whether it was asked to stop or stopped because the store went away."""

    asked_to_stop = False

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        """Stop once the running job ends, or past JOB_STOP_SECONDS kill it (RQ's cold shutdown on a second signal)."""
        self.asked_to_stop = True
        again = threading.Timer(JOB_STOP_SECONDS, os.kill, (os.getpid(), signal.SIGTERM))
        again.daemon = True  # a worker whose job ended in time exits without waiting for it
        again.start()
        super().request_stop(signum, frame)  # type: ignore[no-untyped-call]  # RQ leaves it unannotated

    def handle_exception(self, job: Job, *exc_info: type[BaseException] | BaseException | TracebackType | None) -> None:
        """Log a job's failure: one raised on purpose as one line saying why, a bug with its traceback."""
        error = exc_info[1]
        if not isinstance(error, WorkerError):
            super().handle_exception(job, *exc_info)
            return
        log.warning("%s", error, extra={"job": job.id, **error.fields})
        call_exception_handlers(self._exc_handlers, job, *exc_info)


def _schedule(connection: redis.Redis, queues: list[str], stop: threading.Event) -> None:
    """Move each scheduled job onto its queue once its time has come, every second, while this worker holds the lock."""
    # RQ's scheduler, in a thread that outlives store outages: RQ's own process dies with the first
    scheduler = RQScheduler(queues, connection=connection)
    while not stop.wait(1):
        try:
            scheduler.acquire_locks()
            scheduler.enqueue_scheduled_jobs()
        except redis.ConnectionError as error:
            log.warning("scheduler: store unreachable, retrying: %s", error)
    with contextlib.suppress(redis.ConnectionError):
        scheduler.release_locks()


def work(connection: redis.Redis, queues: list[str]) -> None:
    """Run the queues' jobs and their scheduler until asked to stop (SIGTERM or SIGINT), through store outages."""
    stop = threading.Event()
    threading.Thread(target=_schedule, args=(connection, queues, stop), name="scheduler", daemon=True).start()
    try:
        while True:
            worker = None
            try:
                worker = _Worker(queues, connection=connection)  # it names itself in the store
                worker.work(logging_level="WARNING")
            except redis.ConnectionError:  # RQ's own clean-up needs the store too
                pass
            if worker is not None and worker.asked_to_stop:
                return
            # RQ's worker cannot start while the store is away, and quits when it goes: wait, start a new one
            log.warning("the store is away; the worker starts when it answers")
            while True:
                try:
                    connection.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(1)
    finally:
        stop.set()
