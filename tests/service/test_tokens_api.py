"""A player's tokens through the API (made, listed, renamed, revoked and refused at once
everywhere), and signing a new device in by a mailed link; on fakeredis and on a real Redis."""

from __future__ import annotations

import threading

import pytest
import redis

from application.outbox import Mail
from application.signing_in import SIGN_IN_ASKED, mail_sign_in_link
from events import keys
from players.mail import Mailboxes
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited


@pytest.fixture
def api(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(tokens_per_player=3), client=client).test_client())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def register(api: ContractClient, name: str, **body: str) -> dict[str, str]:
    answer = api.post("/v1/players", json={"name": name} | body)
    assert answer.status_code == 201
    return answer.json  # type: ignore[no-any-return]


def listed(api: ContractClient, token: str) -> set[tuple[str, bool]]:
    return {(held["name"], held["current"]) for held in api.get("/v1/players/me/tokens", headers=bearer(token)).json["tokens"]}


def test_tokens_are_made_listed_renamed_and_bounded(api: ContractClient) -> None:
    ann = register(api, "ann", device="Laptop")
    auth = bearer(ann["token"])
    assert listed(api, ann["token"]) == {("Laptop", True)}
    assert listed(api, register(api, "bo")["token"]) == {("First device", True)}
    phone = api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=auth)
    assert phone.status_code == 201 and phone.json["last_used"] is None and len(phone.json["token"]) == 43
    assert api.get("/v1/players/me", headers=bearer(phone.json["token"])).json["id"] == ann["id"]
    assert listed(api, phone.json["token"]) == {("Laptop", False), ("Phone", True)}
    used = {held["name"]: held["last_used"] for held in api.get("/v1/players/me/tokens", headers=auth).json["tokens"]}
    assert used["Phone"] >= phone.json["created"] and used["Laptop"] >= int(ann["created"])
    renamed = api.patch(f"/v1/players/me/tokens/{phone.json['id']}", json={"name": "Old phone"}, headers=auth)
    assert renamed.json == {"id": phone.json["id"], "name": "Old phone"}
    assert api.patch("/v1/players/me/tokens/nope", json={"name": "x"}, headers=auth).json["code"] == "token_not_found"
    for wrong in ({}, {"name": ""}, {"name": " "}, {"name": "a\nb"}, {"name": "x" * 65}, {"name": 3}):
        assert api.post("/v1/players/me/tokens", json=wrong, headers=auth).json["code"] == "validation_error"
    assert api.post("/v1/players", json={"name": "cy", "device": ""}).status_code == 422
    api.post("/v1/players/me/tokens", json={"name": "Bot"}, headers=auth)
    refused = api.post("/v1/players/me/tokens", json={"name": "Fourth"}, headers=auth)
    assert refused.status_code == 409 and refused.json["code"] == "too_many_tokens" and refused.json["limit"] == 3
    assert api.get("/v1/players/me/tokens").status_code == 401


def test_a_revoked_token_is_refused_at_once_everywhere(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    phone = api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=bearer(ann["token"])).json
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(phone["token"]))
    api.post(f"/v1/games/{game_id}/join", json={"name": "bo"}, headers=bearer(bo["token"]))
    assert api.get(f"/v1/games/{game_id}", headers=bearer(ann["token"])).json["you"] == 0  # the player's seat
    other = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(ann["token"])).status_code == 204
    refusals = [
        api.get("/v1/players/me", headers=bearer(phone["token"])),
        api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(phone["token"])),
        api.post(f"/v1/games/{other}/join", json={"name": "ann"}, headers=bearer(phone["token"])),
        api.post("/v1/stream-tickets", json={"stream": "inbox"}, headers=bearer(phone["token"])),
        api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(phone["token"])),
    ]
    assert [(answer.status_code, answer.json["reason"]) for answer in refusals] == [(401, "token_unknown")] * 5
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(ann["token"])).status_code == 201
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(ann["token"])).status_code == 404
    bo_tokens = api.get("/v1/players/me/tokens", headers=bearer(bo["token"])).json["tokens"]
    assert api.delete(f"/v1/players/me/tokens/{bo_tokens[0]['id']}", headers=bearer(ann["token"])).status_code == 404
    assert api.get("/v1/players/me", headers=bearer(bo["token"])).status_code == 200  # another's token is not ann's to revoke


def confirmed(client: redis.Redis, player_id: str, address: str) -> None:  # type: ignore[type-arg]
    mailboxes = Mailboxes(client)
    token = mailboxes.ask_confirmation(player_id, address)
    assert token is not None and mailboxes.confirm(token) == player_id


def outbox(client: redis.Redis) -> list[Mail]:  # type: ignore[type-arg]
    return [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]


def answered(client: redis.Redis) -> list[Mail]:  # type: ignore[type-arg]
    """The mails the requests for sign-in links on the outbox become, answered as the workers answer them; the
    outbox emptied."""
    asked = outbox(client)
    client.delete(keys.mail_outbox())
    for request in asked:
        assert request.kind == SIGN_IN_ASKED
        mail_sign_in_link(client, request, "http://127.0.0.1:8000")
    mails = outbox(client)
    client.delete(keys.mail_outbox())
    return mails


