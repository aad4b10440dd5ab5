"""`python -m workers` (what `meeple worker` runs): the reactor, the rating keeper and the mail outbox's
drain beside an RQ worker and its scheduler."""

from __future__ import annotations

import logging
import threading
import time

from redis.exceptions import RedisClusterException

from events import keys
from events.execute import Executor
from events.slots import AWAY
from runtime import connections
from runtime.config import Config
from runtime.logs import json_logs
from workers.mail import run_outbox
from workers.queues import use_store, work
from workers.ratings import RatingKeeper
from workers.reactor import Reactor

log = logging.getLogger("meeple.worker")


def main() -> None:
    """Run until asked to stop (SIGTERM or SIGINT)."""
    config = Config.from_env()
    if config.redis_url is None:
        raise SystemExit("meeple worker: set MEEPLE_REDIS_URL to the store `meeple serve` uses")
    json_logs()
    while True:  # a cluster's client must reach the node it is given to learn the others
        try:
            store = connections.event_store(config, connections.store_client(config))
            break
        except (*AWAY, RedisClusterException) as error:
            log.warning("the store is away; the worker starts when it answers: %s", error)
            time.sleep(1)
    queues = connections.queue_client(config)
    use_store(store)
    stop = threading.Event()
    reactor = Reactor(Executor(store), sweep_seconds=config.sweep_seconds, reminders=config.reminders, queues=queues,
                      keep_cancelled=config.cancelled_keep_seconds)
    threading.Thread(target=reactor.run, args=(stop,), name="reactor", daemon=True).start()
    keeper = RatingKeeper(Executor(store), sweep_seconds=config.sweep_seconds, provisional_sigma=config.provisional_sigma)
    threading.Thread(target=keeper.run, args=(stop,), name="ratings", daemon=True).start()
    threading.Thread(target=run_outbox, args=(store.redis, queues, stop), name="outbox", daemon=True).start()
    try:
        work(queues, list(keys.WORKER_QUEUES))
    finally:
        stop.set()


if __name__ == "__main__":
    main()
