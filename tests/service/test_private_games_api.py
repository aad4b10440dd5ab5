"""Private games over the API: unlisted games, seats reserved for registered players and their
invitations, and rematches."""

from __future__ import annotations

from typing import Any

import fakeredis
import pytest

from events import keys
from events.records import GameRecords
from events.store import EventStore
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register


@pytest.fixture
def store() -> EventStore:
    return EventStore(fakeredis.FakeRedis())


@pytest.fixture
def api(store: EventStore) -> ContractClient:
    return ContractClient(create_app(unlimited(lobby_seconds=600), client=store.redis).test_client())


def create(api: ContractClient, token: str | None = None, **settings: Any) -> dict[str, Any]:
    """A new game, created with `token` (a player's, which reserving a seat needs) if given."""
    answer = api.post("/v1/games", json={"game": "taki", "seats": 3} | settings, headers=bearer(token) if token else {})
    assert answer.status_code == 201, answer.json
    return answer.json  # type: ignore[no-any-return]


def join(api: ContractClient, game_id: str, name: str, token: str | None = None, **body: Any) -> Any:
    return api.post(f"/v1/games/{game_id}/join", json={"name": name, **body}, headers=bearer(token) if token else {})


def listed(api: ContractClient, query: str) -> list[str]:
    """Every game id a listing shows, following its pages one game at a time."""
    found: list[str] = []
    cursor: str | None = ""
    while cursor is not None:
        page = api.get(f"/v1/games?limit=1{cursor and f'&cursor={cursor}'}{query}")
        assert page.status_code == 200
        found += [game["id"] for game in page.json["games"]]
        cursor = page.json["next"]
    return found


def inbox(api: ContractClient, token: str) -> list[tuple[str, int | None, int | None]]:
    """Each inbox entry's game id, seat and invitation."""
    entries = api.get("/v1/players/me/inbox", headers=bearer(token)).json["games"]
    return [(entry["game"]["id"], entry["seat"], entry["invitation"]) for entry in entries]


def test_an_unlisted_game_is_in_no_listing_yet_anyone_with_its_id_reads_and_joins_it(api: ContractClient) -> None:
    shown = create(api)["id"]
    hidden = create(api, seats=2, unlisted=True)
    assert hidden["unlisted"] and not api.get(f"/v1/games/{shown}").json["unlisted"]
    queries = ["", "&game=taki", "&status=waiting", "&game=taki&status=waiting", "&status=active", "&game=djambi"]
    for query in queries:
        assert hidden["id"] not in listed(api, query), query
    assert listed(api, "&status=waiting") == [shown]
    game = api.get(f"/v1/games/{hidden['id']}")
    assert game.status_code == 200 and game.json["unlisted"] and game.json["status"] == "waiting"
    for name in ("ann", "bo"):
        assert join(api, hidden["id"], name).status_code == 201
    assert api.get(f"/v1/games/{hidden['id']}").json["status"] == "active"
    for query in queries:
        assert hidden["id"] not in listed(api, query), query


def test_unlisted_takes_a_boolean_only(api: ContractClient) -> None:
    for wrong in ("true", 1, None):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "unlisted": wrong})
        assert answer.status_code == 422 and "unlisted" in answer.json["errors"], wrong


