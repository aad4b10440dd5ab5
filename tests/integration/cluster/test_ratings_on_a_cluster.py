"""The ratings on a real Redis Cluster: a result recorded by its script, folded under the lock
whose key the fold's transaction watches, and rebuilt by a swap in one transaction, all within
the game's `{ratings:<game>}` slot."""

from __future__ import annotations

import pytest

from application.ratings import Ratings
from bench.local_cluster import LocalCluster
from events.ratings import Result
from runtime import connections
from runtime.config import Config

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


def test_results_are_recorded_folded_and_rebuilt_on_the_cluster(cluster: LocalCluster) -> None:
    ratings = Ratings(connections.store_client(Config(redis_url=cluster.url, redis_cluster=True, queue_url="redis://127.0.0.1:1")))
    results = [Result(f"cluster-g{number}", "djambi", 1_000 + number, (("ann",), ("bo", "ai:greedy")), {}) for number in range(4)]
    for result in reversed(results):  # the later ones first: the earlier fold again from their place
        assert ratings.record(result) and not ratings.record(result)
        ratings.fold("djambi")
    live = ratings.rating("djambi", "ann"), ratings.history("djambi", "ann"), ratings.opponents("djambi", "ann", 0, 10)
    assert live[0] is not None and live[0].games == 4 and live[1][1] == 4 and live[2][0] == 2
    assert ratings.rebuild("djambi", results, 0) == 4
    assert (ratings.rating("djambi", "ann"), ratings.history("djambi", "ann"), ratings.opponents("djambi", "ann", 0, 10)) == live
    ratings.mark_swept(5)  # each game's mark in its own slot
    assert ratings.swept() == 5
