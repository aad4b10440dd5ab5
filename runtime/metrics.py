"""`/metrics` in the Prometheus text format: what the API processes measure (commands by game
and outcome, append and request latencies), and what the store says when scraped (games by
status, queue depths, how late the deadlines run). Each API process writes its figures to
PROMETHEUS_MULTIPROC_DIR and a scrape adds them up (prometheus_client's multiprocess mode)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import cast

import redis
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from rq import Queue

from events import keys
from events.store import EventStore

LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

COMMANDS_ANSWERED = Counter("meeple_commands", "Commands answered, by game and outcome: accepted, or the problem code.",
                   ["game", "outcome"])
APPEND_SECONDS = Histogram("meeple_append_seconds", "Time to append a command's events to the game's stream.",
                           buckets=LATENCY)
REQUEST_SECONDS = Histogram("meeple_request_seconds", "Time to answer a request, by route and status.",
                            ["method", "route", "status"], buckets=LATENCY)


class StoreCollector(Collector):
    """Gauges read from the store and the queues at each scrape."""

    def __init__(self, store: EventStore, queues: redis.Redis) -> None:
        self.store = store
        self.queues = queues

    def collect(self) -> Iterator[GaugeMetricFamily]:
        games = GaugeMetricFamily("meeple_games", "Games by status.", labels=["status"])
        for status, count in sorted(self.store.games.count_by_status().items()):
            games.add_metric([status], count)
        yield games
        depths = GaugeMetricFamily("meeple_queue_depth", "Jobs waiting in each worker queue.", labels=["queue"])
        for name in keys.WORKER_QUEUES:
            depths.add_metric([name], Queue(name, connection=self.queues).count)
        yield depths
        deadlines = Queue(keys.DEADLINE_QUEUE, connection=self.queues).scheduled_job_registry
        # the registry is scored by when each job is due
        oldest = cast(list[tuple[bytes, float]], self.queues.zrange(deadlines.key, 0, 0, withscores=True))
        lag = max(0.0, time.time() - oldest[0][1]) if oldest else 0.0
        yield GaugeMetricFamily("meeple_deadline_lag_seconds",
                                "How long the most overdue deadline has waited past its time to be applied.", value=lag)


def exposition(store: EventStore, queues: redis.Redis) -> bytes:
    """The text a scrape gets."""
    registry = CollectorRegistry()
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        multiprocess.MultiProcessCollector(registry)
    else:
        for metric in (COMMANDS_ANSWERED, APPEND_SECONDS, REQUEST_SECONDS):
            registry.register(metric)
    registry.register(StoreCollector(store, queues))
    return generate_latest(registry)
