"""A seat's token lasts no longer than the player token (the device's) that joined with it:
revoked, the device's seat tokens are refused everywhere a seat acts, while another device's seat
of the same player, an anonymous seat and the player's other tokens act as before; on fakeredis
and on a real Redis."""

from __future__ import annotations

import pytest
import redis

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited


@pytest.fixture
def api(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(), client=client).test_client())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seated(api: ContractClient, first: str | None) -> tuple[str, str, str]:
    """A TAKI game under way: its id, the token of seat 0 (joined with the player token `first`,
    if any) and of seat 1 (joined with none)."""
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    tokens = [api.post(f"/v1/games/{game_id}/join", json={"name": name}, headers=bearer(player) if player else {}).json["token"]
              for name, player in (("ann", first), ("bo", None))]
    return game_id, tokens[0], tokens[1]


def refusals(api: ContractClient, game_id: str, token: str) -> list[tuple[int, str]]:
    """How each thing a seat does is answered to `token`."""
    asked = [api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(token)),
             api.post(f"/v1/games/{game_id}/command-checks", json={"type": "draw"}, headers=bearer(token)),
             api.get(f"/v1/games/{game_id}", headers=bearer(token)),
             api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(token)),
             api.get(f"/v1/games/{game_id}/events", headers=bearer(token)),
             api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(token)),
             api.get(f"/v1/games/{game_id}/stream", headers=bearer(token))]
    return [(answer.status_code, answer.json["reason"]) for answer in asked]


def test_a_revoked_devices_seat_tokens_act_for_nothing(api: ContractClient) -> None:
    ann = api.post("/v1/players", json={"name": "ann", "device": "Laptop"}).json
    phone = api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=bearer(ann["token"])).json
    by_phone, phone_seat, anonymous = seated(api, phone["token"])
    by_laptop, laptop_seat, _ = seated(api, ann["token"])
    assert api.get(f"/v1/games/{by_phone}", headers=bearer(phone_seat)).json["you"] == 0
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(ann["token"])).status_code == 204
    assert refusals(api, by_phone, phone_seat) == [(401, "device_signed_out")] * 7
    refused = api.get(f"/v1/games/{by_phone}", headers=bearer(phone_seat))
    assert refused.headers["WWW-Authenticate"] == 'Bearer realm="meeple", error="invalid_token", error_description="device_signed_out"'
    assert "signed out" in refused.json["detail"]
    assert api.post(f"/v1/games/{by_laptop}/commands", json={"type": "draw"}, headers=bearer(laptop_seat)).status_code == 201
    assert api.post(f"/v1/games/{by_phone}/commands", json={"type": "draw"}, headers=bearer(ann["token"])).status_code == 201
    assert api.post(f"/v1/games/{by_phone}/commands", json={"type": "draw"}, headers=bearer(anonymous)).status_code == 201
    assert api.post("/v1/stream-tickets", json={"stream": "game", "game_id": by_phone},
                    headers=bearer(anonymous)).status_code == 201
