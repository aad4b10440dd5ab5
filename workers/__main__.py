"""`python -m workers` (what `meeple worker` runs): the reactor, the feed's consumer and sweeper,
beside an RQ worker with its scheduler, on the store at MEEPLE_REDIS_URL."""

from __future__ import annotations

import threading

import redis

from events import keys
from events.execute import Executor
from events.store import EventStore
from service.config import Config
from service.observability import json_logs
from workers.queues import work
from workers.reactor import Reactor


def main() -> None:
    """Run until asked to stop (SIGTERM or SIGINT)."""
    config = Config.from_env()
    if config.redis_url is None:
        raise SystemExit("meeple worker: set MEEPLE_REDIS_URL to the store `meeple serve` uses")
    json_logs()
    connection = redis.Redis.from_url(config.redis_url)
    stop = threading.Event()
    reactor = Reactor(Executor(EventStore(connection)), sweep_seconds=config.sweep_seconds, reminders=config.reminders)
    threading.Thread(target=reactor.run, args=(stop,), name="reactor", daemon=True).start()
    try:
        work(connection, [keys.BOT_QUEUE, keys.DEADLINE_QUEUE, keys.NOTIFY_QUEUE])
    finally:
        stop.set()


if __name__ == "__main__":
    main()
