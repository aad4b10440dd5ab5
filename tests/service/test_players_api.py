"""Registered players: their token joins games, acts for the seat it holds, and reads an inbox."""

from __future__ import annotations

import time

from tests.contract import ContractClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def register(api: ContractClient, name: str) -> dict[str, str]:
    answer = api.post("/v1/players", json={"name": name})
    assert answer.status_code == 201 and answer.json["name"] == name
    return answer.json  # type: ignore[no-any-return]


def test_register_and_read_oneself(api: ContractClient) -> None:
    ann = register(api, "ann")
    me = api.get("/v1/players/me", headers=bearer(ann["token"]))
    assert me.json == {"id": ann["id"], "name": "ann", "created": ann["created"], "time_zone": "UTC", "vacation_until": None,
                       "vacation_days_left": 30, "vacation_days_per_year": 30}
    assert api.get("/v1/players/me").status_code == 401
    assert api.get("/v1/players/me", headers=bearer("y" * 43)).status_code == 401
    assert api.post("/v1/players", json={"name": ""}).status_code == 422


def test_a_player_token_joins_acts_and_reads_its_inbox(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    first = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    second = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": {"seconds": 3600, "policy": "skip"}}).json["id"]
    for game_id in (first, second):
        assert api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(ann["token"])).json["seat"] == 0
    again = api.post(f"/v1/games/{first}/join", json={"name": "ann"}, headers=bearer(ann["token"]))
    assert again.status_code == 409 and again.json["reason"] == "already_seated"
    waiting = api.get("/v1/players/me/inbox", headers=bearer(ann["token"])).json["games"]
    assert {entry["game"]["id"] for entry in waiting} == {first, second} and not any(e["your_turn"] for e in waiting)
    for game_id in (first, second):
        api.post(f"/v1/games/{game_id}/join", json={"name": "bo"}, headers=bearer(bo["token"]))
    inbox = api.get("/v1/players/me/inbox", headers=bearer(ann["token"])).json["games"]
    assert [(e["game"]["id"], e["your_turn"]) for e in inbox] == [(second, True), (first, True)]
    assert inbox[0]["deadline"] > inbox[0]["game"]["created"] and inbox[1]["deadline"] is None
    played = api.post(f"/v1/games/{first}/commands", json={"type": "draw"}, headers=bearer(ann["token"]))
    assert played.status_code == 201 and played.json["events"][0]["actor"] == "seat:0"
    assert api.get(f"/v1/games/{first}", headers=bearer(ann["token"])).json["you"] == 0
    inbox = api.get("/v1/players/me/inbox", headers=bearer(ann["token"])).json["games"]
    assert [(e["game"]["id"], e["your_turn"]) for e in inbox] == [(second, True), (first, False)]
    bo_inbox = api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["games"]
    assert [(e["game"]["id"], e["your_turn"], e["seat"]) for e in bo_inbox] == [(first, True, 1), (second, False, 1)]
    assert api.post(f"/v1/games/{first}/commands", json={"type": "draw"}, headers=bearer(ann["token"])).json["code"] == "not_your_turn"


