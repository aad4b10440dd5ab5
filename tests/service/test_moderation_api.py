"""Keeping it civil through the API: reports of a game chat's messages and of private ones, the
admin's queue, hidden messages (kept, shown to the admin only), mutes, blocks in a game's chat, and
the problems of each refusal; on fakeredis and a real server."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import redis

import players.moderation
from events import keys
from runtime.config import Config
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_chat_api import ADMIN, api_on, say, table, texts
from tests.service.test_conversations_api import texts as private_texts
from tests.service.test_conversations_api import write
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register
from tests.sse import until


def report(api: ContractClient, path: str, token: str | None, reason: str = "Insults") -> object:
    return api.post(f"{path}/reports", json={"reason": reason}, headers=bearer(token) if token else {})


def queue(api: ContractClient, status: str = "open") -> list[dict[str, object]]:
    answer = api.get(f"/v1/admin/reports?status={status}", headers=bearer(ADMIN))
    assert answer.status_code == 200, answer.json
    return answer.json["reports"]  # type: ignore[no-any-return]


def decide(api: ContractClient, report_id: str, hide: bool) -> object:
    return api.post(f"/v1/admin/reports/{report_id}/decision", json={"hide": hide}, headers=bearer(ADMIN))


def test_a_reported_table_message_reaches_the_queue_and_hidden_leaves_every_seat(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    rude = say(api, game_id, "table", bo, "You fool").json
    say(api, game_id, "table", ann, "Now now")
    path = f"/v1/games/{game_id}/chat/table/messages/{rude['id']}"
    filed = report(api, path, ann)
    assert filed.status_code == 201 and filed.json["status"] == "open"
    assert report(api, path, register(api, "cy")["token"], "Rude to ann").status_code == 201  # a spectator reads it too
    [first, second] = queue(api)
    assert first["message"] == {"place": "game", "game_id": game_id, "room": "table", "players": None, "id": rude["id"],
                                "author": None, "name": "bo", "text": "You fool"}
    assert (first["reason"], second["reason"]) == ("Insults", "Rude to ann")
    decided = decide(api, first["id"], hide=True)
    assert decided.status_code == 200 and decided.json["status"] == "hidden"
    assert queue(api) == [] and {closed["status"] for closed in queue(api, "closed")} == {"hidden"}
    for reader in (ann, bo, None):
        assert texts(api, game_id, "table", reader) == ["Now now"]
    kept = api.get(f"/v1/games/{game_id}/chat/table", headers=bearer(ADMIN)).json["messages"]
    assert [(message["text"], message["hidden"]) for message in kept] == [("You fool", True), ("Now now", False)]
    assert decide(api, first["id"], hide=False).json["code"] == "report_closed"
    assert report(api, path, ann).json["code"] == "message_not_found"  # hidden: nobody reads it to report it


def test_a_dismissed_report_leaves_the_message(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    said = say(api, game_id, "table", bo, "Good game").json
    filed = report(api, f"/v1/games/{game_id}/chat/table/messages/{said['id']}", ann).json
    assert decide(api, filed["id"], hide=False).json["status"] == "dismissed"
    assert texts(api, game_id, "table", ann) == ["Good game"] and queue(api) == []


def test_a_reported_private_message_is_hidden_from_both_players(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    spam = write(api, bo["token"], ann["id"], "Buy gold").json
    write(api, ann["token"], bo["id"], "No")
    path = f"/v1/players/me/conversations/{bo['id']}/messages/{spam['id']}"
    filed = report(api, path, ann["token"], "Spam").json
    assert filed["message"] == {"place": "conversation", "game_id": None, "room": None,
                                "players": sorted([ann["id"], bo["id"]]), "id": spam["id"], "author": bo["id"],
                                "name": "bo", "text": "Buy gold"}
    decide(api, filed["id"], hide=True)
    assert private_texts(api, ann["token"], bo["id"]) == private_texts(api, bo["token"], ann["id"]) == ["No"]
    assert client.xlen(keys.conversation(ann["id"], bo["id"])) == 2  # kept, for the admin
    assert [report["message"]["text"] for report in queue(api, "closed")] == ["Buy gold"]  # type: ignore[index]
    cy = register(api, "cy")
    assert report(api, f"/v1/players/me/conversations/{ann['id']}/messages/{spam['id']}",
                  cy["token"]).json["code"] == "message_not_found"


def test_a_muted_player_is_told_until_when_and_writes_again_once_unmuted(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    me = api.get("/v1/players/me", headers=bearer(ann)).json
    cy = register(api, "cy")
    muted = api.put(f"/v1/admin/mutes/{me['id']}", json={"minutes": 60}, headers=bearer(ADMIN))
    assert muted.status_code == 200 and muted.json["player"] == me["id"]
    for refused in (say(api, game_id, "table", ann, "hi"), write(api, ann, cy["id"], "hi")):
        assert refused.status_code == 403 and refused.json["code"] == "muted"
        assert refused.json["until"] == muted.json["until"]
        at = datetime.fromtimestamp(muted.json["until"] / 1000, UTC)
        assert at.strftime("%Y-%m-%dT%H:%M:%SZ") in refused.json["detail"]
        assert f"{at.day} {at:%B %Y, %H:%M} UTC" in refused.json["detail"]
    assert say(api, game_id, "table", bo, "bo is not muted").status_code == 201
    assert api.delete(f"/v1/admin/mutes/{me['id']}", headers=bearer(ADMIN)).status_code == 204
    assert say(api, game_id, "table", ann, "back").status_code == 201
    assert api.delete(f"/v1/admin/mutes/{me['id']}", headers=bearer(ADMIN)).json["code"] == "mute_not_found"


def test_a_blocked_players_chat_is_hidden_to_the_blocker_only(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "options": {}}).json["id"]
    ann, bo = register(api, "ann"), register(api, "bo")
    for player in (ann, bo):
        api.post(f"/v1/games/{game_id}/join", json={"name": player["name"]}, headers=bearer(player["token"]))
    say(api, game_id, "table", bo["token"], "from bo")
    say(api, game_id, "table", ann["token"], "from ann")
    api.put(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(ann["token"]))
    assert texts(api, game_id, "table", ann["token"]) == ["from ann"]
    assert texts(api, game_id, "table", bo["token"]) == texts(api, game_id, "table") == ["from bo", "from ann"]


def test_only_the_admin_moderates_and_every_refusal_is_a_problem(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    said = say(api, game_id, "table", bo, "hello").json
    path = f"/v1/games/{game_id}/chat/table/messages/{said['id']}"
    for token, status, code in ((None, 401, "unauthorized"), (ann, 403, "admin_only")):
        refused = api.get("/v1/admin/reports", headers=bearer(token) if token else {})
        assert (refused.status_code, refused.json["code"]) == (status, code)
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert api.put("/v1/admin/mutes/x", json={"minutes": 1}, headers=bearer(token) if token else {}).status_code == status
    assert report(api, path, None).json["code"] == "unauthorized"
    for reason in ("", "x" * 501):
        assert report(api, path, ann, reason).json["code"] == "validation_error"
    assert report(api, f"/v1/games/{game_id}/chat/table/messages/1-0", ann).json["code"] == "message_not_found"
    assert report(api, f"/v1/games/{game_id}/chat/table/messages/nonsense", ann).status_code == 404
    assert report(api, f"/v1/games/{game_id}/chat/lounge/messages/{said['id']}", ann).json["code"] == "room_not_found"
    assert decide(api, "0" * 24, hide=True).json["code"] == "report_not_found"
    assert api.post("/v1/admin/reports/x/decision", json={"hide": "yes"}, headers=bearer(ADMIN)).status_code == 422
    assert api.get("/v1/admin/reports?status=all", headers=bearer(ADMIN)).status_code == 422
    for minutes in (0, 366 * 24 * 60 + 1, "60"):
        assert api.put("/v1/admin/mutes/x", json={"minutes": minutes}, headers=bearer(ADMIN)).status_code == 422
    assert api.put("/v1/admin/mutes/nobody", json={"minutes": 5}, headers=bearer(ADMIN)).json["code"] == "player_not_found"


def test_a_hidden_message_is_told_to_the_open_streams_of_those_who_read_its_room(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(admin_token=ADMIN, stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()  # a stream is read as it comes
    game_id, (ann, bo) = table(api)
    rude = say(api, game_id, "table", bo, "You fool").json
    seat = streams.get(f"/v1/games/{game_id}/stream", headers=bearer(ann), buffered=False)
    lines = iter(seat.response)
    next(lines)  # opened
    filed = report(api, f"/v1/games/{game_id}/chat/table/messages/{rude['id']}", ann)
    decide(api, filed.json["id"], hide=True)
    assert sent(lines, "chat_hidden") == {"id": rude["id"], "room": "table"}
    seat.close()


def test_a_client_that_was_away_reads_the_hides_since_its_last_read_with_the_messages_since(
        client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    rude, luck = (say(api, game_id, "table", bo, text).json["id"] for text in ("You fool", "Good luck"))  # type: ignore[index]
    first = api.get(f"/v1/games/{game_id}/chat/table", headers=bearer(ann)).json
    assert (first["hidden"], first["hides"]) == ([], "0-0")  # no hide asked for, and none made yet
    decide(api, report(api, f"/v1/games/{game_id}/chat/table/messages/{rude}", ann).json["id"], hide=True)  # type: ignore[attr-defined]
    later = say(api, game_id, "table", bo, "Sorry").json["id"]  # type: ignore[index]
    back = api.get(f"/v1/games/{game_id}/chat/table?after={luck}&hides_after={first['hides']}", headers=bearer(ann)).json
    assert [message["id"] for message in back["messages"]] == [later] and back["hidden"] == [rude]
    again = api.get(f"/v1/games/{game_id}/chat/table?after={later}&hides_after={back['hides']}", headers=bearer(ann)).json
    assert (again["messages"], again["hidden"], again["hides"]) == ([], [], back["hides"])  # told once
    spectators = api.get(f"/v1/games/{game_id}/chat/spectators?hides_after=0-0", headers=bearer(ADMIN)).json
    assert spectators["hidden"] == [] and spectators["hides"] == back["hides"]  # the table's hide is not this room's
    assert api.get(f"/v1/games/{game_id}/chat/table?hides_after=x", headers=bearer(ann)).status_code == 422


def sent(lines: object, kind: str) -> dict[str, object]:
    """The data of the stream's next message of `kind`, within 20 s."""
    chunk = ""
    for part in until(20, lines):  # type: ignore[arg-type]
        chunk += part.decode()
        while "\n\n" in chunk:
            message, chunk = chunk.split("\n\n", 1)
            if message.startswith(f"event: {kind}\n"):
                return json.loads(message.split("data: ", 1)[1])  # type: ignore[no-any-return]
    raise AssertionError(f"the stream ended without a {kind} message")


