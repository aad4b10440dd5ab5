"""Copies of a private game over the API: a fork, an import of its export and a rematch of an
unlisted game are unlisted, and no answer anyone but their seats reads names it; on fakeredis
and on a real Redis server alike."""

from __future__ import annotations

import json

import pytest
import redis

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


@pytest.fixture
def api(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(), client=client).test_client())


def finished(api: ContractClient, unlisted: bool) -> tuple[str, int, dict[str, str], dict[str, str]]:
    """A finished TAKI game of ann and bo (by their player tokens): its id, the version its opening
    ends at, ann and bo."""
    ann, bo = register(api, "ann"), register(api, "bo")
    game = api.post("/v1/games", json={"game": "taki", "seats": 2, "unlisted": unlisted}).json["id"]
    for player in (ann, bo):
        api.post(f"/v1/games/{game}/join", json={"name": player["name"]}, headers=bearer(player["token"]))
    opening = api.get(f"/v1/games/{game}").json["version"]
    api.post(f"/v1/games/{game}/commands", json={"type": "forfeit"}, headers=bearer(ann["token"]))
    assert api.get(f"/v1/games/{game}").json["status"] == "finished"
    return game, opening, ann, bo


def import_log(api: ContractClient, log: str) -> dict[str, object]:
    answer = api.post("/v1/games/import", data=log, content_type="application/x-ndjson")
    assert answer.status_code == 201, answer.json
    return answer.json  # type: ignore[no-any-return]


def public_reads(api: ContractClient, *games: str) -> list[str]:
    """Every answer a spectator reads about `games`, and every page of the listing."""
    answers = [api.get(f"/v1/games?status={status}&limit=100") for status in ("waiting", "active", "finished")]
    answers += [api.get("/v1/games?limit=100")]
    answers += [api.get(f"/v1/games/{game}{path}") for game in games for path in ("", "/events", "/states/0")]
    return [answer.get_data(as_text=True) for answer in answers]


def test_a_fork_an_import_and_a_rematch_of_an_unlisted_game_are_unlisted_and_unnamed(api: ContractClient) -> None:
    origin, opening, ann, bo = finished(api, unlisted=True)
    fork = api.post(f"/v1/games/{origin}/fork", json={"version": opening})
    assert fork.status_code == 201 and fork.json["unlisted"] and fork.json["forked_from"] is None
    export = api.get(f"/v1/games/{origin}/export").get_data(as_text=True)
    header = json.loads(export.splitlines()[0])
    assert "id" not in header and header["unlisted"] is True  # the export names no private game
    imported = import_log(api, export)
    assert imported["unlisted"] and imported["original_id"] is None
    header["id"] = origin  # a header that names it all the same (an export made before, or written by hand)
    renamed = import_log(api, "\n".join([json.dumps(header), *export.splitlines()[1:]]))
    assert renamed["unlisted"] and renamed["original_id"] is None
    del header["unlisted"]
    stripped = import_log(api, "\n".join([json.dumps(header), *export.splitlines()[1:]]))
    assert stripped["unlisted"] and stripped["original_id"] is None  # the server knows the game it names is unlisted
    rematch = api.post(f"/v1/games/{origin}/rematch", headers=bearer(ann["token"]))
    assert rematch.status_code == 201 and rematch.json["unlisted"]
    copies = [fork.json["id"], str(imported["id"]), str(renamed["id"]), str(stripped["id"]), rematch.json["id"]]
    for text in public_reads(api, *copies):
        assert origin not in text, text[:300]
    listed = " ".join(public_reads(api)[:4])
    assert not any(copy in listed for copy in copies)
    # the copies' own seats are told where they come from
    seat = api.post(f"/v1/games/{fork.json['id']}/join", json={"name": "cy"}).json["token"]
    assert api.get(f"/v1/games/{fork.json['id']}", headers=bearer(seat)).json["forked_from"] == {
        "game_id": origin, "version": opening, "names": ["ann", "bo"]}
    assert api.get(f"/v1/games/{rematch.json['id']}").json["rematch_of"] is None
    inbox = api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["games"]
    assert [entry["game"]["rematch_of"] for entry in inbox if entry["game"]["id"] == rematch.json["id"]] == [None]
    api.post(f"/v1/games/{rematch.json['id']}/join", json={"name": "bo"}, headers=bearer(bo["token"]))
    assert api.get(f"/v1/games/{rematch.json['id']}", headers=bearer(bo["token"])).json["rematch_of"] == origin


def test_a_copy_of_a_listed_game_names_it(api: ContractClient) -> None:
    origin, opening, ann, _ = finished(api, unlisted=False)
    fork = api.post(f"/v1/games/{origin}/fork", json={"version": opening}).json
    assert not fork["unlisted"] and fork["forked_from"] == {"game_id": origin, "version": opening, "names": ["ann", "bo"]}
    export = api.get(f"/v1/games/{origin}/export").get_data(as_text=True)
    imported = import_log(api, export)
    assert not imported["unlisted"] and imported["original_id"] == origin
    rematch = api.post(f"/v1/games/{origin}/rematch", headers=bearer(ann["token"])).json["id"]
    assert api.get(f"/v1/games/{rematch}").json["rematch_of"] == origin
