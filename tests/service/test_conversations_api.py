"""Messages between players through the API: a conversation read page by page, unread counts in the
list, the inbox and the inbox stream, blocks, bounds, the writing limit and the mail of a message;
on fakeredis and a real server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis

import players.conversations
from application.outbox import Mail
from events import keys
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_chat_api import ADMIN, api_on
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


def write(api: ContractClient, token: str, to: str, text: str) -> object:
    return api.post(f"/v1/players/me/conversations/{to}", json={"text": text}, headers=bearer(token))


def conversation(api: ContractClient, token: str, other: str, query: str = "") -> dict[str, object]:
    answer = api.get(f"/v1/players/me/conversations/{other}{query}", headers=bearer(token))
    assert answer.status_code == 200, answer.json
    return answer.json  # type: ignore[no-any-return]


def texts(api: ContractClient, token: str, other: str) -> list[str]:
    return [message["text"] for message in conversation(api, token, other)["messages"]]  # type: ignore[attr-defined]


def unread(api: ContractClient, token: str) -> int:
    listed = api.get("/v1/players/me/conversations", headers=bearer(token)).json
    inbox = api.get("/v1/players/me/inbox", headers=bearer(token)).json
    assert listed["unread"] == inbox["unread_messages"] == sum(entry["unread"] for entry in listed["conversations"])
    return listed["unread"]  # type: ignore[no-any-return]


def test_two_players_talk_and_the_unread_count_follows(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    sent = write(api, ann["token"], bo["id"], "TAKI tonight?")
    assert sent.status_code == 201
    assert sent.json | {"id": "", "time": 0} == {"id": "", "time": 0, "author": ann["id"], "text": "TAKI tonight?"}
    write(api, ann["token"], bo["id"], "At 8?")
    assert unread(api, bo["token"]) == 2 and unread(api, ann["token"]) == 0
    [entry] = api.get("/v1/players/me/conversations", headers=bearer(bo["token"])).json["conversations"]
    assert entry["player"] == {"id": ann["id"], "name": "ann"} and entry["latest"] > 0
    assert texts(api, bo["token"], ann["id"]) == ["TAKI tonight?", "At 8?"]
    assert unread(api, bo["token"]) == 0
    write(api, bo["token"], ann["id"], "Yes")
    assert texts(api, ann["token"], bo["id"]) == texts(api, bo["token"], ann["id"]) == ["TAKI tonight?", "At 8?", "Yes"]
    assert conversation(api, bo["token"], ann["id"])["player"] == {"id": ann["id"], "name": "ann"}


def test_a_conversation_reads_page_by_page(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    for n in range(7):
        write(api, ann["token"], bo["id"], f"m{n}")
    read: list[str] = []
    after = None
    while True:
        page = conversation(api, bo["token"], ann["id"], "?limit=3" + (f"&after={after}" if after else ""))
        read += [message["text"] for message in page["messages"]]  # type: ignore[attr-defined]
        if (after := page["next"]) is None:
            break
    assert read == [f"m{n}" for n in range(7)]


def test_a_blocked_players_messages_reach_the_blocker_no_more(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    write(api, bo["token"], ann["id"], "before")
    assert api.put(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(ann["token"])).status_code == 204
    assert write(api, bo["token"], ann["id"], "after").status_code == 201  # the blocked player is not told
    write(api, ann["token"], bo["id"], "mine")
    assert texts(api, ann["token"], bo["id"]) == ["mine"]
    assert texts(api, bo["token"], ann["id"]) == ["before", "after", "mine"]
    assert unread(api, ann["token"]) == 0
    assert api.get("/v1/players/me/conversations", headers=bearer(ann["token"])).json["conversations"] == []
    assert [Mail.loads(raw).kind for raw in client.lrange(keys.mail_outbox(), 0, -1)] == ["message", "message"]
    api.delete(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(ann["token"]))
    assert texts(api, ann["token"], bo["id"]) == ["before", "after", "mine"]


def test_a_message_is_mailed_to_its_recipient(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    sent = write(api, ann["token"], bo["id"], "<b>TAKI</b> tonight?").json
    [mail] = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert (mail.kind, mail.to_player, mail.key) == ("message", bo["id"], f"{bo['id']}-message-{ann['id']}-{sent['id']}")
    assert mail.data == {"author": "ann", "author_id": ann["id"], "text": "<b>TAKI</b> tonight?"}


def test_messages_are_bounded_and_every_refusal_is_a_problem(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    for text in ["", "   ", "x" * 501]:
        refused = write(api, ann["token"], bo["id"], text)
        assert refused.status_code == 422 and refused.json["code"] == "validation_error", text
        assert refused.headers["Content-Type"] == "application/problem+json"
    assert write(api, ann["token"], bo["id"], "x" * 500).status_code == 201
    assert write(api, ann["token"], ann["id"], "me").json["code"] == "validation_error"
    assert write(api, ann["token"], "nobody-at-all", "hi").json["code"] == "player_not_found"
    assert api.post(f"/v1/players/me/conversations/{bo['id']}", json={"text": "hi"}).json["code"] == "unauthorized"
    assert api.get(f"/v1/players/me/conversations/{bo['id']}?after=yesterday",
                   headers=bearer(ann["token"])).json["code"] == "validation_error"
    assert api.get(f"/v1/players/me/conversations/{bo['id']}?limit=101",
                   headers=bearer(ann["token"])).json["code"] == "validation_error"


def test_the_hundred_and_first_message_in_a_minute_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    for n in range(100):
        answer = write(api, ann["token"], bo["id"], f"message {n}")
        assert answer.status_code == 201, answer.json
    assert '"chat";q=100;w=60' in answer.headers["RateLimit-Policy"] and '"chat";r=0;' in answer.headers["RateLimit"]
    refused = write(api, ann["token"], bo["id"], "one more")
    assert refused.status_code == 429 and refused.json["code"] == "chat_limited"
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert int(refused.headers["Retry-After"]) >= 0 and '"chat";r=0;' in refused.headers["RateLimit"]
    assert write(api, bo["token"], ann["id"], "bo still writes").status_code == 201


def test_the_inbox_stream_tells_the_unread_count(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = streaming(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    write(api, ann["token"], bo["id"], "one")
    answer, chunks = inbox_stream(api, bo["token"], 1)
    write(api, ann["token"], bo["id"], "two")
    assert _data(chunks, "messages") == {"unread_messages": 2}
    conversation(api, bo["token"], ann["id"])
    assert _data(chunks, "messages") == {"unread_messages": 0}
    answer.close()


def streaming(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    """The API, its streams' heartbeats quick."""
    return ContractClient(create_app(unlimited(admin_token=ADMIN, stream_heartbeat_ms=200), client=client).test_client())


