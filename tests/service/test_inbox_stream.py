"""The inbox stream tells what the inbox would list now: an invitation to a game cancelled (its lobby
time passed with seats free) is `gone` from the stream as it is from the snapshot."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import redis

from events.store import EventStore
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


def next_message(chunks: Iterator[bytes | str]) -> tuple[str, dict[str, object]]:
    """The event and data of the stream's next message, past comments."""
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if "event: " in text:
            event = text.split("event: ", 1)[1].split("\n", 1)[0]
            return event, json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    raise AssertionError("the stream ended")


def test_an_invitation_to_a_cancelled_game_is_gone_from_stream_and_snapshot(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(stream_heartbeat_ms=200), client=client).test_client())
    host, guest = register(api, "hal"), register(api, "gus")
    made = api.post("/v1/games", headers=bearer(host["token"]), json={
        "game": "taki", "seats": 3, "lobby_seconds": 1, "reserved": [{"seat": 1, "player": guest["id"]}]})
    game = made.json["id"]
    answer = api.client.get("/v1/players/me/inbox/stream", headers=bearer(guest["token"]), buffered=False)
    chunks = iter(answer.response)
    event, snapshot = next_message(chunks)
    assert event == "inbox" and [entry["invitation"] for entry in snapshot["games"]] == [1]  # type: ignore[attr-defined]
    time.sleep(1.1)
    assert EventStore(client).seats.cancel_lobby(game)
    assert next_message(chunks) == ("gone", {"game_id": game})
    answer.close()
    assert api.get("/v1/players/me/inbox", headers=bearer(guest["token"])).json["games"] == []
