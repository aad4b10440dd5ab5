"""A master of the cluster killed (kill -9) while games are played over HTTP: its replica takes
over, the dead node comes back as a replica, and every game ends. With the replica wait on
(MEEPLE_APPEND_REPLICAS=1) no command answered 201 is lost; with it off the test says how many
were."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests

from bench.local_cluster import LocalCluster
from events import keys
from runtime.embedded import EmbeddedRedis
from tests.integration.clients import Client
from tests.integration.cluster.conftest import cluster_settings
from tests.integration.conftest import serving
from tests.integration.test_faults import Player

pytestmark = [pytest.mark.redis, pytest.mark.http, pytest.mark.cluster]


def lost_answers(base: str, players: list[Player]) -> int:
    """How many events answered 201 are not in their game's log as they were answered."""
    lost = 0
    with requests.Session() as http:
        for player in players:
            stored = {event["version"]: (event["command_id"], event["type"])
                      for event in Client(http, base).all_events(player.game_id)}
            lost += sum(1 for answer in player.accepted for event in answer["events"]
                        if stored.get(event["version"]) != (event["command_id"], event["type"]))
    return lost


@pytest.mark.parametrize("replicas", [1, 0], ids=["replica-wait", "no-wait"])
def test_a_master_killed_loses_no_acknowledged_move_with_the_replica_wait(tmp_path: Path, replicas: int) -> None:
    with LocalCluster(masters=3, replicas=1) as cluster, EmbeddedRedis(tmp_path / "queues") as queues, \
            serving(tmp_path, cluster_settings(cluster, queues, MEEPLE_SWEEP_SECONDS="1",
                                               MEEPLE_APPEND_REPLICAS=str(replicas), MEEPLE_APPEND_WAIT_MS="250")) as base:
        players = [Player(base, "taki", 2, {}) for _ in range(4)] + [Player(base, "bahama_taxi", 2, {"max_rounds": 10})]
        bots = [requests.post(f"{base}/v1/games", timeout=10, json={
            "game": "taki", "seats": 2, "bots": [{"seat": seat, "level": "greedy"} for seat in range(2)]}).json()["id"]
            for _ in range(2)]
        for player in players:
            player.start()
        time.sleep(2)
        victim = cluster.master_of(keys.meta(players[0].game_id))
        victim.kill()
        started = time.monotonic()
        while not cluster.healthy():  # a replica took over
            assert time.monotonic() - started < 30, "no replica took over"
            time.sleep(0.2)
        took_over = time.monotonic() - started
        victim.start()  # back, as the new master's replica
        for player in players:
            player.join(timeout=240)
            assert not player.is_alive() and player.error is None, player.error
        for game_id in bots:
            deadline = time.monotonic() + 180
            while (game := requests.get(f"{base}/v1/games/{game_id}", timeout=10).json())["status"] != "finished":
                assert time.monotonic() < deadline, (game_id, game["status"], game["version"], game["to_move"])
                time.sleep(0.5)
        lost = lost_answers(base, players)
        accepted = sum(len(player.accepted) for player in players)
        print(f"replica wait {'on' if replicas else 'off'}: {lost} of {accepted} acknowledged moves' events lost; "
              f"a replica took over in {took_over:.1f} s")
        assert accepted > 50
        if replicas:
            assert lost == 0
