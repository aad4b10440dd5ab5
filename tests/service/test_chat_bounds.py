"""What bounds a game's chat against a hostile client: the messages a room holds, the time after the game's
end it is written, the messages one client address sends, the players one address registers, and a
guest's seat muted through a message it wrote; on fakeredis and a real server."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from events import clock, keys
from events.chat import START, ChatStore
from events.errors import RoomFull
from runtime.config import Config, Rate
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_chat_api import ADMIN, end, say, table, texts
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


def api_with(client: redis.Redis, **settings: object) -> ContractClient:  # type: ignore[type-arg]
    config = unlimited(admin_token=ADMIN, trusted_proxies=1, **settings)
    return ContractClient(create_app(config, client=client).test_client())


def test_a_room_holds_its_bound_and_is_read_past_it(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client, chat_messages_per_room=3)
    game_id, (ann, bo) = table(api)
    for n, seat in enumerate((ann, bo, ann)):
        assert say(api, game_id, "table", seat, f"message {n}").status_code == 201
    full = say(api, game_id, "table", bo, "one more")
    assert (full.status_code, full.json["code"], full.json["limit"]) == (409, "room_full", 3)
    assert texts(api, game_id, "table") == ["message 0", "message 1", "message 2"]
    assert say(api, game_id, "spectators", register(api, "cy")["token"], "the other room").status_code == 201


def test_writers_at_once_never_take_a_room_past_its_bound(client: redis.Redis) -> None:  # type: ignore[type-arg]
    chat = ChatStore(client, client, per_room=5)

    def write(n: int) -> bool:
        try:
            chat.add("g1", "table", f"message {n}", "ann", 0, None, 1)
        except RoomFull:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        written = list(pool.map(write, range(40)))
    assert written.count(True) == 5 and len(chat.page("g1", "table", "0-0", 100)) == 5


def test_a_finished_games_chat_closes_to_writing_and_stays_readable(client: redis.Redis,  # type: ignore[type-arg]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    api = api_with(client, chat_seconds_after_end=3600)
    game_id, (ann, bo) = table(api)
    cy = register(api, "cy")["token"]
    before = clock.now()
    end(api, game_id, bo)
    ended = clock.now()
    assert say(api, game_id, "table", ann, "Good game").status_code == 201  # an hour to say so
    monkeypatch.setattr(clock, "now", lambda: ended + 3_600_000 + 1000)
    for room, token in (("table", ann), ("table", bo), ("spectators", cy)):
        closed = say(api, game_id, room, token, "too late")
        assert (closed.status_code, closed.json["code"]) == (409, "chat_closed")
        assert before <= closed.json["closed"] - 3_600_000 <= ended
    assert texts(api, game_id, "table", bo) == ["Good game"]


def test_a_game_in_play_never_closes(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    api = api_with(client, chat_seconds_after_end=1)
    game_id, (ann, _) = table(api)
    monkeypatch.setattr(clock, "now", lambda: 2**41)
    assert say(api, game_id, "table", ann, "still here").status_code == 201


def test_one_client_address_sends_a_bounded_number_of_messages_whoever_writes(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client, chat_per_address=Rate(3, 60))
    game_id, (ann, bo) = table(api)
    here = {"X-Forwarded-For": "192.0.2.7"}

    def from_here(token: str, text: str) -> object:
        return api.post(f"/v1/games/{game_id}/chat/table", json={"text": text}, headers=bearer(token) | here)

    sent = [from_here(token, "hi") for token in (ann, bo, ann)]
    assert [answer.status_code for answer in sent] == [201, 201, 201]  # type: ignore[attr-defined]
    assert '"chat-address";q=3;w=60' in sent[-1].headers["RateLimit-Policy"]  # type: ignore[attr-defined]
    refused = from_here(bo, "and one more")
    assert (refused.status_code, refused.json["code"], refused.json["limit"]) == (429, "chat_limited", 3)  # type: ignore[attr-defined]
    assert "client address" in refused.json["detail"]  # type: ignore[attr-defined]
    assert say(api, game_id, "table", bo, "from elsewhere").status_code == 201


def test_one_client_address_registers_a_bounded_number_of_players(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client, registrations_per_address=(Rate(2, 3600), Rate(3, 86400)))

    def register_from(address: str, body: object) -> object:
        return api.post("/v1/players", json=body, headers={"X-Forwarded-For": address})

    assert register_from("192.0.2.7", {"name": ""}).status_code == 422  # a refused body counts for nothing
    first = register_from("192.0.2.7", {"name": "ann"})
    assert first.status_code == 201  # type: ignore[attr-defined]
    assert first.headers["RateLimit-Policy"] == '"registrations-3600";q=2;w=3600, "registrations-86400";q=3;w=86400'  # type: ignore[attr-defined]
    assert register_from("192.0.2.7", {"name": "bo"}).status_code == 201  # type: ignore[attr-defined]
    refused = register_from("192.0.2.7", {"name": "cy"})
    assert (refused.status_code, refused.json["code"], refused.json["limit"]) == (429, "registration_limited", 2)  # type: ignore[attr-defined]
    assert int(refused.headers["Retry-After"]) > 0  # type: ignore[attr-defined]
    assert register_from("192.0.2.8", {"name": "cy"}).status_code == 201  # type: ignore[attr-defined]


def test_registrations_are_bounded_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Config().registrations_per_address == (Rate(10, 3600), Rate(30, 86400))
    monkeypatch.setenv("MEEPLE_REGISTRATIONS_PER_ADDRESS", "off")
    assert Config.from_env().registrations_per_address == ()
    monkeypatch.setenv("MEEPLE_REGISTRATIONS_PER_ADDRESS", "5/60, 20/3600")
    assert Config.from_env().registrations_per_address == (Rate(5, 60), Rate(20, 3600))
    monkeypatch.setenv("MEEPLE_CHAT_MESSAGES_PER_ROOM", "0")
    with pytest.raises(ValueError, match="MEEPLE_CHAT_MESSAGES_PER_ROOM"):
        Config.from_env()


def test_the_admin_mutes_a_guest_through_a_message_they_wrote(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client)
    game_id, (ann, guest) = table(api)  # the second seat was taken without a player
    rude = say(api, game_id, "table", guest, "You fool").json
    path = f"/v1/games/{game_id}/chat/table/messages/{rude['id']}"  # type: ignore[index]
    muted = api.put(f"/v1/admin/{path.removeprefix('/v1/')}/mute", json={"minutes": 60}, headers=bearer(ADMIN))
    assert muted.status_code == 200 and muted.json | {"until": 0} == {"player": None, "seat": 1, "until": 0}
    refused = say(api, game_id, "table", guest, "You fool again")
    assert (refused.status_code, refused.json["code"], refused.json["until"]) == (403, "muted", muted.json["until"])  # type: ignore[attr-defined]
    reported = api.post(f"/v1/games/{game_id}/chat/table/messages/{rude['id']}/reports", json={"reason": "x"},  # type: ignore[index]
                        headers=bearer(guest))
    assert reported.json["code"] == "muted"
    assert say(api, game_id, "table", ann, "ann is not muted").status_code == 201
    lifted = f"/v1/admin/{path.removeprefix('/v1/')}/mute"
    assert api.delete(lifted, headers=bearer(ADMIN)).status_code == 204
    assert say(api, game_id, "table", guest, "sorry").status_code == 201
    assert api.delete(lifted, headers=bearer(ADMIN)).json["code"] == "mute_not_found"


def test_muting_a_players_message_mutes_the_player(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client)
    game_id, (ann, _) = table(api)
    said = say(api, game_id, "table", ann, "hm").json
    muted = api.put(f"/v1/admin/games/{game_id}/chat/table/messages/{said['id']}/mute", json={"minutes": 5},  # type: ignore[index]
                    headers=bearer(ADMIN))
    assert muted.json["player"] == said["player_id"] and muted.json["seat"] == 0  # type: ignore[index]
    assert say(api, game_id, "table", ann, "again").json["code"] == "muted"
    assert api.delete(f"/v1/admin/mutes/{said['player_id']}", headers=bearer(ADMIN)).status_code == 204  # type: ignore[index]


def test_only_the_admin_mutes_a_writer_and_only_of_a_message_there(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client)
    game_id, (ann, _) = table(api)
    said = say(api, game_id, "table", ann, "hm").json
    path = f"/v1/admin/games/{game_id}/chat/table/messages/{said['id']}/mute"  # type: ignore[index]
    assert api.put(path, json={"minutes": 5}, headers=bearer(ann)).json["code"] == "admin_only"
    assert api.put(path, json={"minutes": 5}).status_code == 401
    for missing in ("1-0", "nonsense"):
        assert api.put(path.replace(said["id"], missing), json={"minutes": 5},  # type: ignore[index]
                       headers=bearer(ADMIN)).json["code"] == "message_not_found"
    assert api.put(path.replace("/table/", "/lounge/"), json={"minutes": 5}, headers=bearer(ADMIN)).status_code == 404
    assert api.put(path, json={"minutes": 0}, headers=bearer(ADMIN)).status_code == 422


def test_hiding_a_message_hides_it_in_its_own_room_only(client: redis.Redis) -> None:  # type: ignore[type-arg]
    chat = ChatStore(client, client)
    said = chat.add("g1", "table", "You fool", "bo", 1, None, 3)
    client.xadd(keys.chat("g1", "spectators"), {"t": "Nice move", "n": "cy", "s": "", "p": "cy-id", "v": 3}, id=said.id)
    chat.hide("g1", "table", said.id)
    assert [(m.text, m.hidden) for m in chat.page("g1", "table", START, 10)] == [("You fool", True)]
    assert [(m.text, m.hidden) for m in chat.page("g1", "spectators", START, 10)] == [("Nice move", False)]
    assert chat.message("g1", "spectators", said.id) == chat.page("g1", "spectators", START, 10)[0]
    assert chat.message("g1", "table", said.id).hidden  # type: ignore[union-attr]


def test_a_guest_with_a_new_token_is_the_same_guest_for_its_quota_reports_and_mute(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_with(client, chat_per_minute=2)
    game_id, (ann, guest) = table(api)
    said = [say(api, game_id, "table", each, "hm").json["id"] for each in (ann, guest, guest)]  # type: ignore[index]
    fresh = api.post(f"/v1/games/{game_id}/seats/1/token", headers=bearer(guest)).json["token"]
    assert say(api, game_id, "table", fresh, "a third").json["code"] == "chat_limited"  # type: ignore[attr-defined]
    api = api_with(client, open_reports_per_reporter=1)
    assert api.post(f"/v1/games/{game_id}/chat/table/messages/{said[0]}/reports", json={"reason": "x"},
                    headers=bearer(fresh)).status_code == 201
    newer = api.post(f"/v1/games/{game_id}/seats/1/token", headers=bearer(fresh)).json["token"]
    again = say(api, game_id, "table", ann, "another").json["id"]  # type: ignore[index]
    refused = api.post(f"/v1/games/{game_id}/chat/table/messages/{again}/reports", json={"reason": "x"}, headers=bearer(newer))
    assert refused.json["code"] == "too_many_reports"  # its open report counts, whatever token filed it
    muted = api.put(f"/v1/admin/games/{game_id}/chat/table/messages/{said[1]}/mute", json={"minutes": 5}, headers=bearer(ADMIN))
    assert muted.status_code == 200 and muted.json["seat"] == 1
    assert say(api, game_id, "table", newer, "still me").json["code"] == "muted"  # type: ignore[attr-defined]
