"""A tournament's store on a real Redis Cluster: each transaction keeps to the tournament's own
keys, and the global indexes and the players' lists follow (no transaction spans slots)."""

from __future__ import annotations

import pytest

from bench.local_cluster import LocalCluster
from events import clock
from events.envelope import DeadlinePolicy, TurnDeadline
from events.tournaments import Entrant, Entry, Format, Stage, TournamentRecord, Tournaments
from runtime import connections
from runtime.config import Config

pytestmark = [pytest.mark.redis, pytest.mark.cluster]


def test_a_tournament_signs_up_starts_and_ends_on_the_cluster(cluster: LocalCluster) -> None:
    config = Config(redis_url=cluster.url, redis_cluster=True, queue_url="redis://127.0.0.1:1")
    tournaments = Tournaments(connections.store_client(config))
    record = TournamentRecord("clustercup", "Cup", "taki", {}, 2, Format.ROUND_ROBIN,
                              TurnDeadline(60, DeadlinePolicy.FORFEIT), clock.now() + 60_000, "boss")
    tournaments.create(record)
    assert tournaments.enter(record.id, Entrant("p-ann", "ann", clock.now()), 64) is Entry.DONE
    assert tournaments.enter(record.id, Entrant("p-bo", "bo", clock.now()), 64) is Entry.DONE
    assert tournaments.leave(record.id, "p-bo") is Entry.DONE
    assert tournaments.of_player("p-ann", 10)[0] == [record.id] and tournaments.of_player("p-bo", 10)[0] == []
    tournaments.begin(record.id)
    assert record.id in tournaments.running() and record.id not in tournaments.due(clock.now() + 10**9)
    tournaments.end(record.id, Stage.FINISHED)
    assert tournaments.get(record.id).stage is Stage.FINISHED and record.id not in tournaments.running()  # type: ignore[union-attr]
