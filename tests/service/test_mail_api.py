"""The mail API: an address confirmed by the link mailed to it, what a player chooses to get, and the
one-click unsubscribe a mail client POSTs, on fakeredis and a real server."""

from __future__ import annotations

import redis

from application.outbox import Mail
from events import keys
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_players_api import bearer, register


def api_on(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(public_url="https://play.example"), client=client).test_client())


def confirmation_token(client: redis.Redis) -> str:  # type: ignore[type-arg]
    """The token of the latest confirmation link put on the outbox."""
    mail = Mail.loads(client.lrange(keys.mail_outbox(), -1, -1)[0])
    assert mail.kind == "confirm_address" and mail.data["link"].startswith("https://play.example/#confirm-mail=")
    return str(mail.data["link"]).partition("#confirm-mail=")[2]


def test_an_address_is_confirmed_by_its_link_once(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = bearer(register(api, "ann")["token"])
    assert api.get("/v1/players/me/mail", headers=ann).json == {"address": None, "confirmed": False, "pending": None, "kinds": {
        "your_turn": "offline", "digest": "off", "reminder": "on", "invitation": "on", "game_over": "on", "mention": "on",
        "message": "on"}}
    answer = api.put("/v1/players/me/mail/address", json={"address": "ann@example.org"}, headers=ann)
    assert answer.status_code == 202 and answer.json["address"] == "ann@example.org" and not answer.json["confirmed"]
    [queued] = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert queued.to_address == "ann@example.org" and queued.data["account"] == "ann" and "name" not in queued.data
    token = confirmation_token(client)
    confirmed = api.post("/v1/mail/confirmations", json={"token": token})  # no player token needed
    assert confirmed.status_code == 200 and confirmed.json["confirmed"] is True
    again = api.post("/v1/mail/confirmations", json={"token": token})
    assert again.status_code == 404 and again.json["code"] == "confirmation_not_found"
    assert api.delete("/v1/players/me/mail/address", headers=ann).status_code == 204
    assert api.get("/v1/players/me/mail", headers=ann).json["address"] is None


def test_what_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = bearer(register(api, "ann")["token"])
    for body in ({"address": "not an address"}, {"address": "a" * 250 + "@example.org"}, {}, {"address": 3},
                 {"address": "a@[10.0.0.1]"}, {"address": "root@localhost"}, {"address": "x@printer.local"}):
        answer = api.put("/v1/players/me/mail/address", json=body, headers=ann)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", body
    for body in ({}, {"digest": "offline"}, {"your_turn": "sometimes"}, {"chat": "on"}):
        answer = api.patch("/v1/players/me/mail/kinds", json=body, headers=ann)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", body
    assert api.post("/v1/mail/confirmations", json={"token": "<script>"}).status_code == 422
    assert api.get("/v1/players/me/mail").status_code == 401
    for n in range(5):
        assert api.put("/v1/players/me/mail/address", json={"address": f"a{n}@example.org"}, headers=ann).status_code == 202
    refused = api.put("/v1/players/me/mail/address", json={"address": "more@example.org"}, headers=ann)
    assert refused.status_code == 429 and refused.json["code"] == "too_many_confirmations" and refused.json["limit"] == 5


def test_choices_are_kept_and_one_click_unsubscribe_stops_a_kind(client: redis.Redis) -> None:  # type: ignore[type-arg]
    from players.mail import Mailboxes

    api = api_on(client)
    ann = register(api, "ann")
    chosen = api.patch("/v1/players/me/mail/kinds", json={"your_turn": "on", "digest": "on"}, headers=bearer(ann["token"]))
    assert chosen.status_code == 200 and chosen.json["kinds"]["your_turn"] == "on" and chosen.json["kinds"]["digest"] == "on"
    token = Mailboxes(client).stop_token(ann["id"], "digest")
    answer = api.post(f"/v1/mail/unsubscribe?token={token}", data="List-Unsubscribe=One-Click",
                      content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200 and answer.json == {"kind": "digest", "choice": "off"}
    assert api.get("/v1/players/me/mail", headers=bearer(ann["token"])).json["kinds"]["digest"] == "off"
    unknown = api.post("/v1/mail/unsubscribe?token=" + "x" * 43, data="List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded")
    assert unknown.status_code == 404 and unknown.json["code"] == "unsubscribe_token_unknown"
    assert api.post("/v1/mail/unsubscribe").status_code == 422


def test_an_address_is_mailed_a_bounded_number_of_confirmations_whoever_asks(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    asking = [bearer(register(api, f"p{n}")["token"]) for n in range(3)]
    for player in asking:
        assert api.put("/v1/players/me/mail/address", json={"address": "Target@example.org"}, headers=player).status_code == 202
    late = bearer(register(api, "late")["token"])
    refused = api.put("/v1/players/me/mail/address", json={"address": "target@EXAMPLE.org"}, headers=late)
    assert refused.status_code == 429 and refused.json["code"] == "confirmations_limited"
    for n in range(7):  # 10 an hour from one client, whatever the address and the player: 3 counted above (not the refused)
        assert api.put("/v1/players/me/mail/address", json={"address": f"q{n}@example.org"},
                       headers=asking[n % 3]).status_code == 202  # a player may ask 5 a day
    answer = api.put("/v1/players/me/mail/address", json={"address": "one-more@example.org"}, headers=late)
    assert answer.status_code == 429 and answer.json["code"] == "confirmations_limited"
    assert len(client.lrange(keys.mail_outbox(), 0, -1)) == 3 + 7


def test_an_address_another_player_holds_confirmed_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann, bob = (bearer(register(api, name)["token"]) for name in ("ann", "bob"))
    api.put("/v1/players/me/mail/address", json={"address": "ann@example.org"}, headers=ann)
    assert api.post("/v1/mail/confirmations", json={"token": confirmation_token(client)}).status_code == 200
    api.put("/v1/players/me/mail/address", json={"address": "ann@example.org"}, headers=bob)
    refused = api.post("/v1/mail/confirmations", json={"token": confirmation_token(client)})
    assert refused.status_code == 409 and refused.json["code"] == "mail_address_taken"
    assert api.get("/v1/players/me/mail", headers=bob).json["confirmed"] is False
    changed = api.put("/v1/players/me/mail/address", json={"address": "ann@elsewhere.org"}, headers=ann)
    assert changed.json == {**changed.json, "address": "ann@example.org", "confirmed": True, "pending": "ann@elsewhere.org"}


def test_the_unsubscribe_link_opened_in_a_browser_asks_before_it_stops(client: redis.Redis) -> None:  # type: ignore[type-arg]
    from players.mail import Mailboxes

    api = api_on(client)
    ann = register(api, "ann")
    token = Mailboxes(client).stop_token(ann["id"], "game_over")
    shown = api.get(f"/v1/mail/unsubscribe?token={token}", headers={"Accept": "text/html"})
    text = shown.get_data(as_text=True)
    assert shown.status_code == 200 and shown.mimetype == "text/html" and "<script" not in text
    assert "“game over”" in text and f'<form method="post" action="/v1/mail/unsubscribe?token={token}">' in text
    assert "form-action 'self'" in shown.headers["Content-Security-Policy"]
    assert api.get("/v1/players/me/mail", headers=bearer(ann["token"])).json["kinds"]["game_over"] == "on"  # not yet
    pressed = api.post(f"/v1/mail/unsubscribe?token={token}", data="List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded", headers={"Accept": "text/html,*/*;q=0.8"})
    assert pressed.status_code == 200 and pressed.mimetype == "text/html" and "no more mail" in pressed.get_data(as_text=True)
    assert api.get("/v1/players/me/mail", headers=bearer(ann["token"])).json["kinds"]["game_over"] == "off"
    unknown = api.get("/v1/mail/unsubscribe?token=" + "x" * 43)
    assert unknown.status_code == 404 and "not one of ours" in unknown.get_data(as_text=True)