def test_a_mailed_link_signs_a_new_device_in_once(api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann = register(api, "ann", device="Laptop")
    confirmed(client, ann["id"], "Ann@Example.com")
    client.delete(keys.mail_outbox())
    unknown = api.post("/v1/sign-in-links", json={"address": "nobody@example.com"})
    known = api.post("/v1/sign-in-links", json={"address": "ann@example.com"})
    assert (unknown.status_code, unknown.json) == (known.status_code, known.json) == (202, {"expires_in": 900})
    [mail] = answered(client)
    assert (mail.kind, mail.to_player) == ("sign_in", ann["id"])
    link = mail.data["link"]
    assert link.startswith("http://127.0.0.1:8000/sign-in#link=")
    secret = link.partition("#link=")[2]
    signed = api.post("/v1/sign-ins", json={"link": secret, "device": "Phone"})
    assert signed.status_code == 201 and (signed.json["id"], signed.json["name"]) == (ann["id"], "ann")
    assert listed(api, signed.json["token"]) == {("Laptop", False), ("Phone", True)}
    again = api.post("/v1/sign-ins", json={"link": secret, "device": "Tablet"})
    assert (again.status_code, again.json["code"], again.json["reason"]) == (410, "sign_in_link_refused", "link_used")
    never = api.post("/v1/sign-ins", json={"link": "x" * 43, "device": "Tablet"})
    assert (never.status_code, never.json["reason"]) == (410, "link_expired")
    for wrong in ({"link": secret}, {"link": "short", "device": "Tablet"}, {"link": secret, "device": ""}):
        assert api.post("/v1/sign-ins", json=wrong).status_code == 422
    for wrong in ({}, {"address": "not an address"}, {"address": "a@" + "b" * 260 + ".com"}):
        assert api.post("/v1/sign-in-links", json=wrong).status_code == 422


def test_sign_in_links_are_bounded_per_client_and_per_player_mailed(
        api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann = register(api, "ann")
    confirmed(client, ann["id"], "ann@example.com")
    client.delete(keys.mail_outbox())

    def ask(address: str, by: str) -> int:
        return api.post("/v1/sign-in-links", json={"address": address}, environ_base={"REMOTE_ADDR": by}).status_code

    assert [ask(address, "10.0.0.1") for address in ["ann@example.com"] * 6] == [202] * 5 + [429]
    limited = api.post("/v1/sign-in-links", json={"address": "ANN@example.com"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert limited.json["code"] == "sign_in_limited" and limited.json["retry_after"] > 0
    assert ask("ann@example.com", "10.0.0.2") == 202  # another client is not kept out by the first
    # 20 from one client: the 5 above counted, not the 2 refused
    assert [ask(f"nobody{n}@example.com", "10.0.0.1") for n in range(16)] == [202] * 15 + [429]
    assert len(answered(client)) == 5  # ann is mailed 5 links an hour, whoever asks
    assert [ask("ann@example.com", f"10.0.1.{n}") for n in range(4)] == [202] * 4
    assert answered(client) == []
    other = register(api, "bo")
    confirmed(client, other["id"], "bo@example.com")
    assert ask("bo@example.com", "10.0.1.0") == 202 and len(answered(client)) == 1  # asking for ann spent nothing of bo's


def test_asking_for_a_link_does_the_same_work_whatever_the_address(
        api: ContractClient, client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ann = register(api, "ann")
    confirmed(client, ann["id"], "ann@example.com")
    sent: list[str] = []
    request_thread = threading.get_ident()  # the test client answers in this thread; others (streams' listeners) are not counted
    for kind in (type(client), type(client.pipeline())):
        real = kind.execute_command
        monkeypatch.setattr(kind, "execute_command", lambda self, *args, real=real, **kw: (
            threading.get_ident() == request_thread and sent.append(str(args[0])), real(self, *args, **kw))[1])
    works = {}
    for address in ("ann@example.com", "nobody@example.com", "bo@example.com"):
        sent.clear()
        answer = api.post("/v1/sign-in-links", json={"address": address}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
        works[address] = (answer.status_code, answer.headers.get("Content-Length"), answer.data, tuple(sent))
    assert works["ann@example.com"] == works["nobody@example.com"] == works["bo@example.com"]
    assert "RPUSH" in works["ann@example.com"][3]


def test_the_only_token_stays_while_no_address_can_sign_the_player_in(
        api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann = register(api, "ann", device="Laptop")
    only = api.get("/v1/players/me/tokens", headers=bearer(ann["token"])).json["tokens"][0]["id"]
    refused = api.delete(f"/v1/players/me/tokens/{only}", headers=bearer(ann["token"]))
    assert (refused.status_code, refused.json["code"]) == (409, "last_token")
    assert api.get("/v1/players/me", headers=bearer(ann["token"])).status_code == 200
    Mailboxes(client).ask_confirmation(ann["id"], "ann@example.com")  # an address not confirmed signs nobody in
    assert api.delete(f"/v1/players/me/tokens/{only}", headers=bearer(ann["token"])).status_code == 409
    phone = api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=bearer(ann["token"])).json
    assert api.delete(f"/v1/players/me/tokens/{only}", headers=bearer(ann["token"])).status_code == 204
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(phone["token"])).status_code == 409
    confirmed(client, ann["id"], "ann@example.com")
    assert api.delete(f"/v1/players/me/tokens/{phone['id']}", headers=bearer(phone["token"])).status_code == 204
    assert api.get("/v1/players/me", headers=bearer(phone["token"])).status_code == 401
