"""The RQ queues Meeple uses, and the executor a job works with."""

from __future__ import annotations

import redis
from rq import Queue, get_current_job

from events.execute import Executor
from events.store import EventStore

BOTS = "meeple-bots"
DEADLINES = "meeple-deadlines"

_executors: dict[int, Executor] = {}


def bot_queue(connection: redis.Redis) -> Queue:
    return Queue(BOTS, connection=connection)


def deadline_queue(connection: redis.Redis) -> Queue:
    return Queue(DEADLINES, connection=connection)


def job_executor() -> Executor:
    """The executor over the store of the running job's worker (one per connection)."""
    job = get_current_job()
    assert job is not None, "called outside an RQ job"
    connection = job.connection
    if id(connection) not in _executors:
        _executors[id(connection)] = Executor(EventStore(connection))
    return _executors[id(connection)]
