"""A seat's holder replaces the seat's token: the old one is refused at once, by every read and command
(a process's cached game too), and a stream it opened ends within a heartbeat; on fakeredis and a real Redis."""

from __future__ import annotations

import redis

from players.moderation import Mutes
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer, seat_all
from tests.sse import until


def test_a_seat_token_replaced_acts_no_more_and_its_stream_ends(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    old, other = seat_all(api, game_id, 2)
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(old)).json["commands"]  # seat 0 moves first
    opened = streams.get(f"/v1/games/{game_id}/stream", headers=bearer(old), buffered=False)
    lines = iter(opened.response)
    next(lines)

    answer = api.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(old))
    assert answer.status_code == 201 and answer.json["seat"] == 0
    new = answer.json["token"]
    assert new != old and api.get(f"/v1/games/{game_id}", headers=bearer(new)).json["you"] == 0
    refused = api.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=bearer(old))  # the process's cached game
    assert refused.status_code == 401 and refused.json["reason"] == "token_unknown"
    assert api.get(f"/v1/games/{game_id}", headers=bearer(old)).status_code == 401
    assert api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(old)).status_code == 401
    list(until(10, lines))  # the stream ends by itself, within a heartbeat of the token's replacement
    assert api.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=bearer(new)).status_code == 201

    for token, seat in ((old, 0), (other, 0), (new, 1)):  # gone, another seat's, or for another seat
        again = api.post(f"/v1/games/{game_id}/seats/{seat}/token", headers=bearer(token))
        assert again.status_code == 401 and again.json["reason"] == "token_unknown"
    assert api.post(f"/v1/games/{game_id}/seats/1/token").json["reason"] == "token_missing"
    assert api.post(f"/v1/games/{game_id}/seats/1/token", headers=bearer(other)).status_code == 201


def test_a_muted_guest_keeps_its_token(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(), client=client).test_client())
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    guest, _ = seat_all(api, game_id, 2)
    Mutes(client).mute(f"{game_id}:0", 4_102_444_800_000)  # a guest is muted as its seat
    answer = api.post(f"/v1/games/{game_id}/seats/0/token", headers=bearer(guest))
    assert answer.status_code == 403 and answer.json["code"] == "muted"
    assert api.get(f"/v1/games/{game_id}", headers=bearer(guest)).json["you"] == 0
