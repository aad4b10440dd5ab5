"""An imported game keeps the moves of the game it copies: the export names each event's command,
the import appends each command's events as a move of their own with its actor, so the copy steps
and forks move by move; a log written before lines named their command falls back to runs of one
actor."""

from __future__ import annotations

import json
from typing import Any

from tests.contract import ContractClient
from tests.service.test_export import finished_game
from tests.service.test_games_api import seat_all
from tests.service.test_streams import move_ends

NDJSON = {"Content-Type": "application/x-ndjson"}


def events_of(api: ContractClient, game_id: str) -> list[dict[str, Any]]:
    """Every event of the game, read a page of 1,000 at a time (a random game may run longer)."""
    events: list[dict[str, Any]] = []
    while page := api.get(f"/v1/games/{game_id}/events?after={len(events)}&limit=1000").json["events"]:
        events += page
    return events


def imported(api: ContractClient, lines: list[bytes]) -> str:
    answer = api.post("/v1/games/import", data=b"\n".join(lines), headers=NDJSON)
    assert answer.status_code == 201, answer.json
    return answer.json["id"]  # type: ignore[no-any-return]


def test_an_imported_export_has_the_originals_moves_and_actors(api: ContractClient) -> None:
    game_id = finished_game(api, "taki", 2)
    exported = api.get(f"/v1/games/{game_id}/export").get_data().splitlines()
    original = events_of(api, game_id)
    assert [json.loads(line)["command_id"] for line in exported[1:]] == [e["command_id"] for e in original]
    copy = events_of(api, imported(api, exported))
    assert len(move_ends(original)) > 10
    assert move_ends(copy) == move_ends(original)
    assert [e["actor"] for e in copy] == [e["actor"] for e in original]
    assert not {e["command_id"] for e in copy} & {e["command_id"] for e in original}  # ids of its own


def test_a_log_without_command_ids_is_read_by_runs_of_one_actor(api: ContractClient) -> None:
    game_id = finished_game(api, "djambi", 3)
    lines = api.get(f"/v1/games/{game_id}/export").get_data().splitlines()
    header = json.dumps({**json.loads(lines[0]), "format_version": 1}).encode()  # a log of format 1 names no causes
    older = [header, *(json.dumps({k: v for k, v in json.loads(line).items() if k not in ("command_id", "command")}).encode()
                       for line in lines[1:])]
    original = events_of(api, game_id)
    actors = [e["actor"] for e in original]
    runs = [e["version"] for e, after in zip(original, [*actors[1:], None]) if after != e["actor"]]
    assert move_ends(events_of(api, imported(api, older))) == runs
    strangers = [header, *(json.dumps({**json.loads(line), "actor": "seat:7"}).encode() for line in older[1:])]
    assert {e["actor"] for e in events_of(api, imported(api, strangers))} == {"import"}  # no seat 7: one move


def test_an_import_forks_at_a_move_boundary_in_the_middle(api: ContractClient) -> None:
    game_id = finished_game(api, "taki", 2)
    copy_id = imported(api, api.get(f"/v1/games/{game_id}/export").get_data().splitlines())
    copy = events_of(api, copy_id)
    ends = move_ends(copy)
    middle = ends[len(ends) // 2]
    inside = next(version for version in range(ends[1] + 1, middle) if version not in ends)
    assert api.post(f"/v1/games/{copy_id}/fork", json={"version": inside}).json["code"] == "not_a_move_boundary"
    fork = api.post(f"/v1/games/{copy_id}/fork", json={"version": middle})
    assert fork.status_code == 201, fork.json
    names = [seat["name"] for seat in api.get(f"/v1/games/{copy_id}").json["seats"]]  # who played the copied opening
    assert fork.json["forked_from"] == {"game_id": copy_id, "version": middle, "names": names}
    seat_all(api, fork.json["id"], 2)
    opening = events_of(api, fork.json["id"])
    assert [e["type"] for e in opening[:middle]] == [e["type"] for e in copy[:middle]]  # redacted in play
    assert opening[middle]["type"] == "hidden_cards_redealt"
    assert api.get(f"/v1/games/{fork.json['id']}").json["status"] == "active"
