"""A finished game's log exported as JSON Lines, and replayed offline by `meeple replay`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import fakeredis
import pytest

from domain import GAMES
from domain.core.codec import to_primitive
from events.errors import LogInvalid
from events.log_file import read_log
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer, seat_all


def finished_game(api: ContractClient, name: str, seats: int) -> str:
    game_id = api.post("/v1/games", json={"game": name, "seats": seats}).json["id"]
    play_to_end(api, game_id, seat_all(api, game_id, seats))
    return game_id  # type: ignore[no-any-return]


def play_to_end(api: ContractClient, game_id: str, tokens: list[str], resign_after: int = 40) -> None:
    """Play the first sensible legal command of the seat to move until the game ends; Djambi
    players, whose long games would take minutes here, resign after `resign_after` moves."""
    moves = 0
    while (game := api.get(f"/v1/games/{game_id}").json)["status"] == "active":
        seat = game["to_move"][0]
        assert api.get(f"/v1/games/{game_id}/export").json["code"] == "game_not_finished"
        if game["game"] == "djambi" and moves >= resign_after:
            command = {"type": "resign"}
        else:
            legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[seat])).json["commands"]
            command = next((c for c in legal if c["type"] in ("play", "pick_up", "move", "step")), legal[0])
        assert api.post(f"/v1/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 201
        moves += 1


@pytest.mark.parametrize(("name", "seats"), [("taki", 2), ("djambi", 3), ("bahama_taxi", 2)])
def test_an_export_replays_offline_to_the_same_state(api: ContractClient, tmp_path: Path, name: str, seats: int) -> None:
    game_id = finished_game(api, name, seats)
    answer = api.get(f"/v1/games/{game_id}/export")
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    lines = answer.get_data(as_text=True).splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "meeple-log" and header["game"] == name and len(lines) - 1 == header_version(api, game_id)
    log = read_log(lines)
    game = GAMES[name]
    state = game.replay(game.parse_options(log.options, seats), seats, log.events)
    assert to_primitive(game.view(state, None)) == api.get(f"/v1/games/{game_id}").json["table"]
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines))
    shown = subprocess.run([sys.executable, "-m", "cli.main", "replay", str(path), "--to", "3", "--as", "0"],
                           capture_output=True, text=True, check=True).stdout
    assert f"version 3 of {len(lines) - 1}" in shown and game.render(game.replay(
        game.parse_options(log.options, seats), seats, log.events[:3]), 0) in shown


def header_version(api: ContractClient, game_id: str) -> int:
    return api.get(f"/v1/games/{game_id}").json["version"]  # type: ignore[no-any-return]


def test_a_broken_log_says_what_is_wrong(tmp_path: Path) -> None:
    header = json.dumps({"format": "meeple-log", "format_version": 1, "game": "djambi", "seats": 4, "options": {}})
    event = {"version": 1, "type": "game_started", "schema_version": 1,
             "payload": {"players": ["red", "blue", "yellow", "green"], "hostage": None}}
    assert read_log([header, json.dumps(event)]).seats == 4
    deep = "[" * 30_000 + "]" * 30_000
    for lines, problem in (([], "empty"), (["{"], "not JSON"), ([deep], "not JSON"), (['{"format": "other"}'], "header"),
                           ([header.replace('"seats": 4', '"seats": 1000000000')], "seats"),
                           ([header.replace("djambi", "chess")], "Unknown game"),
                           ([header, json.dumps(event | {"version": 2})], "no gap"),
                           ([header, json.dumps(event | {"type": "meteor"})], "Event 1")):
        with pytest.raises(LogInvalid, match=problem):
            read_log(lines)
    path = tmp_path / "bad.jsonl"
    path.write_text("{")
    failed = subprocess.run([sys.executable, "-m", "cli.main", "replay", str(path)], capture_output=True, text=True)
    assert failed.returncode != 0 and "not JSON" in failed.stderr


def test_an_imported_log_is_a_finished_read_only_copy(api: ContractClient) -> None:
    game_id = finished_game(api, "djambi", 3)
    exported = api.get(f"/v1/games/{game_id}/export").get_data()
    answer = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 201 and answer.json["id"] != game_id and answer.json["status"] == "finished"
    copy, original = api.get(f"/v1/games/{answer.json['id']}").json, api.get(f"/v1/games/{game_id}").json
    assert copy["table"] == original["table"] and copy["result"] == original["result"]
    assert [s["name"] for s in copy["seats"]] == [s["name"] for s in original["seats"]]
    events = api.get(f"/v1/games/{answer.json['id']}/events?limit=1000").json["events"]
    assert [(e["type"], e["payload"], e["actor"]) for e in events][:2] == [
        (e["type"], e["payload"], e["actor"]) for e in api.get(f"/v1/games/{game_id}/events?limit=2").json["events"]]
    assert api.post(f"/v1/games/{answer.json['id']}/join", json={"name": "late"}).status_code == 409
    again = [json.loads(line) for line in api.get(f"/v1/games/{answer.json['id']}/export").get_data().splitlines()[1:]]
    first = [json.loads(line) for line in exported.splitlines()[1:]]
    assert [(e["version"], e["type"], e["payload"]) for e in again] == [(e["version"], e["type"], e["payload"]) for e in first]


def test_imports_refuse_what_does_not_hold(api: ContractClient) -> None:
    def send(body: bytes, kind: str = "application/x-ndjson"):  # type: ignore[no-untyped-def]
        return api.post("/v1/games/import", data=body, headers={"Content-Type": kind})

    assert send(b"{}", "application/json").status_code == 415
    assert send(b"\xff\xfe").json["code"] == "invalid_log"
    assert send(b'{"format": "meeple-log"}').status_code == 422
    unfinished = api.post("/v1/games", json={"game": "djambi", "seats": 3}).json["id"]
    seat_all(api, unfinished, 3)
    lines = [json.dumps({"format": "meeple-log", "format_version": 1, "game": "djambi", "seats": 3, "options": {}})]
    lines += [json.dumps(e) for e in api.get(f"/v1/games/{unfinished}/events").json["events"]]
    answer = send("\n".join(lines).encode())
    assert answer.status_code == 422 and "finished" in answer.json["detail"]


def test_the_admin_token_exports_a_game_in_play() -> None:
    admin = "admin-token-0123456789"
    api = ContractClient(create_app(unlimited(admin_token=admin), client=fakeredis.FakeRedis()).test_client())
    game_id = api.post("/v1/games", json={"game": "djambi", "seats": 3}).json["id"]
    tokens = seat_all(api, game_id, 3)
    assert api.get(f"/v1/games/{game_id}/export", headers=bearer(tokens[0])).status_code == 409
    assert api.get(f"/v1/games/{game_id}/export", headers=bearer("another-token-012345")).status_code == 409
    answer = api.get(f"/v1/games/{game_id}/export", headers=bearer(admin))
    assert answer.status_code == 200 and len(answer.get_data().splitlines()) == 1 + 2


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], capture_output=True, text=True)


@pytest.mark.parametrize(("name", "seats"), [("taki", 3), ("bahama_taxi", 2)])
def test_a_true_export_passes_meeple_verify_and_an_edited_one_fails(
        api: ContractClient, tmp_path: Path, name: str, seats: int) -> None:
    game_id = finished_game(api, name, seats)
    lines = api.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()
    true = tmp_path / "true.jsonl"
    true.write_text("\n".join(lines))
    passed = run_cli("verify", str(true))
    assert passed.returncode == 0 and "verified" in passed.stdout
    events = [json.loads(line) for line in lines[1:]]
    shuffle = next(e for e in events if e["type"] == "deck_shuffled")
    order = shuffle["payload"]["order"]
    order[0], order[1] = order[1], order[0]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([lines[0]] + [json.dumps(e) for e in events]))
    failed = run_cli("verify", str(edited))
    assert failed.returncode == 1 and f"version {shuffle['version']} (deck_shuffled)" in failed.stdout
    assert "commitment" in failed.stdout


def test_a_shuffle_is_committed_to_in_the_open_and_revealed_at_the_end(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    tokens = seat_all(api, game_id, 2)
    for headers in ({}, {"Authorization": f"Bearer {tokens[0]}"}):
        shuffle = api.get(f"/v1/games/{game_id}/events?limit=1", headers=headers).json["events"][0]
        assert shuffle["type"] == "deck_shuffled" and len(shuffle["payload"]["commitment"]) == 64
        assert shuffle["payload"]["salt"] == "?" and set(shuffle["payload"]["order"]) == {"?"}


def test_an_export_replays_offline_and_imports_to_the_same_state_at_every_version(api: ContractClient) -> None:
    game_id = finished_game(api, "bahama_taxi", 2)
    exported = api.get(f"/v1/games/{game_id}/export").get_data()
    log = read_log(exported.decode().splitlines())
    copy = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"}).json["id"]
    game = log.game
    state = game.initial(game.parse_options(log.options, log.seats), log.seats)
    for version, event in enumerate(log.events, start=1):
        state = game.evolve(state, event)
        assert api.get(f"/v1/games/{copy}/states/{version}").json["table"] == to_primitive(game.view(state, None))
    assert api.get(f"/v1/games/{copy}").json["table"] == api.get(f"/v1/games/{game_id}").json["table"]
