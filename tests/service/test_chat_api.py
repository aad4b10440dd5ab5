"""A game's chat through the API: its two rooms, who reads and writes each, its bounds, a seat's notes,
mentions mailed, and the chat's messages on the game's stream; on fakeredis and a real server."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
import redis

from application.outbox import Mail
from events import keys
from events.envelope import GameRecord
from events.records import GameRecords
from service import limits
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register
from tests.sse import until

ADMIN = "admin-token-0123456789"


def api_on(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(admin_token=ADMIN), client=client).test_client())


def table(api: ContractClient, **settings: object) -> tuple[str, list[str]]:
    """A two-seat TAKI game under way, and its seats' tokens (the first a registered player's, named ann)."""
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "options": {}, **settings}).json["id"]
    ann = register(api, "ann")["token"]
    assert api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(ann)).status_code == 201
    bo = api.post(f"/v1/games/{game_id}/join", json={"name": "bo"}).json["token"]
    return game_id, [ann, bo]


def say(api: ContractClient, game_id: str, room: str, token: str | None, text: str) -> object:
    return api.post(f"/v1/games/{game_id}/chat/{room}", json={"text": text}, headers=bearer(token) if token else {})


def texts(api: ContractClient, game_id: str, room: str, token: str | None = None) -> list[str]:
    answer = api.get(f"/v1/games/{game_id}/chat/{room}", headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.json
    return [message["text"] for message in answer.json["messages"]]


def end(api: ContractClient, game_id: str, token: str) -> None:
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(token)).status_code == 201


def test_the_seats_talk_at_the_table_and_everyone_reads_it(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    written = say(api, game_id, "table", ann, "Sorry, travelling till Friday")
    assert written.status_code == 201
    assert written.json | {"id": "", "time": 0} == {"id": "", "time": 0, "room": "table", "text": "Sorry, travelling till Friday",
                                                   "name": "ann", "seat": 0, "player_id": written.json["player_id"],
                                                   "version": api.get(f"/v1/games/{game_id}").json["version"], "hidden": False}
    assert say(api, game_id, "table", bo, "No hurry").json["seat"] == 1
    assert texts(api, game_id, "table", bo) == texts(api, game_id, "table") == ["Sorry, travelling till Friday", "No hurry"]
    assert not client.exists(keys.chat(game_id, "spectators"))
    assert all(b"chat" not in str(e).encode() for e in api.get(f"/v1/games/{game_id}/events").json["events"])


def test_the_spectators_room_is_closed_to_the_seats_until_the_game_is_over(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    cy = register(api, "cy")["token"]
    assert say(api, game_id, "spectators", cy, "ann will win").status_code == 201
    for seat in (ann, bo):
        refused = api.get(f"/v1/games/{game_id}/chat/spectators", headers=bearer(seat))
        assert refused.status_code == 403 and refused.json["code"] == "room_closed"
        assert say(api, game_id, "spectators", seat, "hello").json["code"] == "seated"
    assert say(api, game_id, "table", cy, "psst").json["code"] == "not_seated"
    assert say(api, game_id, "spectators", None, "anonymous").status_code == 401
    assert texts(api, game_id, "spectators", cy) == texts(api, game_id, "spectators", ADMIN) == ["ann will win"]
    unsigned = api.get(f"/v1/games/{game_id}/chat/spectators")  # a seat leaving out its token, or anyone
    assert unsigned.status_code == 403 and unsigned.json["code"] == "not_registered"
    end(api, game_id, bo)
    assert texts(api, game_id, "spectators", ann) == texts(api, game_id, "spectators", bo) == ["ann will win"]
    assert texts(api, game_id, "spectators") == ["ann will win"]


def test_a_seats_notes_are_its_own(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    cy = register(api, "cy")["token"]
    notes = f"/v1/games/{game_id}/seats/0/notes"
    assert api.get(notes, headers=bearer(ann)).json == {"seat": 0, "text": ""}
    assert api.put(notes, json={"text": "Keep the +2 for bo"}, headers=bearer(ann)).status_code == 200
    assert api.get(notes, headers=bearer(ann)).json["text"] == "Keep the +2 for bo"
    for other in (bearer(bo), bearer(cy), bearer(ADMIN)):
        for answer in (api.get(notes, headers=other), api.put(notes, json={"text": "mine now"}, headers=other)):
            assert answer.status_code == 403 and answer.json["code"] == "not_your_notes"
    assert api.get(notes).status_code == api.put(notes, json={"text": "mine now"}).status_code == 401
    end(api, game_id, bo)
    assert api.get(notes, headers=bearer(bo)).status_code == 403  # over or not
    assert api.get(notes, headers=bearer(ann)).json["text"] == "Keep the +2 for bo"


def test_a_seats_notes_leave_with_its_holder(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "options": {}}).json["id"]
    ann = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}).json["token"]
    notes = f"/v1/games/{game_id}/seats/0/notes"
    assert api.put(notes, json={"text": "bo bluffs"}, headers=bearer(ann)).status_code == 200
    assert api.post(f"/v1/games/{game_id}/leave", headers=bearer(ann)).status_code == 200
    cy = api.post(f"/v1/games/{game_id}/join", json={"name": "cy"}).json
    assert cy["seat"] == 0
    assert api.get(notes, headers=bearer(cy["token"])).json == {"seat": 0, "text": ""}


def test_a_signed_out_devices_seat_token_is_told_so_by_the_chat(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = register(api, "ann")
    phone = api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=bearer(ann["token"])).json
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "options": {}}).json["id"]
    seat = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(phone["token"])).json["token"]
    api.post(f"/v1/games/{game_id}/join", json={"name": "bo"})
    said = say(api, game_id, "table", seat, "back soon").json
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(ann["token"])).status_code == 204
    notes = f"/v1/games/{game_id}/seats/0/notes"
    asked = [api.get(f"/v1/games/{game_id}/chat/table", headers=bearer(seat)), say(api, game_id, "table", seat, "hi"),
             api.get(notes, headers=bearer(seat)), api.put(notes, json={"text": "plan"}, headers=bearer(seat)),
             api.post(f"/v1/games/{game_id}/chat/table/messages/{said['id']}/reports", json={"reason": "rude"},
                      headers=bearer(seat))]
    assert [(answer.status_code, answer.json["reason"]) for answer in asked] == [(401, "device_signed_out")] * 5


def test_what_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, _) = table(api)
    for text in ("", "   \n", "x" * 501, "\ud800"):
        answer = api.post(f"/v1/games/{game_id}/chat/table", data=json.dumps({"text": text}),
                          content_type="application/json", headers=bearer(ann))
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", text
    assert say(api, game_id, "table", ann, "x" * 500).status_code == 201
    assert say(api, game_id, "lounge", ann, "hi").json["code"] == "room_not_found"
    assert api.get(f"/v1/games/{game_id}/chat/table?after=yesterday").status_code == 422
    assert api.get(f"/v1/games/{game_id}/chat/table?limit=101").status_code == 422
    silent, (seat, other) = table(api, chat=False)
    assert api.get(f"/v1/games/{silent}").json["chat"] is False and api.get(f"/v1/games/{game_id}").json["chat"] is True
    assert say(api, silent, "table", seat, "hi").json["code"] == "chat_off"
    assert api.get(f"/v1/games/{silent}/chat/table").json["code"] == "chat_off"
    end(api, silent, other)
    rematch = api.post(f"/v1/games/{silent}/rematch", headers=bearer(seat)).json["id"]  # as silent as its original
    assert api.get(f"/v1/games/{rematch}/chat/table").json["code"] == "chat_off"
    assert api.get(f"/v1/games/{rematch}").json["chat"] is False


def test_the_hundred_and_first_message_in_a_minute_is_refused(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: 1_800_000_030.0))  # mid-minute: one window throughout
    api = api_on(client)
    game_id, (ann, _) = table(api)
    for n in range(100):
        answer = say(api, game_id, "table", ann, f"message {n}")
        assert answer.status_code == 201, answer.json
    assert '"chat";q=100;w=60' in answer.headers["RateLimit-Policy"] and '"chat";r=0;' in answer.headers["RateLimit"]
    refused = say(api, game_id, "table", ann, "one more")
    assert refused.status_code == 429 and refused.json["code"] == "chat_limited"
    assert int(refused.headers["Retry-After"]) >= 0 and '"chat";r=0;' in refused.headers["RateLimit"]


def test_a_room_reads_page_by_page(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, _) = table(api)
    for n in range(7):
        say(api, game_id, "table", ann, f"m{n}")
    read, after = [], None
    while True:
        page = api.get(f"/v1/games/{game_id}/chat/table?limit=3" + (f"&after={after}" if after else "")).json
        read += [message["text"] for message in page["messages"]]
        if (after := page["next"]) is None:
            break
    assert read == [f"m{n}" for n in range(7)]


def random_text(chooser: random.Random) -> str:
    """Text of what people write and what breaks pages: RTL marks, joiners, emoji, markup, any plane."""
    pieces = ["\u200f", "\u200e", "\u202e", "\u200d", "👩‍👩‍👧", "🇮🇱", "<script>alert(1)</script>", "&amp;", "<b>",
              "\"'`", "\\", "\n", "\t", "\u0000", "\ufeff", "שלום", "مرحبا", "e\u0301"]
    text = "".join(chooser.choice(pieces) if chooser.random() < 0.5 else chr(chooser.choice(
        [chooser.randrange(0x20, 0xd800), chooser.randrange(0xe000, 0x110000)])) for _ in range(chooser.randrange(1, 40)))
    return text if text.strip() else text + "x"


def test_a_thousand_random_texts_round_trip_byte_for_byte(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    chooser = random.Random(41)
    sent = [random_text(chooser)[:500] for _ in range(1000)]
    games = [table(api) for _ in range(10)]  # a hundred messages each, as many as a writer sends a minute
    for n, text in enumerate(sent):
        game_id, (ann, _) = games[n // 100]
        assert say(api, game_id, "table", ann, text).status_code == 201
    read = [text for game_id, _ in games for text in texts_all(api, game_id)]
    assert [text.encode("utf-8") for text in read] == [text.encode("utf-8") for text in sent]


def texts_all(api: ContractClient, game_id: str) -> list[str]:
    page = api.get(f"/v1/games/{game_id}/chat/table?limit=100").json
    assert page["next"] is not None or len(page["messages"]) < 100
    return [message["text"] for message in page["messages"]]


def test_a_mention_mails_the_player_named(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    say(api, game_id, "table", bo, "your move, @Ann!")
    say(api, game_id, "table", bo, "@annie is someone else")
    say(api, game_id, "table", ann, "talking to myself, @ann")
    mails = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert [(mail.kind, mail.data["author"], mail.data["text"]) for mail in mails] == [("mention", "bo", "your move, @Ann!")]
    assert mails[0].to_player == api.get("/v1/players/me", headers=bearer(ann)).json["id"]


def test_the_stream_sends_the_rooms_its_reader_reads(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()  # a stream is read as it comes
    game_id, (ann, bo) = table(api)
    cy = register(api, "cy")["token"]
    seat = streams.get(f"/v1/games/{game_id}/stream", headers=bearer(bo), buffered=False)
    lines = iter(seat.response)
    next(lines)  # opened: the chat is read from here
    say(api, game_id, "spectators", cy, "between us")
    say(api, game_id, "table", ann, "hello bo")
    assert chats(lines, 1) == ["hello bo"]
    seat.close()
    unsigned = streams.get(f"/v1/games/{game_id}/stream", buffered=False)  # a seat leaving out its token, or anyone
    lines = iter(unsigned.response)
    next(lines)
    say(api, game_id, "spectators", cy, "still between us")
    say(api, game_id, "table", ann, "are you there?")
    assert chats(lines, 1) == ["are you there?"]
    say(api, game_id, "table", ann, "bo?")
    assert chats(lines, 1) == ["bo?"]  # the spectators' word, had it been sent, would come first
    unsigned.close()
    watcher = streams.get(f"/v1/games/{game_id}/stream", headers=bearer(register(api, "dee")["token"]), buffered=False)
    lines = iter(watcher.response)
    next(lines)
    say(api, game_id, "spectators", cy, "more between us")
    say(api, game_id, "table", ann, "hello?")
    assert sorted(chats(lines, 2)) == ["hello?", "more between us"]
    watcher.close()


def test_a_watcher_who_takes_a_seat_stops_hearing_the_spectators(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 3, "options": {}}).json["id"]
    ann, cy, dee = (register(api, name)["token"] for name in ("ann", "cy", "dee"))
    assert api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(ann)).status_code == 201
    api.post(f"/v1/games/{game_id}/join", json={"name": "bo"})
    watcher = streams.get(f"/v1/games/{game_id}/stream", headers=bearer(dee), buffered=False)
    lines = iter(watcher.response)
    next(lines)  # opened by a player holding no seat
    assert api.post(f"/v1/games/{game_id}/join", json={"name": "dee"}, headers=bearer(dee)).status_code == 201
    say(api, game_id, "spectators", cy, "between us")
    say(api, game_id, "table", ann, "welcome dee")
    assert chats(lines, 1) == ["welcome dee"]
    say(api, game_id, "table", ann, "your turn")
    assert chats(lines, 1) == ["your turn"]  # the spectators' word, had it been sent, would come first
    watcher.close()


def test_a_finished_games_chat_stream_goes_on(client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id, (ann, bo) = table(api)
    end(api, game_id, bo)
    cy = register(api, "cy")["token"]
    ticket = api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(ann)).json
    seat = streams.get(f"/v1/games/{game_id}/chat-stream?ticket={ticket['ticket']}", buffered=False)
    lines = iter(seat.response)
    next(lines)  # opened: the chat is read from here
    say(api, game_id, "spectators", cy, "well played")
    say(api, game_id, "table", bo, "good game")
    assert sorted(chats(lines, 2)) == ["good game", "well played"]  # both rooms, the game over
    seat.close()
    silent, _ = table(api, chat=False)
    assert streams.get(f"/v1/games/{silent}/chat-stream").status_code == 204


def test_a_delayed_spectator_reads_their_own_words_and_hears_what_was_said_before_they_listened(
        client: redis.Redis) -> None:  # type: ignore[type-arg]
    app = create_app(unlimited(stream_heartbeat_ms=50), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id, seats = table(api, spectator_delay=1)
    cy = register(api, "cy")["token"]
    draw(api, game_id, seats)
    say(api, game_id, "table", seats[0], "said a move ago")
    seen = api.get(f"/v1/games/{game_id}").json["version"]
    assert seen < api.get(f"/v1/games/{game_id}", headers=bearer(seats[0])).json["version"]
    assert say(api, game_id, "spectators", cy, "who leads?").json["version"] == seen
    assert texts(api, game_id, "spectators", cy) == ["who leads?"]  # at once, to its writer too
    watcher = streams.get(f"/v1/games/{game_id}/stream?after={seen}", buffered=False)
    lines = iter(watcher.response)
    next(lines)
    draw(api, game_id, seats)  # the spectator now sees the move the table's message was written at
    say(api, game_id, "table", seats[0], "said now")
    draw(api, game_id, seats)
    assert chats(lines, 1) == ["said a move ago"]  # before the one said since
    watcher.close()


def draw(api: ContractClient, game_id: str, seats: list[str]) -> None:
    """The seat to move draws."""
    to_move = api.get(f"/v1/games/{game_id}", headers=bearer(seats[0])).json["to_move"][0]
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(seats[to_move])).status_code == 201


def chats(lines: object, count: int) -> list[str]:
    """The texts of the next `count` chat messages of a stream, within 20 s."""
    found: list[str] = []
    chunk = ""
    for part in until(20, lines):  # type: ignore[arg-type]
        chunk += part.decode()
        while "\n\n" in chunk:
            message, chunk = chunk.split("\n\n", 1)
            if message.startswith("event: chat"):
                found.append(json.loads(message.split("data: ", 1)[1])["text"])
                if len(found) == count:
                    return found
    return found


def test_an_export_holds_the_table_chat_when_asked(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (ann, bo) = table(api)
    say(api, game_id, "table", ann, "good luck")
    say(api, game_id, "spectators", register(api, "cy")["token"], "not for the log")
    end(api, game_id, bo)
    say(api, game_id, "table", bo, "well played")
    plain = api.get(f"/v1/games/{game_id}/export")
    talked = api.get(f"/v1/games/{game_id}/export?chat=table")
    assert "chat" not in json.loads(plain.get_data(as_text=True).splitlines()[0])
    header, *events = talked.get_data(as_text=True).splitlines()
    assert [(said["name"], said["text"]) for said in json.loads(header)["chat"]] == [("ann", "good luck"), ("bo", "well played")]
    assert events == plain.get_data(as_text=True).splitlines()[1:]
    assert api.get(f"/v1/games/{game_id}/export?chat=spectators").status_code == 422
    imported = api.post("/v1/games/import", data=talked.get_data(), content_type="application/x-ndjson")
    assert imported.status_code == 201, imported.json


def test_a_writer_mentioning_a_player_mails_them_once_a_window(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    game_id, (_, bo) = table(api)
    for text in ["@ann one", "@ann two", "@ann three"]:
        assert say(api, game_id, "table", bo, text).status_code == 201
    assert [Mail.loads(raw).data["text"] for raw in client.lrange(keys.mail_outbox(), 0, -1)] == ["@ann one"]


def test_a_mention_mails_no_one_who_blocks_its_writer(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, dan = register(api, "ann"), register(api, "dan")
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "options": {}}).json["id"]
    for player in (ann, dan):
        assert api.post(f"/v1/games/{game_id}/join", json={"name": player["name"]},
                        headers=bearer(player["token"])).status_code == 201
    assert api.put(f"/v1/players/me/blocks/{dan['id']}", headers=bearer(ann["token"])).status_code == 204
    assert say(api, game_id, "table", dan["token"], "@ann you blocked me").status_code == 201
    assert client.llen(keys.mail_outbox()) == 0


def test_a_game_created_with_its_chat_off_is_stored_so_in_one_write(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    created: list[GameRecord] = []
    store = GameRecords.create

    def creating(self: GameRecords, *args: Any, **kwargs: Any) -> GameRecord:
        created.append(store(self, *args, **kwargs))  # what a reader finds the moment the game exists
        return created[-1]

    monkeypatch.setattr(GameRecords, "create", creating)
    table(api, chat=False)
    assert [record.chat for record in created] == [False]
