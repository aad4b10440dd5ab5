"""GET /v1/games/{id}/legal-commands as a list, as a tree of choices (`form=grouped`) whose leaves
are the list itself, and as runs (`form=compact`) that expand to it; every answer checked against
openapi.yaml."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain import GAMES
from service.schemas import GAME_SCHEMAS
from service.schemas.choices import choices
from service.schemas.runs import expanded, runs
from tests.contract import ContractClient
from tests.playing import moves_on, random_game
from tests.service.test_games_api import bearer, seat_all


def leaves(tree: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The commands of a tree of choices, left to right."""
    for choice in tree:
        yield from choice["commands"] if "commands" in choice else leaves(choice["choices"])


def levels(tree: list[dict[str, Any]]) -> set[tuple[str, ...]]:
    """Each path of fields from the top of the tree to a list of commands."""
    paths: set[tuple[str, ...]] = set()
    for choice in tree:
        below = {()} if "commands" in choice else levels(choice["choices"])
        paths |= {(choice["field"], *path) for path in below}
    return paths


def check_siblings(tree: list[dict[str, Any]]) -> None:
    """Fails unless the choices beside each other name one field, each a different value of it."""
    assert len({choice["field"] for choice in tree}) <= 1
    assert len({repr(choice["value"]) for choice in tree}) == len(tree)
    for choice in tree:
        check_siblings(choice.get("choices", []))


def start(api: ContractClient, game: str, seats: int, **options: Any) -> tuple[str, list[str]]:
    answer = api.post("/v1/games", json={"game": game, "seats": seats, "options": options})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], seat_all(api, answer.json["id"], seats)


def legal(api: ContractClient, game_id: str, token: str, form: str | None = None) -> Any:
    query = "" if form is None else f"?form={form}"
    answer = api.get(f"/v1/games/{game_id}/legal-commands{query}", headers=bearer(token))
    assert answer.status_code == 200, answer.json
    return answer.json


def test_djambis_opening_is_grouped_by_piece_then_destination(api: ContractClient) -> None:
    game_id, tokens = start(api, "djambi", 4)
    listed = legal(api, game_id, tokens[0])["commands"]
    grouped = legal(api, game_id, tokens[0], "grouped")
    assert grouped["version"] == 2 and "commands" not in grouped
    tree = grouped["choices"]
    assert [(c["field"], c["value"]) for c in tree] == [("type", "djambi.play"), ("type", "djambi.propose_draw"),
                                                        ("type", "djambi.resign")]
    assert tree[1] == {"field": "type", "value": "djambi.propose_draw", "commands": [{"type": "djambi.propose_draw"}]}
    pieces = tree[0]["choices"]
    assert [p["value"] for p in pieces] == ["A9", "B9", "C7", "A7", "B7", "C8", "C9"]
    assert levels(tree) == {("type", "piece", "to"), ("type",)}
    assert sum(len(p["choices"]) for p in pieces) == 53
    chief = next(p for p in pieces if p["value"] == "A9")
    to_b9 = next(d for d in chief["choices"] if d["value"] == "B9")
    assert to_b9["field"] == "to" and len(to_b9["commands"]) == 45
    assert to_b9["commands"][0] == {"type": "djambi.play", "piece": "A9", "to": "B9", "place": "D1"}
    militant = next(p for p in pieces if p["value"] == "C9")
    assert {"field": "to", "value": "D9", "commands": [{"type": "djambi.play", "piece": "C9", "to": "D9"}]} in militant["choices"]
    assert list(leaves(tree)) == listed and len(listed) == 891
    check_siblings(tree)
    answer = api.post(f"/v1/games/{game_id}/commands", json=to_b9["commands"][-1], headers=bearer(tokens[0]))
    assert answer.status_code == 201, answer.json


def test_djambis_opening_in_runs_is_a_piece_and_destination_with_the_corpses_squares(api: ContractClient) -> None:
    game_id, tokens = start(api, "djambi", 4)
    listed = legal(api, game_id, tokens[0])["commands"]
    compact = legal(api, game_id, tokens[0], "compact")
    assert set(compact) == {"version", "runs"} and compact["version"] == 2
    found = compact["runs"]
    assert expanded(found) == listed and len(listed) == 891 and len(found) == 32
    assert found[0] == {"command": {"type": "djambi.play", "piece": "A9", "to": "B9"}, "field": "place",
                        "values": [c["place"] for c in listed if (c.get("piece"), c.get("to")) == ("A9", "B9")]}
    assert len(found[0]["values"]) == 45
    assert {"command": {"type": "djambi.play", "piece": "C9"}, "field": "to", "values": ["D9", "E9"]} in found
    assert found[-2:] == [{"command": {"type": "djambi.propose_draw"}}, {"command": {"type": "djambi.resign"}}]
    run = found[0]
    answer = api.post(f"/v1/games/{game_id}/commands", json=run["command"] | {run["field"]: run["values"][-1]},
                      headers=bearer(tokens[0]))
    assert answer.status_code == 201, answer.json


