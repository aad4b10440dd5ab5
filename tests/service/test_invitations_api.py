"""Invitations over the API: a signed-in creator, declining, player ids shown only to whom they
concern, the daily bound on invitations from strangers, blocks, and the daily bound on the games
one address creates; on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import re
from typing import Any

import pytest
import redis

from events.store import EventStore
from runtime.config import Rate
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


@pytest.fixture
def api(client: redis.Redis) -> ContractClient:  # type: ignore[type-arg]
    return ContractClient(create_app(unlimited(lobby_seconds=600), client=client).test_client())


def create(api: ContractClient, token: str | None = None, **settings: Any) -> Any:
    return api.post("/v1/games", json={"game": "taki", "seats": 3} | settings, headers=bearer(token) if token else {})


def invite(api: ContractClient, sender: dict[str, str], invitee: dict[str, str], **settings: Any) -> Any:
    return create(api, sender["token"], unlisted=True, reserved=[{"seat": 2, "player": invitee["id"]}], **settings)


def join(api: ContractClient, game_id: str, name: str, token: str | None = None, **body: Any) -> Any:
    return api.post(f"/v1/games/{game_id}/join", json={"name": name, **body}, headers=bearer(token) if token else {})


def inbox(api: ContractClient, player: dict[str, str]) -> list[tuple[str, int | None, int | None]]:
    entries = api.get("/v1/players/me/inbox", headers=bearer(player["token"])).json["games"]
    return [(entry["game"]["id"], entry["seat"], entry["invitation"]) for entry in entries]


def played_together(api: ContractClient, *players: dict[str, str]) -> str:
    """A game the players' tokens started together (which makes them each other's contacts)."""
    game_id = create(api, seats=len(players)).json["id"]
    for player in players:
        assert join(api, game_id, player["name"], player["token"]).status_code == 201
    assert api.get(f"/v1/games/{game_id}").json["status"] == "active"
    return str(game_id)


def test_invitations_need_a_signed_in_creator(api: ContractClient, client: redis.Redis) -> None:  # type: ignore[type-arg]
    ann, bo = register(api, "ann"), register(api, "bo")
    reserved = [{"seat": 2, "player": bo["id"]}]
    anonymous = create(api, reserved=reserved)
    assert anonymous.status_code == 401 and anonymous.json["code"] == "unauthorized", anonymous.json
    assert anonymous.json["reason"] == "token_missing" and "player token" in anonymous.json["detail"]
    seat_token = join(api, create(api).json["id"], "eve").json["token"]
    by_seat = create(api, seat_token, reserved=reserved)
    assert by_seat.status_code == 401 and by_seat.json["reason"] == "token_unknown"
    assert inbox(api, bo) == []
    made = invite(api, ann, bo)
    assert made.status_code == 201
    assert EventStore(client).games.get(made.json["id"]).creator == ann["id"]
    assert create(api).status_code == 201  # a game inviting nobody needs no token
    origin = played_together(api, ann, bo)
    fork = {"version": api.get(f"/v1/games/{origin}").json["version"], "reserved": [{"seat": 1, "player": bo["id"]}]}  # at the opening's end
    api.post(f"/v1/games/{origin}/commands", json={"type": "forfeit"}, headers=bearer(ann["token"]))
    assert api.post(f"/v1/games/{origin}/fork", json=fork).json["reason"] == "token_missing"
    forked = api.post(f"/v1/games/{origin}/fork", json=fork, headers=bearer(ann["token"]))
    assert forked.status_code == 201 and EventStore(client).games.get(forked.json["id"]).creator == ann["id"]
    rematch = api.post(f"/v1/games/{origin}/rematch", headers=bearer(bo["token"])).json["id"]
    assert EventStore(client).games.get(rematch).creator == bo["id"]  # the seat that asked


def test_a_declined_invitation_leaves_the_inbox_and_does_not_come_back(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    game = invite(api, ann, bo).json["id"]
    assert inbox(api, bo) == [(game, None, 2)]
    assert api.delete(f"/v1/players/me/invitations/{game}").status_code == 401
    assert api.delete(f"/v1/players/me/invitations/{game}", headers=bearer(ann["token"])).json["code"] == "invitation_not_found"
    declined = api.delete(f"/v1/players/me/invitations/{game}", headers=bearer(bo["token"]))
    assert declined.status_code == 204
    assert inbox(api, bo) == []
    again = api.delete(f"/v1/players/me/invitations/{game}", headers=bearer(bo["token"]))
    assert again.status_code == 404 and again.json["code"] == "invitation_not_found"
    seats = api.get(f"/v1/games/{game}").json["seats"]
    assert [seat["reserved"] for seat in seats] == [False, False, False]  # the seat is anyone's now
    assert join(api, game, "eve", seat=2).json["seat"] == 2
    for name in ("fay", "gus"):
        join(api, game, name)
    assert api.get(f"/v1/games/{game}").json["status"] == "active" and inbox(api, bo) == []
    assert api.delete("/v1/players/me/invitations/nosuchgame", headers=bearer(bo["token"])).json["code"] == "game_not_found"


def test_joining_then_leaving_declines_the_invitation(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    game = invite(api, ann, bo).json["id"]
    seat_token = join(api, game, "bo", bo["token"]).json["token"]
    assert inbox(api, bo) == [(game, 2, None)]
    declined = api.delete(f"/v1/players/me/invitations/{game}", headers=bearer(bo["token"]))
    assert declined.status_code == 404  # a seat held is left, not declined
    left = api.post(f"/v1/games/{game}/leave", headers=bearer(seat_token))
    assert left.status_code == 200 and left.json["seats"][2]["reserved"] is False
    assert inbox(api, bo) == []
    assert join(api, game, "eve", seat=2).json["seat"] == 2


def test_a_strangers_21st_invitation_of_the_day_is_refused_while_a_contacts_passes(api: ContractClient) -> None:
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    played_together(api, bo, cy)
    for _ in range(20):
        assert invite(api, ann, bo).status_code == 201
    refused = invite(api, ann, bo)
    assert refused.status_code == 429 and refused.json["code"] == "invitation_limited", refused.json
    assert refused.json["limit"] == 20 and int(refused.headers["Retry-After"]) > 0
    assert len(inbox(api, bo)) == 21  # twenty invitations and the game with cy; the refused game was not made
    for _ in range(3):
        assert invite(api, cy, bo).status_code == 201  # a contact's invitations are not counted
    assert invite(api, bo, ann).status_code == 201  # each player has their own day
    assert invite(api, ann, ann).status_code == 201  # a seat reserved for oneself is no invitation from a stranger


def test_a_blocked_players_invitation_never_arrives(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    assert api.put(f"/v1/players/me/blocks/{ann['id']}").status_code == 401
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204  # again: harmless
    blocks = api.get("/v1/players/me/blocks", headers=bearer(bo["token"])).json["blocks"]
    assert [(block["player"], block["name"]) for block in blocks] == [(ann["id"], "ann")]
    blocked = invite(api, ann, bo)
    assert blocked.status_code == 201  # answered as any invitation is: ann is not told
    assert blocked.json["seats"][2]["reserved_for"] == bo["id"]
    assert inbox(api, bo) == []
    assert api.delete(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    assert api.delete(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).json["code"] == "block_not_found"
    arrived = invite(api, ann, bo).json["id"]
    assert inbox(api, bo) == [(arrived, None, 2)]
    unknown = api.put("/v1/players/me/blocks/nobody-at-all", headers=bearer(bo["token"]))
    assert unknown.status_code == 404 and unknown.json["code"] == "player_not_found"
    assert api.put(f"/v1/players/me/blocks/{bo['id']}", headers=bearer(bo["token"])).status_code == 422


def test_a_blocked_players_invitations_take_nothing_of_the_days_bound(api: ContractClient) -> None:
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    assert api.put(f"/v1/players/me/blocks/{ann['id']}", headers=bearer(bo["token"])).status_code == 204
    for _ in range(25):
        assert invite(api, ann, bo).status_code == 201  # none arrives, none is counted
    assert invite(api, cy, bo).status_code == 201  # a stranger bo does not block still reaches bo
    assert len(inbox(api, bo)) == 1


def test_a_player_blocks_a_bounded_number_of_players(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(max_blocks=2), client=client).test_client())
    ann, *others = (register(api, name) for name in ("ann", "bo", "cy", "di"))
    for other in others[:2]:
        assert api.put(f"/v1/players/me/blocks/{other['id']}", headers=bearer(ann["token"])).status_code == 204
    over = api.put(f"/v1/players/me/blocks/{others[2]['id']}", headers=bearer(ann["token"]))
    assert over.status_code == 409 and over.json["code"] == "too_many_blocks" and over.json["limit"] == 2


def test_games_created_per_address_per_day_are_bounded(client: redis.Redis) -> None:  # type: ignore[type-arg]
    api = ContractClient(create_app(unlimited(games_per_address=Rate(3, 86400)), client=client).test_client())
    made = [create(api, seats=2) for _ in range(3)]
    assert [answer.status_code for answer in made] == [201, 201, 201]
    refused = create(api, seats=2)
    assert refused.status_code == 429 and refused.json["code"] == "game_creation_limited", refused.json
    assert refused.json["limit"] == 3 and 0 < int(refused.headers["Retry-After"]) <= 86400
    elsewhere = api.post("/v1/games", json={"game": "taki", "seats": 2}, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert elsewhere.status_code == 201  # each address has its own day
    game = made[0].json["id"]
    token = [join(api, game, name).json["token"] for name in ("ann", "bo")][0]
    opening = api.get(f"/v1/games/{game}").json["version"]
    api.post(f"/v1/games/{game}/commands", json={"type": "forfeit"}, headers=bearer(token))
    forked = api.post(f"/v1/games/{game}/fork", json={"version": opening})
    assert forked.status_code == 429 and forked.json["code"] == "game_creation_limited"  # a fork is a game created
    imported = api.post("/v1/games/import", data=b"not a log", content_type="application/x-ndjson")
    assert imported.status_code == 429  # refused before its log is read and checked


def test_no_player_id_in_any_answer_a_spectator_reads(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    made = create(api, ann["token"], seats=2, reserved=[{"seat": 0, "player": ann["id"]}, {"seat": 1, "player": bo["id"]}])
    game = made.json["id"]
    assert [seat["reserved_for"] for seat in made.json["seats"]] == [ann["id"], bo["id"]]  # to the creator
    assert [entry["game"]["seats"][1]["reserved_for"] for entry in
            api.get("/v1/players/me/inbox", headers=bearer(bo["token"])).json["games"]] == [bo["id"]]  # to the invitee
    ids = (ann["id"], bo["id"])

    def spectator_reads() -> list[str]:
        answers = [api.get(f"/v1/games/{game}"), api.get("/v1/games"), api.get("/v1/games?status=waiting"),
                   api.get("/v1/games?status=finished"), api.get(f"/v1/games/{game}/events"),
                   api.get(f"/v1/games/{game}/states/0")]
        return [answer.get_data(as_text=True) for answer in answers]

    waiting = spectator_reads()
    assert all('"reserved":true' in text.replace(" ", "") for text in waiting[:3])
    join(api, game, "ann", ann["token"])
    join(api, game, "bo", bo["token"])
    api.post(f"/v1/games/{game}/commands", json={"type": "forfeit"}, headers=bearer(bo["token"]))
    finished = spectator_reads() + [api.get(f"/v1/games/{game}/{path}").get_data(as_text=True)
                                    for path in ("states/1", "export", "stream")]  # a finished game's stream ends
    assert api.get(f"/v1/games/{game}").json["status"] == "finished"
    for text in waiting:
        assert not any(player_id in text for player_id in ids), text[:300]
    for text in finished:  # a seat names the player who sat there (`player`), as it names them; nothing else does
        text = re.sub(r'"player":\s*"[^"]*"', "", text)
        assert not any(player_id in text for player_id in ids), text[:300]


def test_a_seat_is_reserved_by_a_contacts_name_and_shows_whom_it_waits_for(api: ContractClient) -> None:
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    assert api.get("/v1/players/me/contacts", headers=bearer(ann["token"])).json == {"contacts": []}
    played_together(api, ann, bo)
    contacts = api.get("/v1/players/me/contacts", headers=bearer(ann["token"])).json["contacts"]
    assert contacts == [{"id": bo["id"], "name": "bo"}]
    assert api.get("/v1/players/me/contacts").status_code == 401
    made = create(api, ann["token"], reserved=[{"seat": 1, "name": "BO"}])
    assert made.status_code == 201 and inbox(api, bo)[0] == (made.json["id"], None, 1)
    waits = [seat["waits_for"] for seat in api.get(f"/v1/games/{made.json['id']}").json["seats"]]  # to anyone
    assert waits == [None, {"kind": "player", "name": "bo"}, None]
    stranger = create(api, ann["token"], reserved=[{"seat": 1, "name": "cy"}])  # registered, but not ann's contact
    assert stranger.status_code == 422 and stranger.json["code"] == "validation_error"
    assert stranger.json["errors"]["reserved"][0].startswith("No player you have played with is named 'cy'")
    assert inbox(api, cy) == []


def test_a_name_two_contacts_share_is_refused_naming_the_problem(api: ContractClient) -> None:
    ann, bo, other_bo = register(api, "ann"), register(api, "bo"), register(api, "bo")
    played_together(api, ann, bo, other_bo)
    refused = create(api, ann["token"], reserved=[{"seat": 1, "name": "bo"}])
    assert refused.status_code == 422
    assert refused.json["errors"] == {"reserved": [
        "2 players you have played with are named 'bo': invite one by their player id, or by a link."]}
    by_id = create(api, ann["token"], reserved=[{"seat": 1, "player": other_bo["id"]}])  # the id form still works
    assert by_id.status_code == 201 and inbox(api, other_bo)[0] == (by_id.json["id"], None, 1)


@pytest.mark.parametrize("reservation", [{"seat": 1}, {"seat": 1, "name": "bo", "link": True},
                                         {"seat": 1, "player": "x", "name": "bo"}, {"seat": 1, "link": "yes"}])
def test_a_reservation_names_one_invitee(api: ContractClient, reservation: dict[str, Any]) -> None:
    ann = register(api, "ann")
    refused = create(api, ann["token"], reserved=[reservation])
    assert refused.status_code == 422 and refused.json["code"] == "validation_error" and "reserved" in refused.json["errors"]


def test_a_link_seats_one_registered_player_and_its_code_is_the_creators_to_read(api: ContractClient) -> None:
    ann, bo, cy = register(api, "ann"), register(api, "bo"), register(api, "cy")
    assert create(api, reserved=[{"seat": 2, "link": True}]).status_code == 401  # a link has a sender too
    made = create(api, ann["token"], reserved=[{"seat": 2, "link": True}])
    game, code = made.json["id"], made.json["seats"][2]["invite_code"]
    assert made.status_code == 201 and len(code) >= 43 and made.json["seats"][2]["waits_for"] == {"kind": "link", "name": None}
    links = f"/v1/games/{game}/invite-links"
    assert api.get(links, headers=bearer(ann["token"])).json == {"links": [{"seat": 2, "code": code}]}  # seated or not
    assert api.get(links).status_code == 401
    assert (not_hers := api.get(links, headers=bearer(bo["token"]))).status_code == 403
    assert not_hers.json["code"] == "not_the_creator"
    seat_token = join(api, game, "ann", ann["token"], seat=0).json["token"]
    assert api.get(f"/v1/games/{game}", headers=bearer(seat_token)).json["seats"][2]["invite_code"] == code  # again, at the table
    assert api.get(f"/v1/games/{game}").json["seats"][2]["invite_code"] is None  # to no one else
    assert join(api, game, "eve", seat=2).json["code"] == "seat_reserved"
    anonymous = join(api, game, "eve", invite=code)
    assert anonymous.status_code == 401 and anonymous.json["reason"] == "token_missing"
    wrong = join(api, game, "bo", bo["token"], invite=code[::-1])
    assert (wrong.status_code, wrong.json["code"], wrong.json["reason"]) == (403, "seat_reserved", "invite_unknown")
    assert "wrong, or it was used already" in wrong.json["detail"]
    taken = join(api, game, "bo", bo["token"], invite=code)
    assert taken.status_code == 201 and taken.json["seat"] == 2 and inbox(api, bo) == [(game, 2, None)]
    used = join(api, game, "cy", cy["token"], invite=code)
    assert (used.status_code, used.json["reason"]) == (403, "invite_unknown")
    seat = api.get(f"/v1/games/{game}", headers=bearer(seat_token)).json["seats"][2]
    assert (seat["name"], seat["invite_code"], seat["waits_for"]) == ("bo", None, None)
    assert api.get(links, headers=bearer(ann["token"])).json == {"links": []}  # spent
    assert join(api, game, "bo", bo["token"], invite="short").status_code == 422
    assert join(api, game, "bo", bo["token"], invite=code, bot="random").status_code == 422
