"""Appends that wait for replicas (MEEPLE_APPEND_REPLICAS), on a real Redis server that has none:
the move is written, answered 503 append_unconfirmed, and a retry with its key says the same
until a replica holds it."""

from __future__ import annotations

import pytest
import redis

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer, create, seat_all

pytestmark = pytest.mark.redis


def test_a_move_no_replica_confirms_is_written_and_answered_unconfirmed(real_redis: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(append_replicas=1, append_wait_ms=20), client=real_redis).test_client())
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    game = api.get(f"/v1/games/{game_id}").get_json()
    headers = bearer(tokens[game["to_move"][0]]) | {"Idempotency-Key": "draw-once"}
    first = api.post(f"/v1/games/{game_id}/commands", json={"type": "taki.draw"}, headers=headers)
    assert first.status_code == 503 and first.get_json()["code"] == "append_unconfirmed"
    written = api.get(f"/v1/games/{game_id}").get_json()["version"]
    assert first.get_json()["version"] == written > game["version"]  # it stands, unconfirmed
    again = api.post(f"/v1/games/{game_id}/commands", json={"type": "taki.draw"}, headers=headers)
    assert again.status_code == 503 and again.get_json()["version"] == written
    assert api.get(f"/v1/games/{game_id}").get_json()["version"] == written  # appended once
