"""Games waiting for their players over the API: seats given up, lobby times, cancelled games."""

from __future__ import annotations

import threading

import fakeredis
import pytest

from events import clock
from events.store import EventStore
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.sse import parse


@pytest.fixture
def store() -> EventStore:
    return EventStore(fakeredis.FakeRedis())


@pytest.fixture
def api(store: EventStore) -> ContractClient:
    return ContractClient(create_app(unlimited(lobby_seconds=600), client=store.redis).test_client())


def lobby(api: ContractClient, **settings: object) -> str:
    answer = api.post("/v1/games", json={"game": "taki", "seats": 3, **settings})
    assert answer.status_code == 201, answer.json
    return answer.json["id"]  # type: ignore[no-any-return]


def join(api: ContractClient, game_id: str, name: str, **headers: str) -> dict[str, object]:
    answer = api.post(f"/v1/games/{game_id}/join", json={"name": name}, headers=headers)
    assert answer.status_code == 201, answer.json
    return answer.json  # type: ignore[no-any-return]


def cancel(store: EventStore, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reactor's sweep, once the game's lobby time is up."""
    until = store.games.get(game_id).lobby_until
    assert until is not None
    monkeypatch.setattr(clock, "now", lambda: until)
    assert store.seats.cancel_lobby(game_id)
    monkeypatch.undo()


def test_a_game_waits_for_its_players_as_long_as_it_says_or_the_server_default(api: ContractClient) -> None:
    default, own = api.get(f"/v1/games/{lobby(api)}").json, api.get(f"/v1/games/{lobby(api, lobby_seconds=90)}").json
    null = api.get(f"/v1/games/{lobby(api, lobby_seconds=None)}").json
    assert default["lobby_until"] == default["created"] + 600_000 and null["lobby_until"] == null["created"] + 600_000
    assert own["lobby_until"] == own["created"] + 90_000
    for seconds in (0, 366 * 86400, "60", 1.5):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 3, "lobby_seconds": seconds})
        assert answer.status_code == 422 and "lobby_seconds" in answer.json["errors"]


def test_a_seat_given_up_can_be_taken_again_and_its_token_acts_for_nothing(api: ContractClient) -> None:
    game_id = lobby(api)
    ann, bo = join(api, game_id, "ann"), join(api, game_id, "bo")
    left = api.post(f"/v1/games/{game_id}/leave", headers=bearer(str(ann["token"])))
    assert left.status_code == 200
    assert [seat["name"] for seat in left.json["seats"]] == [None, "bo", None]
    again = api.post(f"/v1/games/{game_id}/leave", headers=bearer(str(ann["token"])))
    assert again.status_code == 401 and again.json["code"] == "unauthorized"
    assert api.post(f"/v1/games/{game_id}/leave").status_code == 401
    assert join(api, game_id, "cy")["seat"] == 0
    join(api, game_id, "di")  # the last seat: the game starts, its seats are fixed
    late = api.post(f"/v1/games/{game_id}/leave", headers=bearer(str(bo["token"])))
    assert late.status_code == 409 and (late.json["code"], late.json["reason"]) == ("cannot_leave", "started")
    assert api.get(f"/v1/games/{game_id}").json["status"] == "active"


def test_a_player_who_leaves_a_game_no_longer_finds_it_in_the_inbox(api: ContractClient) -> None:
    token = api.post("/v1/players", json={"name": "ann"}).json["token"]
    game_id, other = lobby(api), lobby(api)
    join(api, game_id, "ann", Authorization=f"Bearer {token}")
    join(api, other, "ann", Authorization=f"Bearer {token}")
    assert api.post(f"/v1/games/{game_id}/leave", headers=bearer(token)).status_code == 200
    assert [entry["game"]["id"] for entry in api.get("/v1/players/me/inbox", headers=bearer(token)).json["games"]] == [other]
    assert join(api, game_id, "ann", Authorization=f"Bearer {token}")["seat"] == 0  # and may come back


def test_a_cancelled_game_takes_no_one_and_no_command(
    api: ContractClient, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = api.post("/v1/players", json={"name": "ann"}).json["token"]
    game_id = lobby(api, lobby_seconds=60)
    seat_token = str(join(api, game_id, "ann", Authorization=f"Bearer {token}")["token"])
    cancel(store, game_id, monkeypatch)
    view = api.get(f"/v1/games/{game_id}", headers=bearer(seat_token)).json
    assert (view["status"], view["version"], view["you"]) == ("cancelled", 0, 0)
    late = api.post(f"/v1/games/{game_id}/join", json={"name": "bo"})
    assert late.status_code == 409 and (late.json["code"], late.json["reason"]) == ("seat_unavailable", "cancelled")
    command = api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(seat_token))
    assert command.status_code == 409 and command.json["code"] == "game_cancelled"
    leaving = api.post(f"/v1/games/{game_id}/leave", headers=bearer(seat_token))
    assert leaving.status_code == 409 and leaving.json["reason"] == "cancelled"
    assert api.get(f"/v1/games/{game_id}/stream").status_code == 204
    assert [game["id"] for game in api.get("/v1/games?status=cancelled").json["games"]] == [game_id]
    assert api.get("/v1/games?status=waiting").json["games"] == []
    inbox = api.get("/v1/players/me/inbox", headers=bearer(token)).json["games"]
    assert [(entry["game"]["status"], entry["your_turn"]) for entry in inbox] == [("cancelled", False)]


def test_the_stream_of_a_game_cancelled_while_watched_ends(store: EventStore) -> None:
    api = ContractClient(create_app(unlimited(stream_heartbeat_ms=50), client=store.redis).test_client())
    game_id = lobby(api, lobby_seconds=1)
    sweep = threading.Timer(1.1, store.seats.cancel_lobby, args=(game_id,))  # the reactor, once the second is up
    sweep.start()
    answer = api.get(f"/v1/games/{game_id}/stream")  # returns when the stream ends
    sweep.join()
    *_, end = parse(answer.get_data(as_text=True))
    assert end.event == "end" and end.data == {"version": 0, "status": "cancelled"}