def test_a_reserved_seat_refuses_a_stranger_and_seats_its_player(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    game = create(api, ann["token"], reserved=[{"seat": 1, "player": bo["id"]}])
    assert [seat["reserved_for"] for seat in game["seats"]] == [None, bo["id"], None]
    for token in (None, ann["token"]):
        refused = join(api, game["id"], "eve", token, seat=1)
        assert refused.status_code == 403 and refused.json["code"] == "seat_reserved", refused.json
        assert refused.json["reason"] == "seat_reserved" and "reserved" in refused.json["detail"]
    bot = join(api, game["id"], "robo", bot="random", seat=1)
    assert bot.status_code == 403 and bot.json["code"] == "seat_reserved"
    elsewhere = join(api, game["id"], "bo", bo["token"], seat=0)
    assert elsewhere.status_code == 409 and elsewhere.json["reason"] == "reserved_for_you"
    assert join(api, game["id"], "eve").json["seat"] == 0  # no seat named: the lowest free one reserved for nobody
    assert join(api, game["id"], "bo", bo["token"]).json["seat"] == 1  # their own, unasked
    seats = api.get(f"/v1/games/{game['id']}").json["seats"]
    assert [(seat["name"], seat["reserved"]) for seat in seats] == [("eve", False), ("bo", True), (None, False)]


def test_when_every_free_seat_is_reserved_a_stranger_is_told_so(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    game = create(api, ann["token"], seats=2, reserved=[{"seat": 0, "player": ann["id"]}, {"seat": 1, "player": bo["id"]}])
    refused = join(api, game["id"], "eve")
    assert refused.status_code == 403 and refused.json["reason"] == "seats_reserved"
    assert join(api, game["id"], "bo", bo["token"]).json["seat"] == 1
    assert join(api, game["id"], "ann", ann["token"]).json["seat"] == 0
    assert api.get(f"/v1/games/{game['id']}").json["status"] == "active"


def test_an_invitation_is_in_the_inbox_until_taken_and_declined_when_the_seat_is_left(
        api: ContractClient, store: EventStore) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    elsewhere = create(api, seats=2)["id"]
    join(api, elsewhere, "bo", bo["token"])
    game = create(api, ann["token"], unlisted=True, reserved=[{"seat": 2, "player": bo["id"]}])["id"]
    announced = [fields[b"game"].decode() for _, fields in store.redis.xrange(keys.feed(""))]
    assert game in announced  # the inbox streams hear of the invitation
    assert inbox(api, bo["token"]) == [(game, None, 2), (elsewhere, 0, None)]  # invitations before the rest
    assert inbox(api, ann["token"]) == []
    token = join(api, game, "bo", bo["token"]).json["token"]
    assert inbox(api, bo["token"]) == [(game, 2, None), (elsewhere, 0, None)]
    left = api.post(f"/v1/games/{game}/leave", headers=bearer(token))
    assert left.status_code == 200 and left.json["seats"][2] == {
        "seat": 2, "name": None, "bot": None, "budget": None, "reserved": False, "reserved_for": None,
        "waits_for": None, "invite_code": None, "player": None}
    assert inbox(api, bo["token"]) == [(elsewhere, 0, None)]
    assert join(api, game, "eve", seat=2).json["seat"] == 2  # the seat is anyone's now


def test_bad_reservations_are_refused_naming_the_field(api: ContractClient) -> None:
    ann = register(api, "ann")
    wrongs: list[Any] = [
        [{"seat": 0, "player": "nobody-at-all"}],  # no such player
        [{"seat": 3, "player": ann["id"]}],  # no such seat
        [{"seat": 0, "player": ann["id"]}, {"seat": 0, "player": ann["id"]}],
        [{"seat": 0, "player": ann["id"]}, {"seat": 1, "player": ann["id"]}],  # one seat a player
        [{"seat": 0, "player": "not an id!"}],
        [{"seat": 0}],
        {"seat": 0, "player": ann["id"]},
    ]
    for wrong in wrongs:
        answer = api.post("/v1/games", json={"game": "taki", "seats": 3, "reserved": wrong}, headers=bearer(ann["token"]))
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", wrong
        assert "reserved" in answer.json["errors"], wrong
    missing = api.post("/v1/games", json={"game": "taki", "seats": 3, "reserved": wrongs[0]}, headers=bearer(ann["token"]))
    assert missing.json["errors"] == {"reserved": ["No registered player 'nobody-at-all'."]}
    bot_seat = api.post("/v1/games", json={"game": "taki", "seats": 3, "reserved": [{"seat": 1, "player": ann["id"]}],
                                           "bots": [{"seat": 1, "level": "random"}]}, headers=bearer(ann["token"]))
    assert bot_seat.status_code == 422 and "reserved" in bot_seat.json["errors"]


def finished_with_players(api: ContractClient) -> tuple[str, dict[str, str], dict[str, str], str]:
    """A finished 4-seat TAKI game: ann and bo by their player tokens, an AI that searches, and
    cy by a seat token only; the game's id, ann, bo and cy's seat token."""
    ann, bo = register(api, "ann"), register(api, "bo")
    game = create(api, seats=4, options={"taki_close": "explicit"}, lobby_seconds=900, spectator_delay=2,
                  turn_deadline={"seconds": 3600, "policy": "skip"},
                  bots=[{"seat": 2, "level": "search", "budget": {"iterations": 5}}])["id"]
    join(api, game, "ann", ann["token"], seat=0)
    join(api, game, "bo", bo["token"], seat=1)
    cy = join(api, game, "cy", seat=3).json["token"]
    early = api.post(f"/v1/games/{game}/rematch", headers=bearer(ann["token"]))
    assert early.status_code == 409 and early.json["code"] == "game_not_finished"
    for token in (ann["token"], bo["token"], cy):
        assert api.post(f"/v1/games/{game}/commands", json={"type": "forfeit"}, headers=bearer(token)).status_code == 201
    assert api.get(f"/v1/games/{game}").json["status"] == "finished"
    return game, ann, bo, cy


def test_a_rematch_is_made_once_rotated_reserved_and_starts_when_all_accept(api: ContractClient) -> None:
    origin, ann, bo, cy = finished_with_players(api)
    assert api.post(f"/v1/games/{origin}/rematch").status_code == 401
    answer = api.post(f"/v1/games/{origin}/rematch", headers=bearer(ann["token"]))
    assert answer.status_code == 201 and answer.headers["Location"].endswith(f"/v1/games/{answer.json['id']}")
    rematch = answer.json
    assert rematch["unlisted"] and rematch["rematch_of"] == origin and rematch["status"] == "waiting"
    assert [(seat["reserved_for"], seat["bot"], seat["budget"]) for seat in rematch["seats"]] == [
        (None, None, None), (ann["id"], None, None), (bo["id"], None, None), (None, "search", {"iterations": 5, "seconds": 30})]
    assert rematch["turn_deadline"] == {"seconds": 3600, "policy": "skip", "level": None, "vacation_days": 0, "budget": None,
                                        "clock": "per_move", "increment": 0, "maximum": None, "weekends": False}
    assert rematch["spectator_delay"] == 2 and rematch["lobby_until"] == rematch["created"] + 900_000
    game = api.get(f"/v1/games/{rematch['id']}").json
    assert game["options"] == api.get(f"/v1/games/{origin}").json["options"] and game["options"]["taki_close"] == "explicit"
    again = api.post(f"/v1/games/{origin}/rematch", headers=bearer(cy))
    assert again.status_code == 200 and again.json["id"] == rematch["id"]
    assert api.get(f"/v1/games/{origin}", headers=bearer(bo["token"])).json["rematch"] == rematch["id"]
    assert api.get(f"/v1/games/{origin}").json["rematch"] is None  # a spectator is not shown the unlisted rematch
    assert rematch["id"] not in listed(api, "") and rematch["id"] not in listed(api, "&status=waiting")
    assert all(game["rematch"] is None for game in api.get("/v1/games?status=finished").json["games"])
    assert (rematch["id"], None, 1) in inbox(api, ann["token"])
    assert join(api, rematch["id"], "eve", seat=1).json["code"] == "seat_reserved"
    assert join(api, rematch["id"], "ann", ann["token"]).json["seat"] == 1
    assert join(api, rematch["id"], "cy").json["seat"] == 0  # played by a seat token only: the seat is open
    assert api.get(f"/v1/games/{rematch['id']}").json["status"] == "waiting"
    assert join(api, rematch["id"], "bo", bo["token"]).json["seat"] == 2
    started = api.get(f"/v1/games/{rematch['id']}").json
    assert started["status"] == "active" and started["version"] > 0
    assert [seat["name"] for seat in started["seats"]] == ["cy", "ann", "bo", "search bot"]


def test_a_rematch_needs_a_seat_of_a_finished_game(api: ContractClient) -> None:
    assert api.post("/v1/games/nosuchgame/rematch").json["code"] == "game_not_found"
    game = create(api, seats=2)["id"]
    token = join(api, game, "ann").json["token"]
    waiting = api.post(f"/v1/games/{game}/rematch", headers=bearer(token))
    assert waiting.status_code == 409 and waiting.json["code"] == "game_not_finished"
    other = join(api, create(api, seats=2)["id"], "bo").json["token"]
    assert api.post(f"/v1/games/{game}/rematch", headers=bearer(other)).status_code == 401


def test_a_rematch_of_a_rematch_names_its_own_origin(api: ContractClient) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    first = create(api, seats=2)["id"]
    join(api, first, "ann", ann["token"])
    join(api, first, "bo", bo["token"])
    api.post(f"/v1/games/{first}/commands", json={"type": "forfeit"}, headers=bearer(ann["token"]))
    second = api.post(f"/v1/games/{first}/rematch", headers=bearer(bo["token"])).json["id"]
    for player in (bo, ann):  # bo had seat 1: now seat 0
        join(api, second, player["name"], player["token"])
    assert [seat["name"] for seat in api.get(f"/v1/games/{second}").json["seats"]] == ["bo", "ann"]
    api.post(f"/v1/games/{second}/commands", json={"type": "forfeit"}, headers=bearer(bo["token"]))
    third = api.post(f"/v1/games/{second}/rematch", headers=bearer(ann["token"])).json
    assert third["rematch_of"] == second and [seat["reserved_for"] for seat in third["seats"]] == [ann["id"], bo["id"]]


def test_a_fork_may_be_unlisted_with_seats_reserved(api: ContractClient) -> None:
    ann = register(api, "ann")
    origin = create(api, seats=2)["id"]
    tokens = [join(api, origin, name).json["token"] for name in ("ann", "bo")]
    version = api.post(f"/v1/games/{origin}/commands", json={"type": "draw"}, headers=bearer(tokens[0])).json["version"]
    api.post(f"/v1/games/{origin}/commands", json={"type": "forfeit"}, headers=bearer(tokens[1]))
    fork = api.post(f"/v1/games/{origin}/fork", json={"version": version, "unlisted": True,
                                                      "reserved": [{"seat": 0, "player": ann["id"]}]},
                    headers=bearer(ann["token"]))
    assert fork.status_code == 201 and fork.json["unlisted"] and fork.json["seats"][0]["reserved_for"] == ann["id"]
    assert fork.json["id"] not in listed(api, "") and inbox(api, ann["token"]) == [(fork.json["id"], None, 0)]


def test_of_two_rematches_asked_at_once_the_one_named_first_is_kept_and_the_other_discarded(
        api: ContractClient, store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    origin, ann, _, _ = finished_with_players(api)
    name_rematch = GameRecords.name_rematch

    def another_seat_first(self: GameRecords, game_id: str, rematch_id: str) -> str:
        store.games.create("first", "taki", {}, 4, unlisted=True, rematch_of=game_id)
        name_rematch(self, game_id, "first")
        return name_rematch(self, game_id, rematch_id)

    monkeypatch.setattr(GameRecords, "name_rematch", another_seat_first)
    answer = api.post(f"/v1/games/{origin}/rematch", headers=bearer(ann["token"]))
    assert answer.status_code == 200 and answer.json["id"] == "first"
    games = {key.split(b"{")[1].split(b"}")[0] for key in store.redis.keys("meeple:{*}:meta")}
    assert games == {origin.encode(), b"first"}  # the other rematch is gone, and invited nobody
    assert inbox(api, ann["token"]) == [(origin, 0, None)]
