"""Forks: a new game that opens with another's events up to a version and plays on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fakeredis
import pytest

from events.log_file import read_log
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_export import finished_game, play_to_end, run_cli
from tests.service.test_games_api import bearer, seat_all
from tests.service.test_streams import all_events, move_ends, play_moves


@pytest.mark.parametrize(("name", "seats"), [("taki", 3), ("djambi", 4), ("bahama_taxi", 2)])
def test_a_fork_of_a_finished_game_opens_at_the_version_and_plays_to_a_valid_end(
        api: ContractClient, name: str, seats: int) -> None:
    origin = finished_game(api, name, seats)
    log = all_events(api, origin)
    version = move_ends(log)[5]
    answer = api.post(f"/v1/games/{origin}/fork", json={"version": version})
    names = [seat["name"] for seat in api.get(f"/v1/games/{origin}").json["seats"]]  # who played the copied opening
    assert answer.status_code == 201 and answer.json["forked_from"] == {"game_id": origin, "version": version, "names": names}
    fork = answer.json["id"]
    assert answer.json["status"] == "waiting" and answer.json["game"] == name
    tokens = seat_all(api, fork, seats)
    copied = all_events(api, fork)
    assert [e["type"] for e in copied[version:]] == ([] if name == "djambi" else ["hidden_cards_redealt"])
    # each copied move keeps its command apart, and the fresh deal is one more: a fork's log is decided again too
    assert {e["actor"] for e in copied} == {"fork"} and len({e["command_id"] for e in copied}) == 6 + (name != "djambi")
    assert api.get(f"/v1/games/{fork}").json["table"] == api.get(f"/v1/games/{origin}/states/{version}").json["table"]
    play_to_end(api, fork, tokens, resign_after=10)
    game = api.get(f"/v1/games/{fork}").json
    assert game["status"] == "finished" and game["result"]["ranking"] and game["version"] > version
    assert [e["payload"] for e in all_events(api, fork)[:version]] == [e["payload"] for e in log[:version]]
    assert api.get(f"/v1/games/{origin}").json["version"] == len(log)  # the origin is untouched
    exported = api.get(f"/v1/games/{fork}/export").data
    assert read_log(exported.decode().splitlines()).format_version == 2
    imported = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"})
    assert imported.status_code == 201 and imported.json["checked"] == "redecided", imported.json


def test_a_fork_with_every_seat_to_bots_starts_at_once(api: ContractClient) -> None:
    origin = finished_game(api, "taki", 2)
    version = move_ends(all_events(api, origin))[3]
    bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "greedy"}]
    fork = api.post(f"/v1/games/{origin}/fork", json={"version": version, "bots": bots}).json
    assert fork["status"] == "active" and fork["version"] == version + 1 and fork["seats"][1]["bot"] == "greedy"


def test_forks_that_cannot_be_made_are_refused_with_the_reason(api: ContractClient) -> None:
    origin = finished_game(api, "taki", 2)
    log = all_events(api, origin)
    inside = next(e["version"] for e, after in zip(log, log[1:]) if after["command_id"] == e["command_id"])
    cases = [
        ({"version": inside}, 422, "not_a_move_boundary"),
        ({"version": len(log)}, 422, "game_over_at_version"),
        ({"version": len(log) + 1}, 404, "version_not_found"),
        ({"version": 0}, 422, "validation_error"),
        ({}, 422, "validation_error"),
        ({"version": 1, "bots": [{"seat": 2, "level": "random"}]}, 422, "validation_error"),
        ({"version": 1, "colour": "red"}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        answer = api.post(f"/v1/games/{origin}/fork", json=body)
        assert (answer.status_code, answer.json["code"]) == (status, code), body
    assert api.post("/v1/games/nosuchgame/fork", json={"version": 1}).status_code == 404


def test_a_game_in_play_is_forked_only_with_the_admin_token() -> None:
    api = ContractClient(create_app(unlimited(admin_token="a" * 32), client=fakeredis.FakeRedis()).test_client())
    game_id = api.post("/v1/games", json={"game": "djambi", "seats": 4}).json["id"]
    tokens = seat_all(api, game_id, 4)
    play_moves(api, game_id, tokens, 2)
    version = api.get(f"/v1/games/{game_id}").json["version"]
    assert api.post(f"/v1/games/{game_id}/fork", json={"version": version}).json["code"] == "game_not_finished"
    assert api.post(f"/v1/games/{game_id}/fork", json={"version": version}, headers=bearer("a" * 32)).status_code == 201


def finished_game_with(api: ContractClient, name: str, seats: int, options: dict[str, Any]) -> str:
    game_id = api.post("/v1/games", json={"game": name, "seats": seats, "options": options}).json["id"]
    play_to_end(api, game_id, seat_all(api, game_id, seats))
    return game_id  # type: ignore[no-any-return]


def exported(api: ContractClient, game_id: str) -> list[str]:
    return api.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()  # type: ignore[no-any-return]


@pytest.mark.parametrize(("name", "seats", "options"), [("taki", 3, {}), ("bahama_taxi", 2, {"hand_size": 4})])
def test_a_forks_hidden_cards_are_not_the_ones_the_originals_public_log_shows(
        api: ContractClient, tmp_path: Path, name: str, seats: int, options: dict[str, Any]) -> None:
    origin = finished_game_with(api, name, seats, options)
    log = read_log(exported(api, origin))
    version = move_ends(all_events(api, origin))[2]
    known = log.game.replay(log.game.parse_options(log.options, seats), seats, log.events[:version])
    known_hands = [sorted(map(str, hand)) for hand in known.hands]  # what anyone rebuilds from the public log
    known_pile = [str(card) for card in known.draw_pile]
    assert len(known_hands[0]) >= 4
    fork = api.post(f"/v1/games/{origin}/fork", json={"version": version}).json["id"]
    tokens = seat_all(api, fork, seats)
    table = api.get(f"/v1/games/{fork}", headers=bearer(tokens[0])).json["table"]
    assert sorted(table["hand"]) != known_hands[0] and table["hand_sizes"] == [len(hand) for hand in known_hands]
    redealt = all_events(api, fork, bearer(tokens[0]))[version:]
    assert [e["type"] for e in redealt] == ["hidden_cards_redealt"] and redealt[0]["actor"] == "fork"
    payload = redealt[0]["payload"]
    assert payload["hands"][0] == table["hand"] and set(payload["order"]) == {"?"} and payload["salt"] == "?"
    assert all(set(hand) <= {"?"} for hand in payload["hands"][1:]) and len(payload["commitment"]) == 64
    play_to_end(api, fork, tokens, resign_after=10)
    lines = exported(api, fork)
    revealed = read_log(lines).events[version]
    assert list(revealed.order[len(table["hand"]) * seats:]) != known_pile  # the draw pile is dealt anew too
    assert list(revealed.hands[0]) == table["hand"]
    path = tmp_path / "fork.jsonl"
    path.write_text("\n".join(lines))
    verified = run_cli("verify", str(path))
    assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout


def test_a_taki_game_forked_in_play_deals_its_hidden_cards_anew_too() -> None:
    api = ContractClient(create_app(unlimited(admin_token="a" * 32), client=fakeredis.FakeRedis()).test_client())
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    play_moves(api, game_id, seat_all(api, game_id, 2), 2)
    version = api.get(f"/v1/games/{game_id}").json["version"]
    fork = api.post(f"/v1/games/{game_id}/fork", json={"version": version}, headers=bearer("a" * 32)).json["id"]
    tokens = seat_all(api, fork, 2)
    redealt = all_events(api, fork, bearer(tokens[1]))[version:]
    assert [e["type"] for e in redealt] == ["hidden_cards_redealt"] and redealt[0]["actor"] == "fork"
    assert redealt[0]["payload"]["hands"][1] == api.get(f"/v1/games/{fork}", headers=bearer(tokens[1])).json["table"]["hand"]
    assert set(redealt[0]["payload"]["hands"][0]) == {"?"}