def inbox_stream(api: ContractClient, token: str, unread: int) -> tuple[Any, Iterator[bytes | str]]:
    """The player's inbox stream opened, and its chunks past its first message, which says `unread`."""
    answer = api.client.get("/v1/players/me/inbox/stream", headers=bearer(token), buffered=False)
    chunks = iter(answer.response)
    assert _data(chunks, "inbox")["unread_messages"] == unread
    return answer, chunks


def _data(chunks: Iterator[bytes | str], event: str) -> dict[str, object]:
    """The data of the next message of this event in a stream's chunks."""
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if f"event: {event}\n" in text:
            return json.loads(text.split("data: ", 1)[1])  # type: ignore[no-any-return]
    raise AssertionError(f"no {event} message")


def test_a_writer_is_mailed_to_each_recipient_once_a_window(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    for text in ["one", "two", "three"]:
        write(api, ann["token"], bo["id"], text)
    write(api, cy["token"], bo["id"], "from cy")
    mails = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert [(mail.data["author"], mail.data["text"]) for mail in mails] == [("ann", "one"), ("cy", "from cy")]


def test_conversations_with_blocked_players_crowd_out_no_other(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(players.conversations, "LISTED", 2)
    api = api_on(client)
    ann, bo, cy, dan = (register(api, name) for name in ("ann", "bo", "cy", "dan"))
    for writer in (bo, cy, dan):
        write(api, writer["token"], ann["id"], f"from {writer['name']}")
    for blocked in (cy, dan):
        api.put(f"/v1/players/me/blocks/{blocked['id']}", headers=bearer(ann["token"]))
    listed = api.get("/v1/players/me/conversations", headers=bearer(ann["token"])).json
    assert [entry["player"]["name"] for entry in listed["conversations"]] == ["bo"] and listed["unread"] == 1


def test_a_hidden_message_counts_unread_no_more_and_the_inbox_stream_is_told(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = streaming(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    rude = write(api, ann["token"], bo["id"], "rude").json
    write(api, ann["token"], bo["id"], "sorry")
    answer, chunks = inbox_stream(api, bo["token"], 2)
    players.conversations.Conversations(client, 100).hide(ann["id"], bo["id"], rude["id"])
    assert _data(chunks, "messages") == {"unread_messages": 1}
    assert unread(api, bo["token"]) == 1
    answer.close()


def test_blocking_and_unblocking_tell_the_blockers_inbox_stream(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = streaming(client)
    ann, bo = register(api, "ann"), register(api, "bo")
    write(api, bo["token"], ann["id"], "hello")
    answer, chunks = inbox_stream(api, ann["token"], 1)
    assert api.put(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(ann["token"])).status_code == 204
    assert _data(chunks, "messages") == {"unread_messages": 0}
    assert api.delete(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(ann["token"])).status_code == 204
    assert _data(chunks, "messages") == {"unread_messages": 1}
    answer.close()