def test_the_list_stays_the_default(api: ContractClient) -> None:
    game_id, tokens = start(api, "taki", 2)
    assert legal(api, game_id, tokens[0], "list") == legal(api, game_id, tokens[0])
    assert set(legal(api, game_id, tokens[0])) == {"version", "commands"}


def test_an_unknown_form_is_a_validation_error_naming_it(api: ContractClient) -> None:
    game_id, tokens = start(api, "taki", 2)
    for form in ("tree", "GROUPED", ""):
        answer = api.get(f"/v1/games/{game_id}/legal-commands?form={form}", headers=bearer(tokens[0]))
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", form
        assert list(answer.json["errors"]) == ["form"]


def test_a_game_not_started_or_over_offers_no_choice(api: ContractClient) -> None:
    answer = api.post("/v1/games", json={"game": "djambi", "seats": 3})
    token = api.post(f"/v1/games/{answer.json['id']}/join", json={"name": "ann"}).json["token"]
    assert legal(api, answer.json["id"], token, "grouped") == {"version": 0, "choices": []}
    game_id, tokens = start(api, "taki", 2)
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[0])).status_code == 201
    assert legal(api, game_id, tokens[1], "grouped")["choices"] == []
    assert legal(api, game_id, tokens[1], "compact")["runs"] == []


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("taki", 3, {}),
    ("djambi", 3, {}),
    ("bahama_taxi", 2, {"cabs_per_player": 2, "movement": "optional"}),
])
def test_playing_leaves_of_the_tree_plays_the_game(api: ContractClient, game: str, seats: int, options: dict[str, Any]) -> None:
    chooser = random.Random(7)
    game_id, tokens = start(api, game, seats, **options)
    for _ in range(8):
        view = api.get(f"/v1/games/{game_id}").json
        if view["status"] == "finished":
            break
        seat = view["to_move"][0]
        listed = legal(api, game_id, tokens[seat])["commands"]
        tree = legal(api, game_id, tokens[seat], "grouped")["choices"]
        assert list(leaves(tree)) == listed
        choice = chooser.choice(tree)
        while "choices" in choice:
            choice = chooser.choice(choice["choices"])
        answer = api.post(f"/v1/games/{game_id}/commands", json=chooser.choice(choice["commands"]), headers=bearer(tokens[seat]))
        assert answer.status_code == 201, answer.json


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("taki", 4, {}),
    ("taki", 3, {"taki_close": "explicit"}),
    ("djambi", 4, {}),
    ("djambi", 3, {}),
    ("bahama_taxi", 3, {}),
    ("bahama_taxi", 4, {"cabs_per_player": 2, "dice": True, "hand_size": 4, "movement": "optional",
                        "passengers_from_god": True}),
    ("bahama_taxi", 2, {"cabs_per_player": 2, "two_cab_mode": "both", "movement": "optional", "mirror_board": True}),
    ("bahama_taxi", 2, {"contraband": True}),
])
def test_the_tree_and_the_runs_give_the_list_back(game: str, seats: int, options: dict[str, Any]) -> None:
    rules, dump = GAMES[game], GAME_SCHEMAS[game].dump_command
    for seed in range(3):
        for step in random_game(rules, seats, rules.parse_options(options, seats), seed, moves_on, 300, must_end=False):
            for seat in rules.status(step.before).to_move:
                listed = [dump(command) for command in rules.legal_commands(step.before, seat)]
                tree = choices(listed)
                assert list(leaves(tree)) == listed
                check_siblings(tree)
                for kind in tree:
                    assert len(levels([kind])) == 1  # every command of a type is reached through the same fields
                found = runs(listed)
                assert expanded(found) == listed
                for run, following in zip(found, found[1:]):  # each run as long as the list allows
                    assert "field" not in following or (run["command"], run.get("field")) != (following["command"], following["field"])
