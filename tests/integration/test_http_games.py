"""Complete games over real HTTP, races, retries: a real server on a real Redis."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import requests

from domain import GAMES
from domain.core.codec import to_primitive
from domain.taki import TAKI
from tests.contract import check_http_response
from tests.integration.clients import Client, preferred

pytestmark = [pytest.mark.redis, pytest.mark.http]


@pytest.mark.parametrize("seats", [2, 4, 10])
def test_a_complete_game_over_http_replays_to_the_live_state(client: Client, seats: int) -> None:
    game_id, tokens = client.new_game(seats)
    chooser = random.Random(seats)
    game = client.call("GET", f"/v1/games/{game_id}").json()
    while game["status"] == "active":
        seat = chooser.choice(game["to_move"])
        legal = client.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()
        plays = [c for c in legal["commands"] if c["type"] == "taki.play"]
        command = chooser.choice(plays if plays and chooser.random() < 0.9 else legal["commands"])
        answer = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=command,
                             headers={"If-Match": f'"{legal["version"]}"'})
        assert answer.status_code == 201, answer.json()
        game = client.call("GET", f"/v1/games/{game_id}").json()
        assert game["version"] == answer.json()["version"]
    assert game["status"] == "finished" and game["result"]["ranking"]
    events = client.all_events(game_id)
    assert [e["version"] for e in events] == list(range(1, game["version"] + 1))
    options = TAKI.parse_options(game["options"], seats)
    replayed = TAKI.replay(options, seats, [TAKI.events.decode(e["type"], e["schema_version"], e["payload"]) for e in events])
    assert to_primitive(TAKI.view(replayed, None)) == game["table"]
    assert [list(place) for place in TAKI.status(replayed).ranking] == game["result"]["ranking"]


@pytest.mark.parametrize(("name", "seats", "options"), [
    ("djambi", 3, {}), ("djambi", 4, {}), ("bahama_taxi", 2, {"max_rounds": 60}), ("bahama_taxi", 4, {"max_rounds": 40}),
    ("bahama_taxi", 3, {"max_rounds": 30, "dice": True, "hand_size": 4, "unknown_destination": True}),
    ("bahama_taxi", 8, {"max_rounds": 15, "double_pickup": "together", "double_dropoff": "separately"}),
    ("bahama_taxi", 3, {"max_rounds": 20, "cabs_per_player": 2, "two_cab_mode": "both", "passengers_from_god": True}),
    ("bahama_taxi", 2, {"max_rounds": 60, "contraband": True}),
])
def test_complete_games_of_each_game_replay_to_the_live_state(client: Client, name: str, seats: int,
                                                              options: dict[str, Any]) -> None:
    game_id, tokens = client.new_game(seats, name, **options)
    chooser = random.Random(seats)
    game = client.call("GET", f"/v1/games/{game_id}").json()
    while game["status"] == "active":
        seat = game["to_move"][0]
        legal = client.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()
        command = chooser.choice(preferred(legal["commands"]))
        answer = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=command,
                             headers={"If-Match": f'"{legal["version"]}"'})
        assert answer.status_code == 201, answer.json()
        game = client.call("GET", f"/v1/games/{game_id}").json()
    assert game["status"] == "finished" and game["result"]["ranking"]
    rules = GAMES[name]
    events = client.all_events(game_id)
    assert [e["version"] for e in events] == list(range(1, game["version"] + 1))
    parsed = rules.parse_options(game["options"], seats)
    decoded = [rules.events.decode(e["type"], e["schema_version"], e["payload"]) for e in events]
    for version in (1, len(decoded) // 2, len(decoded)):
        at = client.call("GET", f"/v1/games/{game_id}/states/{version}").json()
        assert to_primitive(rules.view(rules.replay(parsed, seats, decoded[:version]), None)) == at["table"]
    replayed = rules.replay(parsed, seats, decoded)
    assert [list(place) for place in rules.status(replayed).ranking] == game["result"]["ranking"]


def test_twenty_racing_submissions_of_one_turn_let_exactly_one_in(client: Client) -> None:
    game_id, tokens = client.new_game(3)
    game = client.call("GET", f"/v1/games/{game_id}").json()
    token, version = tokens[game["to_move"][0]], game["version"]
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def submit() -> None:
        with requests.Session() as own:
            barrier.wait()
            answer = own.post(f"{client.base}/v1/games/{game_id}/commands", json={"type": "draw"}, timeout=30,
                              headers={"Authorization": f"Bearer {token}", "If-Match": f'"{version}"'})
            statuses.append(check_http_response(answer).status_code)

    threads = [threading.Thread(target=submit) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses.count(201) == 1 and all(status in (409, 412) for status in statuses if status != 201)
    events = client.all_events(game_id)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert sum(1 for e in events if e["type"] == "cards_drawn") == 1


def test_a_retried_command_is_answered_once(client: Client) -> None:
    game_id, tokens = client.new_game(2)
    seat = client.call("GET", f"/v1/games/{game_id}").json()["to_move"][0]
    headers = {"Idempotency-Key": "retry-me"}
    first = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json={"type": "draw"}, headers=dict(headers))
    again = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json={"type": "draw"}, headers=dict(headers))
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert client.call("GET", f"/v1/games/{game_id}").json()["version"] == first.json()["version"]
