"""Djambi over API v1, exactly as TAKI: create with options, join three or four seats, play,
read events and past states; every answer checked against openapi.yaml."""

from __future__ import annotations

from typing import Any

from tests.contract import ContractClient
from tests.service.test_games_api import bearer, seat_all


def create(api: ContractClient, seats: int = 4, **options: Any) -> str:
    answer = api.post("/v1/games", json={"game": "djambi", "seats": seats, "options": options})
    assert answer.status_code == 201, answer.json
    return answer.json["id"]  # type: ignore[no-any-return]


def test_djambi_is_a_game_type_with_the_options_of_section_3(api: ContractClient) -> None:
    djambi = next(t for t in api.get("/v1/games/types").json["types"] if t["name"] == "djambi")
    assert (djambi["min_seats"], djambi["max_seats"]) == (3, 4)
    assert {o["name"] for o in djambi["options"]} == {
        "self_kill", "reporter_may_abstain", "master_moves", "diplomat_chief_into_maze", "encirclement",
        "necromobile_rescue", "no_progress_limit", "hostage_army"}
    assert set(djambi["bots"]) >= {"random", "greedy"}


def test_bad_options_and_seat_counts_are_named(api: ContractClient) -> None:
    answer = api.post("/v1/games", json={"game": "djambi", "seats": 4, "options": {"hostage_army": "red"}})
    assert answer.status_code == 422 and "hostage_army" in answer.json["errors"]["options"]
    answer = api.post("/v1/games", json={"game": "djambi", "seats": 3, "options": {"encirclement": "hug", "no_progress_limit": -1}})
    assert set(answer.json["errors"]["options"]) == {"encirclement", "no_progress_limit"}
    assert api.post("/v1/games", json={"game": "djambi", "seats": 2}).status_code == 422


def test_a_four_player_game_starts_with_red_and_lists_complete_commands(api: ContractClient) -> None:
    game_id = create(api)
    tokens = seat_all(api, game_id, 4)
    game = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
    table = game["table"]
    assert game["to_move"] == [0] and table["players"] == ["red", "blue", "yellow", "green"]
    assert len(table["pieces"]) == 36 and table["in_power"] is None and table["turn_kind"] == "regular"
    assert {"notation": "rC@A9", "id": "red.chief", "square": "A9", "army": "red", "kind": "chief", "alive": True} in table["pieces"]
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[0])).json["commands"]
    plays = [c for c in legal if c["type"] == "djambi.play"]
    assert len(plays) == 889 and {"type": "djambi.resign"} in legal and {"type": "djambi.propose_draw"} in legal
    assert {"type": "djambi.play", "piece": "C9", "to": "D9"} in plays
    assert {"type": "djambi.play", "piece": "A9", "to": "A8", "place": "E1"} in plays
    answer = api.post(f"/v1/games/{game_id}/commands", json={"type": "play", "piece": "red.militant4", "to": "d9"},
                      headers=bearer(tokens[0]))
    assert answer.status_code == 201
    action = next(e for e in answer.json["events"] if e["type"] == "action_taken")["payload"]
    assert action["move"] == "C9-D9" and action["moves"] == [{"piece": "red.militant4", "origin": "C9", "to": "D9"}]
    assert api.get(f"/v1/games/{game_id}").json["to_move"] == [1]


def test_rule_violations_carry_the_reason_of_section_18(api: ContractClient) -> None:
    game_id = create(api)
    tokens = seat_all(api, game_id, 4)
    url = f"/v1/games/{game_id}/commands"
    cases = [
        (1, {"type": "play", "piece": "G8", "to": "F7"}, "not_your_turn"),
        (0, {"type": "play", "piece": "E5", "to": "E4"}, "no_piece_there"),
        (0, {"type": "play", "piece": "G8", "to": "F7"}, "not_your_piece"),
        (0, {"type": "play", "piece": "A8", "to": "A7"}, "illegal_destination"),
        (0, {"type": "play", "piece": "A9", "to": "A8"}, "place_required"),
        (0, {"type": "play", "piece": "B9", "to": "A8", "place": "E1"}, "place_forbidden"),
        (0, {"type": "play", "piece": "C9", "to": "D9", "exit": "E1"}, "exit_forbidden"),
        (0, {"type": "play", "piece": "C9", "to": "D9", "report": "E1"}, "report_forbidden"),
        (0, {"type": "play", "piece": "A9", "to": "A8", "place": "E5"}, "illegal_place"),
        (0, {"type": "play", "piece": "C9", "to": "D9", "player": "blue"}, "wrong_player"),
    ]
    for seat, body, reason in cases:
        answer = api.post(url, json=body, headers=bearer(tokens[seat]))
        assert answer.status_code == 409 and answer.json["reason"] == reason, (body, answer.json)
        assert answer.json["detail"]
    assert api.get(f"/v1/games/{game_id}").json["version"] == 2  # nothing was written
    for body in ({"type": "play", "piece": "J1", "to": "A1"}, {"type": "play", "piece": "A9"},
                 {"type": "play", "piece": "A9", "to": "A0"}, {"type": "play", "piece": "A9", "to": "A8", "place": 3},
                 {"type": "play", "piece": "A9", "to": "A8", "player": "purple"}, {"type": "resign", "now": True},
                 {"type": "draw"}):
        answer = api.post(url, json=body, headers=bearer(tokens[0]))
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", body


def test_draw_offers_and_resigning(api: ContractClient) -> None:
    game_id = create(api, seats=3)
    tokens = seat_all(api, game_id, 3)
    url = f"/v1/games/{game_id}/commands"

    def send(seat: int, kind: str) -> Any:
        return api.post(url, json={"type": kind}, headers=bearer(tokens[seat]))

    assert send(1, "propose_draw").status_code == 201
    assert send(1, "accept_draw").json["reason"] == "draw_already_accepted"
    assert {"type": "djambi.accept_draw"} in api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[2])).json["commands"]
    assert send(2, "decline_draw").status_code == 201
    assert send(0, "accept_draw").json["reason"] == "no_draw_offered"
    assert send(2, "resign").status_code == 201
    table = api.get(f"/v1/games/{game_id}").json["table"]
    assert table["remaining"] == [0, 1] and "X@I1" in {p["notation"] for p in table["pieces"]}
    assert {"color": "yellow", "controller": None, "status": "orphaned"} in table["armies"]
    assert {"color": "green", "controller": None, "status": "hostage"} in table["armies"]
    send(0, "propose_draw")
    finished = send(1, "accept_draw").json["events"][-1]
    assert finished["type"] == "game_ended" and finished["payload"] == {"result": "draw", "winners": [0, 1], "reason": "agreed"}
    game = api.get(f"/v1/games/{game_id}").json
    assert game["status"] == "finished" and game["result"]["ranking"] == [[0, 1], [2]]
    assert send(0, "resign").json["reason"] == "game_over"
