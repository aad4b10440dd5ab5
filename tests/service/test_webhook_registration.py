"""Registering webhooks: a player keeps a bounded number of them, and a URL a delivery would
refuse is refused at once, a host name that resolves only to private addresses included."""

from __future__ import annotations

import os

import pytest
import redis

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_players_api import bearer, register


def api_on(client: redis.Redis, **settings: object) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(**settings), client=client).test_client())


def test_a_webhook_beyond_the_per_player_limit_is_refused(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client, webhooks_per_player=2)
    ann, bo = bearer(register(api, "ann")["token"]), bearer(register(api, "bo")["token"])
    kept = [api.post("/v1/players/me/webhooks", json={"url": f"https://hooks.example.com/{n}"}, headers=ann)
            for n in range(2)]
    assert [answer.status_code for answer in kept] == [201, 201]
    refused = api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/2"}, headers=ann)
    assert refused.status_code == 409 and refused.mimetype == "application/problem+json"
    assert refused.json["code"] == "too_many_webhooks" and refused.json["limit"] == 2
    assert len(api.get("/v1/players/me/webhooks", headers=ann).json["webhooks"]) == 2
    assert api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/b"}, headers=bo).status_code == 201
    assert api.delete(f"/v1/players/me/webhooks/{kept[0].json['id']}", headers=ann).status_code == 204
    assert api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/3"}, headers=ann).status_code == 201


def test_a_loopback_url_is_refused_at_registration(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = bearer(register(api, "ann")["token"])
    for url in ("http://localhost:1/x", "http://LOCALHOST:8000/x"):
        answer = api.post("/v1/players/me/webhooks", json={"url": url}, headers=ann)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", url
        assert answer.json["errors"]["url"][0].startswith("A webhook must reach a public address"), url
    assert api.get("/v1/players/me/webhooks", headers=ann).json["webhooks"] == []
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert api.post("/v1/players/me/webhooks", json={"url": "http://localhost:1/x"}, headers=ann).status_code == 201


def test_a_webhook_is_made_for_a_chat_by_its_format(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = api_on(client)
    ann = bearer(register(api, "ann")["token"])
    made = api.post("/v1/players/me/webhooks", json={"url": "https://discord.com/api/webhooks/1/a", "format": "discord"},
                    headers=ann)
    assert made.status_code == 201 and made.json["format"] == "discord"
    plain = api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/x"}, headers=ann)
    assert plain.json["format"] == "meeple"
    assert [hook["format"] for hook in api.get("/v1/players/me/webhooks", headers=ann).json["webhooks"]] == ["discord", "meeple"]
    refused = api.post("/v1/players/me/webhooks", json={"url": "https://hooks.example.com/y", "format": "irc"}, headers=ann)
    assert refused.status_code == 422 and "format" in refused.json["errors"]
