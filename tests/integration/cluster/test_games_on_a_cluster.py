"""Meeple on a real Redis Cluster: the HTTP game suites of all three games, races on one turn,
idempotent retries, AI seats and deadlines through the worker, live streams, export, import and
fork, and the store-wide keys spread over the masters."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest
import requests
from redis.cluster import RedisCluster

from bench.local_cluster import LocalCluster
from events import clock, keys
from events.envelope import Lifecycle
from events.errors import GameNotFound
from events.shards import Shards
from runtime import connections
from runtime.config import Config
from tests import sse
from tests.integration import test_http_games as on_a_server
from tests.integration.clients import Client, preferred

pytestmark = [pytest.mark.redis, pytest.mark.http, pytest.mark.cluster]

# the suites of a server on one Redis, run again on the cluster (conftest.py's `server`)
test_complete_taki_games = on_a_server.test_a_complete_game_over_http_replays_to_the_live_state
test_complete_games_of_each_game = on_a_server.test_complete_games_of_each_game_replay_to_the_live_state
test_twenty_racing_submissions_let_exactly_one_in = on_a_server.test_twenty_racing_submissions_of_one_turn_let_exactly_one_in
test_a_retried_command_is_answered_once = on_a_server.test_a_retried_command_is_answered_once


def finished(client: Client, game_id: str, seconds: float = 90) -> dict[str, Any]:
    """The game once it is over, waiting for it up to `seconds`."""
    deadline = time.monotonic() + seconds
    while (game := client.call("GET", f"/v1/games/{game_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, game
        time.sleep(0.2)
    return game


def test_ai_seats_play_their_games_to_the_end(client: Client) -> None:
    games = [client.call("POST", "/v1/games", json={
        "game": game, "seats": seats, "options": options,
        "bots": [{"seat": seat, "level": "greedy"} for seat in range(seats)]}).json()["id"]
        for game, seats, options in [("taki", 3, {}), ("djambi", 4, {}), ("bahama_taxi", 3, {"max_rounds": 8})]]
    for game_id in games:
        assert finished(client, game_id)["result"]["ranking"]


def test_a_deadline_passes_for_a_seat_nobody_plays(client: Client) -> None:
    game_id = client.call("POST", "/v1/games", json={
        "game": "taki", "seats": 2, "turn_deadline": {"seconds": 1, "policy": "forfeit"}}).json()["id"]
    for seat in range(2):
        client.call("POST", f"/v1/games/{game_id}/join", json={"name": f"p{seat}"})
    finished(client, game_id, seconds=30)
    assert any(event["actor"].startswith("deadline:") for event in client.all_events(game_id))


def test_a_game_and_an_inbox_are_followed_live(client: Client) -> None:
    ann = client.call("POST", "/v1/players", json={"name": "ann"}).json()["token"]
    game_id = client.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    tokens = [client.call("POST", f"/v1/games/{game_id}/join", ann, json={"name": "ann"}).json()["token"],
              client.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]]
    game = client.call("GET", f"/v1/games/{game_id}").json()
    seen: dict[str, list[sse.Message]] = {"game": [], "inbox": []}

    def follow(name: str, path: str, wanted: int) -> None:
        with requests.get(client.base + path, headers={"Authorization": f"Bearer {ann}"}, stream=True, timeout=30) as answer:
            for message in sse.messages(answer.iter_lines(decode_unicode=True)):
                seen[name].append(message)
                if len(seen[name]) == wanted:
                    return

    readers = [threading.Thread(target=follow, args=("game", f"/v1/games/{game_id}/stream?after={game['version']}", 1)),
               threading.Thread(target=follow, args=("inbox", "/v1/players/me/inbox/stream", 2))]
    for reader in readers:
        reader.start()
    time.sleep(1)  # both streams open
    seat = game["to_move"][0]
    moved = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json={"type": "taki.draw"}).json()
    for reader in readers:
        reader.join(timeout=20)
        assert not reader.is_alive()
    assert int(seen["game"][0].id or 0) == game["version"] + 1 == moved["events"][0]["version"]
    assert [message.event for message in seen["inbox"]] == ["inbox", "game"]
    assert seen["inbox"][1].data["game"]["id"] == game_id


def test_a_game_is_exported_imported_and_forked(client: Client) -> None:
    game_id, tokens = client.new_game(2)
    while (game := client.call("GET", f"/v1/games/{game_id}").json())["status"] == "active":
        seat = game["to_move"][0]
        legal = client.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()
        client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=preferred(legal["commands"])[0])
    played = client.all_events(game_id)
    log = client.call("GET", f"/v1/games/{game_id}/export").text
    imported = client.call("POST", "/v1/games/import", data=log.encode(),
                           headers={"Content-Type": "application/x-ndjson"}).json()
    assert [(e["version"], e["type"], e["payload"]) for e in client.all_events(imported["id"])] == \
        [(e["version"], e["type"], e["payload"]) for e in played]
    move_ends = [event["version"] for event, following in zip(played, played[1:])
                 if event["command_id"] != following["command_id"] and event["actor"].startswith("seat:")]
    at = move_ends[len(move_ends) // 2]
    forked = client.call("POST", f"/v1/games/{game_id}/fork", json={"version": at}).json()
    names = [seat["name"] for seat in client.call("GET", f"/v1/games/{game_id}").json()["seats"]]
    assert forked["forked_from"] == {"game_id": game_id, "version": at, "names": names}
    for seat in range(2):  # the fork opens with the game's events (hidden while it is played) once its seats are taken
        client.call("POST", f"/v1/games/{forked['id']}/join", json={"name": f"q{seat}"})
    assert [e["type"] for e in client.all_events(forked["id"])][:at] == [e["type"] for e in played[:at]]


def test_the_store_wide_keys_spread_over_the_masters(client: Client, cluster: LocalCluster) -> None:
    for _ in range(12):
        client.new_game(2)
    masters = Counter(cluster.master_of(keys.feed(shard)).port for shard in Shards.cluster().names)
    assert len(masters) == 3 and max(masters.values()) - min(masters.values()) <= 1
    store = RedisCluster(host="127.0.0.1", port=cluster.nodes[0].port)
    try:
        listed = {game["id"] for game in client.call("GET", "/v1/games?limit=100").json()["games"]}
        filed = {raw.decode() for shard in Shards.cluster().names for raw in store.zrange(keys.game_index(shard), 0, -1)}
        assert listed <= filed and len(listed) >= 12
        assert not store.exists(keys.feed("")) and not store.exists(keys.game_index(""))
    finally:
        store.close()


def test_the_store_itself_on_the_cluster(cluster: LocalCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    """What no HTTP suite reaches: a game discarded (a rematch that lost its race), and a cancelled
    lobby once its grace has passed, leave nothing."""
    config = Config(redis_url=cluster.url, redis_cluster=True, queue_url="redis://127.0.0.1:1")
    store = connections.event_store(config, connections.store_client(config))
    store.games.create("discarded", "taki", {}, 2)
    store.seats.claim("discarded", 0, "ann", "token-ann")
    store.games.discard("discarded")
    with pytest.raises(GameNotFound):
        store.games.get("discarded")
    assert all(not store.redis.zscore(keys.game_index(shard), "discarded") for shard in store.shards.names)
    store.games.create("cancelled", "taki", {}, 2, lobby_seconds=1, reserved={1: "p-cy"})
    store.redis.zadd(keys.player_games("p-cy"), {"cancelled": 1})
    monkeypatch.setattr(clock, "now", lambda: int(time.time() * 1000) + 2000)
    assert store.seats.cancel_lobby("cancelled")
    assert [r.id for r in store.games.page(None, Lifecycle.CANCELLED, None, 10)[0]] == ["cancelled"]
    assert store.games.purge("cancelled", lambda record: [])  # a cancelled lobby leaves nothing behind
    assert not [key for node in cluster.nodes for key in node.client.keys("*cancelled*")]
    assert store.redis.zrange(keys.player_games("p-cy"), 0, -1) == []