def test_a_join_with_a_token_that_is_no_player_token_is_refused(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    answer = api.post(f"/v1/games/{game_id}/join", json={"name": "x"}, headers=bearer("z" * 43))
    assert answer.status_code == 401


def test_webhooks_are_registered_listed_and_removed(api: ContractClient) -> None:
    ann = register(api, "ann")
    auth = bearer(ann["token"])
    hook = api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/meeple"}, headers=auth)
    assert hook.status_code == 201 and len(hook.json["secret"]) == 64
    listed = api.get("/v1/players/me/webhooks", headers=auth).json["webhooks"]
    assert listed == [{"id": hook.json["id"], "url": "https://hooks.example.com/meeple", "created": hook.json["created"],
                       "format": "meeple"}]
    for wrong in ({"url": "ftp://example.org"}, {"url": "not a url"}, {}, {"url": "http://127.0.0.1:9/"},
                  {"url": "http://[::1]/"}, {"url": "https://169.254.169.254/latest"}, {"url": "http://10.0.0.1/"}):
        assert api.post("/v1/players/me/webhooks", json=wrong, headers=auth).status_code == 422
    refused = api.post("/v1/players/me/webhooks", json={"url": "http://192.168.0.9/"}, headers=auth).json
    assert refused["errors"] == {"url": [
        "A webhook must reach a public address, not a private, loopback or link-local one; this URL names 192.168.0.9."]}
    assert api.get("/v1/players/me/deliveries", headers=auth).json == {"deliveries": []}
    assert api.delete(f"/v1/players/me/webhooks/{hook.json['id']}", headers=auth).status_code == 204
    assert api.delete(f"/v1/players/me/webhooks/{hook.json['id']}", headers=auth).status_code == 404
    assert api.get("/v1/players/me/webhooks").status_code == 401


def test_vacations(api: ContractClient) -> None:
    ann = register(api, "ann")
    auth = bearer(ann["token"])
    until = int(time.time() * 1000) + 7 * 86_400_000
    assert api.put("/v1/players/me/vacation", json={"until": until}, headers=auth).json == {
        "vacation_until": until, "vacation_days_left": 23, "vacation_days_per_year": 30}
    assert api.get("/v1/players/me", headers=auth).json["vacation_until"] == until
    for wrong in (int(time.time() * 1000) - 1, until + 400 * 86_400_000, "soon"):
        assert api.put("/v1/players/me/vacation", json={"until": wrong}, headers=auth).status_code == 422
    assert api.delete("/v1/players/me/vacation", headers=auth).status_code == 204
    assert api.get("/v1/players/me", headers=auth).json["vacation_until"] is None


def test_a_malformed_ipv6_webhook_url_answers_422_not_500(api: ContractClient) -> None:
    auth = bearer(register(api, "ann")["token"])
    for url in ("https://[::1", "http://[zz]/", "http://]/", "http://[]/", "http://[127.0.0.1]/", "http://[v1.x]/"):
        answer = api.post("/v1/players/me/webhooks", json={"url": url}, headers=auth)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", url
        assert answer.json["errors"]["url"][0].startswith("Not a valid webhook URL"), url


def test_numeric_loopback_webhook_urls_are_refused_at_registration(api: ContractClient) -> None:
    auth = bearer(register(api, "ann")["token"])
    for url, address in (("http://2130706433/x", "127.0.0.1"), ("http://0x7f000001/x", "127.0.0.1"),
                         ("http://017700000001/x", "127.0.0.1"), ("http://0/x", "0.0.0.0"), ("http://127.1/x", "127.0.0.1"),
                         ("http://0x7f.0.0.1./x", "127.0.0.1"), ("http://127\uff0e0\uff0e0\uff0e1/x", "127.0.0.1"),
                         ("http://[64:ff9b::7f00:1]/x", "64:ff9b::7f00:1"), ("http://[64:ff9b:1::a00:1]/x", "64:ff9b:1::a00:1"),
                         ("http://[2002:7f00:1::]/x", "2002:7f00:1::"), ("http://[::ffff:a9fe:a9fe]/x", "::ffff:a9fe:a9fe"),
                         ("http://[::127.0.0.1]/x", "::7f00:1"), ("http://[fec0::1]/x", "fec0::1"),
                         ("http://user@[fe80::1%25eth0]:8080/x", "fe80::1")):
        answer = api.post("/v1/players/me/webhooks", json={"url": url}, headers=auth)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", url
        assert answer.json["errors"] == {"url": [
            f"A webhook must reach a public address, not a private, loopback or link-local one; this URL names {address}."]}, url
    for url in ("http://example.org:99999/x", "http://example.org:0/x", "http://1.2.3.256/x", "http://1.2.3.4.5/x",
                "http://08.1/x", "http://exa mple.org/", "http://example.org:8o/"):
        answer = api.post("/v1/players/me/webhooks", json={"url": url}, headers=auth)
        assert answer.status_code == 422 and answer.json["errors"]["url"][0].startswith("Not a valid webhook URL"), url
    for url in ("http://[2002:5db8:d70e::]/x", "http://[64:ff9b::5db8:d70e]/x", "http://1572394766/x", "https://b\u00fccher.example/x"):
        assert api.post("/v1/players/me/webhooks", json={"url": url}, headers=auth).status_code == 201, url
