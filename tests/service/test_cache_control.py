"""No API answer is kept by a cache, least of all one holding a secret (a player's token, a link's
code, a seat's token): every /v1 answer is `no-store`, but a game read answered with its version as
ETag, which a browser keeps for itself only (`private`) and asks again for each time (`no-cache`),
so that If-None-Match still answers 304."""

from __future__ import annotations

from tests.contract import ContractClient
from tests.service.test_games_api import bearer
from tests.service.test_invitations_api import create, join
from tests.service.test_players_api import register


def test_answers_carrying_secrets_are_not_stored_and_game_reads_are_revalidated(api: ContractClient) -> None:
    ann = register(api, "ann")
    auth = bearer(ann["token"])
    made = create(api, ann["token"], reserved=[{"seat": 2, "link": True}])
    game = made.json["id"]
    secrets = {
        "register": api.post("/v1/players", json={"name": "bo"}),
        "new token": api.post("/v1/players/me/tokens", json={"name": "Phone"}, headers=auth),
        "tokens": api.get("/v1/players/me/tokens", headers=auth),
        "sign-in": api.post("/v1/sign-ins", json={"link": "x" * 43, "device": "Phone"}),
        "created with a link's code": made,
        "invite links": api.get(f"/v1/games/{game}/invite-links", headers=auth),
        "join": join(api, game, "ann", ann["token"], seat=0),
        "me": api.get("/v1/players/me", headers=auth),
        "lobby": api.get("/v1/games"),
    }
    assert {name: answer.headers.get("Cache-Control") for name, answer in secrets.items()} == dict.fromkeys(secrets, "no-store")
    read = api.get(f"/v1/games/{game}", headers=auth)
    assert read.headers["Cache-Control"] == "private, no-cache" and "Authorization" in read.headers["Vary"]
    again = api.get(f"/v1/games/{game}", headers=auth | {"If-None-Match": read.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "private, no-cache"
    assert api.client.get("/web/style.css").headers.get("Cache-Control") != "no-store"  # the client's files are kept
