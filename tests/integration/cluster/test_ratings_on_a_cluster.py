"""The ratings on a real Redis Cluster: a result recorded by its script, folded under the lock
whose key the fold's transaction watches, and rebuilt by a swap in one transaction keeping a
result recorded while the rebuild ran, the generation before deleted, all within the game's
`{ratings:<game>}` slot."""

from __future__ import annotations

import pytest

from application.ratings import Ratings
from bench.local_cluster import LocalCluster
from events import keys
from events.rating_rebuild import Rebuild
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
    with Rebuild(ratings, "djambi") as rebuilding:
        for result in results:
            rebuilding.add(result)
        rebuilding.swap(0)
    assert rebuilding.added == 4 and ratings.generation("djambi") == rebuilding.generation
    assert not ratings.redis.exists(keys.rating_now(keys.ratings_root("djambi")))  # the first generation's keys deleted
    assert (ratings.rating("djambi", "ann"), ratings.history("djambi", "ann"), ratings.opponents("djambi", "ann", 0, 10)) == live
    late = Result("cluster-late", "djambi", 999, (("bo",), ("ann",)), {})
    first = keys.ratings_root("djambi", rebuilding.generation)
    with Rebuild(ratings, "djambi") as rebuilding:
        for result in results:
            rebuilding.add(result)
        assert ratings.record(late)  # recorded into the live keys and the rebuild's, by one script in the slot
        rebuilding.swap(0)
    rating = ratings.rating("djambi", "ann")
    assert rating is not None and rating.games == 5 and ratings.history("djambi", "ann")[0][0].game_id == "cluster-late"
    assert not ratings.redis.exists(keys.rating_now(first), keys.rating_history(first, "ann"), keys.rating_results(first))  # deleted
    ratings.mark_swept(5, ratings.marks())  # each game's mark in its own slot, set where it is still as read
    assert set(ratings.marks().values()) == {5}
