"""A stream lasts no longer than the player token it was opened with, or that the seat token it
was opened with was given to: revoked, the token's open streams (an inbox's, a game's, opened with
the token or with a ticket it asked for) end within about a heartbeat, and its reconnect is
refused; a stream of another token of the same player, or of an anonymous seat, goes on."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import requests

from tests.integration.clients import Client
from tests.integration.conftest import serving
from tests.sse import messages

pytestmark = [pytest.mark.redis, pytest.mark.http]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """A server whose streams beat twice a second."""
    with serving(tmp_path_factory.mktemp("serve-beat"), {"MEEPLE_STREAM_HEARTBEAT_MS": "500"}) as url, \
            requests.Session() as http:
        yield Client(http, url)


def opened(client: Client, path: str, token: str | None = None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = requests.get(f"{client.base}{path}", headers=headers, stream=True, timeout=30)
    assert answer.status_code == 200
    return answer


def ends(answer: requests.Response, seconds: float = 10) -> bool:
    """Whether the stream ends within `seconds` (heartbeats keep coming on one that does not)."""
    deadline = time.monotonic() + seconds
    for line in answer.iter_lines(decode_unicode=True):
        if time.monotonic() > deadline:
            return False
        assert not line.startswith("event: end")  # cut off, not a game over
    return True


def ticket(client: Client, token: str, **body: str) -> str:
    answer = client.call("POST", "/v1/stream-tickets", token, json=body)
    assert answer.status_code == 201
    return answer.json()["url"]  # type: ignore[no-any-return]


def test_the_streams_of_a_revoked_token_end_and_others_go_on(client: Client) -> None:
    ann = client.call("POST", "/v1/players", json={"name": "ann"}).json()
    phone = client.call("POST", "/v1/players/me/tokens", ann["token"], json={"name": "Phone"}).json()
    game_id = client.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    client.call("POST", f"/v1/games/{game_id}/join", ann["token"], json={"name": "ann"})
    client.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"})
    revoked = [opened(client, "/v1/players/me/inbox/stream", phone["token"]),
               opened(client, f"/v1/games/{game_id}/stream", phone["token"]),
               opened(client, ticket(client, phone["token"], stream="inbox")),
               opened(client, ticket(client, phone["token"], stream="game", game_id=game_id))]
    kept = opened(client, ticket(client, ann["token"], stream="inbox"))
    kept_messages = messages(kept.iter_lines(decode_unicode=True))
    assert next(kept_messages).event == "inbox"
    assert client.call("DELETE", f"/v1/players/me/tokens/{phone['id']}", ann["token"]).status_code == 204
    assert [ends(answer) for answer in revoked] == [True] * 4
    played = client.call("POST", f"/v1/games/{game_id}/commands", ann["token"], json={"type": "draw"})
    assert played.status_code == 201  # no longer ann's turn: her inbox tells it
    assert next(kept_messages).data["your_turn"] is False
    kept.close()
    refused = client.call("POST", "/v1/stream-tickets", phone["token"], json={"stream": "inbox"})
    assert refused.status_code == 401


def test_the_game_streams_of_a_revoked_devices_seat_token_end(client: Client) -> None:
    ann = client.call("POST", "/v1/players", json={"name": "ann"}).json()
    phone = client.call("POST", "/v1/players/me/tokens", ann["token"], json={"name": "Phone"}).json()
    game_id = client.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    seat = client.call("POST", f"/v1/games/{game_id}/join", phone["token"], json={"name": "ann"}).json()["token"]
    anonymous = client.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]
    revoked = [opened(client, f"/v1/games/{game_id}/stream", seat),
               opened(client, ticket(client, seat, stream="game", game_id=game_id))]
    kept = opened(client, ticket(client, anonymous, stream="game", game_id=game_id))
    kept_messages = messages(kept.iter_lines(decode_unicode=True))
    assert next(kept_messages).id == "1"
    assert client.call("DELETE", f"/v1/players/me/tokens/{phone['id']}", ann["token"]).status_code == 204
    assert [ends(answer) for answer in revoked] == [True] * 2
    played = client.call("POST", f"/v1/games/{game_id}/commands", ann["token"], json={"type": "draw"}).json()["version"]
    assert next(message for message in kept_messages if message.id == str(played)).data["version"] == played
    kept.close()
    refused = client.call("POST", "/v1/stream-tickets", seat, json={"stream": "game", "game_id": game_id})
    assert (refused.status_code, refused.json()["reason"]) == (401, "device_signed_out")