def test_a_spectators_stream_opened_as_their_player_applies_their_blocks(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(admin_token=ADMIN, stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id, (ann, bo) = table(api)
    cy = register(api, "cy")["token"]
    ann_id = api.get("/v1/players/me", headers=bearer(ann)).json["id"]
    api.put(f"/v1/players/me/blocks/{ann_id}", headers=bearer(cy))
    ticket = api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(cy))
    assert ticket.status_code == 201, ticket.json
    watching = streams.get(ticket.json["url"], buffered=False)
    lines = iter(watching.response)
    next(lines)  # opened
    say(api, game_id, "table", ann, "from ann")
    say(api, game_id, "table", bo, "from bo")
    assert sent(lines, "chat")["text"] == "from bo"  # the blocked seat's words are left out
    watching.close()


def test_a_muted_player_reports_nothing(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    me = api.get("/v1/players/me", headers=bearer(ann)).json
    cy = register(api, "cy")
    said = say(api, game_id, "table", bo, "hello").json
    private = write(api, cy["token"], me["id"], "hi").json
    until = api.put(f"/v1/admin/mutes/{me['id']}", json={"minutes": 60}, headers=bearer(ADMIN)).json["until"]
    for path in (f"/v1/games/{game_id}/chat/table/messages/{said['id']}",
                 f"/v1/players/me/conversations/{cy['id']}/messages/{private['id']}"):
        refused = report(api, path, ann)
        assert (refused.status_code, refused.json["code"], refused.json["until"]) == (403, "muted", until)
    assert queue(api) == []


def test_a_closed_report_stays_closed_when_its_message_is_reported_again(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    said = say(api, game_id, "table", bo, "Good game").json
    path = f"/v1/games/{game_id}/chat/table/messages/{said['id']}"
    decide(api, report(api, path, ann).json["id"], hide=False)
    again = report(api, path, ann, "Still rude")
    assert again.json["status"] == "dismissed" and again.json["reason"] == "Insults"
    assert queue(api) == []


def test_a_reason_of_spaces_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    said = say(api, game_id, "table", bo, "hello").json
    refused = report(api, f"/v1/games/{game_id}/chat/table/messages/{said['id']}", ann, " \t ")
    assert refused.status_code == 422 and refused.json["code"] == "validation_error"


def test_a_reporter_holds_a_bounded_number_of_open_reports(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(admin_token=ADMIN, open_reports_per_reporter=2), client=client).test_client())
    game_id, (ann, bo) = table(api)
    paths = [f"/v1/games/{game_id}/chat/table/messages/{say(api, game_id, 'table', bo, f'm{n}').json['id']}"
             for n in range(3)]
    first = report(api, paths[0], ann).json
    assert report(api, paths[1], ann).status_code == 201
    refused = report(api, paths[2], ann)
    assert refused.status_code == 409 and refused.json["code"] == "too_many_reports"
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert report(api, paths[1], ann, "again").status_code == 201  # one already open is no more
    decide(api, first["id"], hide=False)
    assert report(api, paths[2], ann).status_code == 201


def test_guests_of_many_games_from_one_address_hold_a_bounded_number_of_open_reports(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(admin_token=ADMIN, open_reports_per_address=2), client=client).test_client())
    filed, path, guest = [], "", ""
    for _ in range(3):  # a guest seat in each game, each a reporter of its own, all from one address
        game_id, (ann, guest) = table(api)
        path = f"/v1/games/{game_id}/chat/table/messages/{say(api, game_id, 'table', ann, 'hm').json['id']}"  # type: ignore[attr-defined]
        filed.append(report(api, path, guest))
    assert [answer.status_code for answer in filed] == [201, 201, 409]  # type: ignore[attr-defined]
    assert filed[2].json["code"] == "too_many_reports" and filed[2].json["limit"] == 2  # type: ignore[attr-defined]
    decide(api, filed[0].json["id"], hide=False)  # type: ignore[attr-defined]
    assert report(api, path, guest).status_code == 201  # type: ignore[attr-defined]  # a decided one makes room


def test_the_queue_reads_page_by_page(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(players.moderation, "QUEUE", 2)
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    for n in range(5):
        said = say(api, game_id, "table", bo, f"m{n}").json
        report(api, f"/v1/games/{game_id}/chat/table/messages/{said['id']}", ann)
    opened = every_page(api, "open")
    assert [found["message"]["text"] for found in opened] == ["m0", "m1", "m2", "m3", "m4"]  # type: ignore[index]
    for found in opened:
        decide(api, str(found["id"]), hide=False)
    assert sorted(found["message"]["text"] for found in every_page(api, "closed")) == ["m0", "m1", "m2", "m3", "m4"]  # type: ignore[index]


def every_page(api: ContractClient, status: str) -> list[dict[str, object]]:
    """The reports of `status`, read page by page."""
    seen: list[dict[str, object]] = []
    after = ""
    while True:
        page = api.get(f"/v1/admin/reports?status={status}{after}", headers=bearer(ADMIN)).json
        assert len(page["reports"]) <= 2
        seen += page["reports"]
        if page["next"] is None:
            return seen
        after = f"&after={page['next']}"


@pytest.mark.parametrize("token", ["short-token", "bWVlcGxlLWFkbWluLXRva2Vu+/==", "x" * 129, "admin token with spaces"])
def test_an_admin_token_no_request_could_carry_is_refused_at_start(token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_ADMIN_TOKEN", token)
    with pytest.raises(ValueError, match="MEEPLE_ADMIN_TOKEN is 16 to 128"):
        Config.from_env()
    monkeypatch.setenv("MEEPLE_ADMIN_TOKEN", ADMIN)
    assert Config.from_env().admin_token == ADMIN


def test_a_reported_player_reaches_the_queue_and_the_admin_dismisses_or_mutes_them(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    path = f"/v1/players/{bo['id']}"
    filed = report(api, path, ann["token"], "Abuses every table")
    assert filed.status_code == 201
    assert filed.json | {"id": "", "time": 0} == {"id": "", "time": 0, "reason": "Abuses every table", "status": "open",
                                                  "player": {"id": bo["id"], "name": "bo"}, "message": None}
    again = report(api, path, ann["token"], "Abuses every table he sits at")
    assert again.json["id"] == filed.json["id"] and again.json["reason"] == "Abuses every table he sits at"
    [queued] = queue(api)
    assert queued["player"] == {"id": bo["id"], "name": "bo"} and queued["message"] is None
    assert decide(api, queued["id"], hide=True).json["code"] == "nothing_to_hide"
    muted = api.put(f"/v1/admin/mutes/{bo['id']}", json={"minutes": 60}, headers=bearer(ADMIN))
    assert muted.status_code == 200
    assert write(api, bo["token"], ann["id"], "hello").json["code"] == "muted"
    assert decide(api, queued["id"], hide=False).json["status"] == "dismissed"
    assert queue(api) == [] and [closed["player"] for closed in queue(api, "closed")] == [{"id": bo["id"], "name": "bo"}]


def test_a_player_report_is_refused_as_a_problem(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = register(api, "ann")
    assert report(api, f"/v1/players/{ann['id']}", ann["token"]).json["code"] == "validation_error"  # oneself
    assert report(api, "/v1/players/nobody0000000000", ann["token"]).json["code"] == "player_not_found"
    for token, reason in ((None, "token_missing"), ("not-a-token-0000000000", "token_unknown")):
        refused = report(api, f"/v1/players/{register(api, 'bo' + reason[6:9])['id']}", token).json
        assert (refused["code"], refused["reason"]) == ("unauthorized", reason)


def test_a_message_id_with_a_trailing_newline_is_no_id(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    said = say(api, game_id, "table", bo, "You fool").json["id"]
    cy = register(api, "cy")
    assert write(api, ann, cy["id"], "hi").status_code == 201
    assert api.get(f"/v1/games/{game_id}/chat/table?after={said}%0A", headers=bearer(ann)).status_code == 422
    assert api.get(f"/v1/players/me/conversations/{cy['id']}?after=1-0%0A", headers=bearer(ann)).status_code == 422
    assert report(api, f"/v1/games/{game_id}/chat/table/messages/{said}%0A", ann).status_code == 404
    muted = api.put(f"/v1/admin/games/{game_id}/chat/table/messages/{said}%0A/mute", json={"minutes": 5}, headers=bearer(ADMIN))
    assert muted.status_code == 404
    assert api.get("/v1/admin/reports?after=1-0123456789abcdef01234567%0A", headers=bearer(ADMIN)).status_code == 422
