"""The ratings on a real Redis Cluster: a result recorded by its script, folded under the lock
whose key the fold's transaction watches, and rebuilt, all within the `{ratings}` slot."""

from __future__ import annotations

import pytest

from application.ratings import Ratings
from application.results import Result
from bench.local_cluster import LocalCluster
from runtime import connections
from runtime.config import Config

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


def test_results_are_recorded_folded_and_rebuilt_on_the_cluster(cluster: LocalCluster) -> None:
    ratings = Ratings(connections.store_client(Config(redis_url=cluster.url, redis_cluster=True, queue_url="redis://127.0.0.1:1")))
    results = [Result(f"cluster-g{number}", "djambi", 1_000 + number, (("ann",), ("bo", "ai:greedy")), {}) for number in range(4)]
    for result in reversed(results):  # the later ones first: the earlier fold again from their place
        assert ratings.record(result) and not ratings.record(result)
        ratings.fold()
    live = ratings.current("djambi"), ratings.history("djambi", "ann")
    assert live[0]["ann"].games == 4 and len(live[1]) == 4
    assert ratings.rebuild(results, 0) == 4
    assert (ratings.current("djambi"), ratings.history("djambi", "ann")) == live
