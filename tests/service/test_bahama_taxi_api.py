"""Bahama Taxi over API v1, exactly as TAKI; every answer checked against openapi.yaml."""

from __future__ import annotations

from typing import Any

from tests.contract import ContractClient
from tests.service.test_games_api import bearer, seat_all


def create(api: ContractClient, seats: int = 2, **options: Any) -> str:
    answer = api.post("/v1/games", json={"game": "bahama_taxi", "seats": seats, "options": options})
    assert answer.status_code == 201, answer.json
    return answer.json["id"]  # type: ignore[no-any-return]


def test_bahama_taxi_is_a_game_type(api: ContractClient) -> None:
    taxi = next(t for t in api.get("/v1/games/types").json["types"] if t["name"] == "bahama_taxi")
    assert (taxi["min_seats"], taxi["max_seats"]) == (2, 8)
    assert {"movement", "passengers_from_god", "mandatory_pickup", "parity_burn", "max_rounds"} <= {
        o["name"] for o in taxi["options"]}
    answer = api.post("/v1/games", json={"game": "bahama_taxi", "seats": 4, "options": {"movement": "fly", "initial_citizens": 30}})
    assert answer.status_code == 422 and set(answer.json["errors"]["options"]) == {"movement", "initial_citizens"}
    clash = {"unknown_destination": True, "mirror_board": True}
    answer = api.post("/v1/games", json={"game": "bahama_taxi", "seats": 2, "options": clash})
    assert answer.status_code == 422 and "mirror_board" in answer.json["errors"]["options"]["unknown_destination"]


def test_unknown_destinations_show_as_null(api: ContractClient) -> None:
    game_id = create(api, unknown_destination=True)
    seat_all(api, game_id, 2)
    waiting = api.get(f"/v1/games/{game_id}").json["table"]["waiting"]
    assert len(waiting) == 8 and all(c["destination"] is None and c["fare"] is None for c in waiting)


def test_a_game_is_played_by_moving_and_picking_up(api: ContractClient) -> None:
    game_id = create(api, seats=3)
    tokens = seat_all(api, game_id, 3)
    table = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["table"]
    assert len(table["waiting"]) == 8 and table["draw_pile_size"] == 32 and len(table["cabs"]) == 3
    assert table["phase"] == "start" and table["pickup_limit"] == 3
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[0])).json["commands"]
    assert legal and all(c["type"] == "bahama_taxi.move" for c in legal)
    answer = api.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=bearer(tokens[0]))
    assert answer.status_code == 201 and answer.json["events"][0]["type"] == "pawn_moved"
    shuffled = api.get(f"/v1/games/{game_id}/events?after=0&limit=1").json["events"][0]
    assert shuffled["type"] == "deck_shuffled" and set(shuffled["payload"]["order"]) == {"?"}


def test_rule_violations_and_malformed_commands(api: ContractClient) -> None:
    game_id = create(api)
    tokens = seat_all(api, game_id, 2)
    url = f"/v1/games/{game_id}/commands"
    here = api.get(f"/v1/games/{game_id}").json["table"]["cabs"][0]["area"]
    cases = [(1, {"type": "end_turn"}, "not_your_turn"), (0, {"type": "stay"}, "stay_not_allowed"),
             (0, {"type": "pick_up", "citizens": ["c1"]}, "wrong_phase"),
             (0, {"type": "collect_from_god", "citizen": "c1"}, "variant_not_enabled"),
             (0, {"type": "move", "to": here}, "not_adjacent"), (0, {"type": "move", "to": "KS", "pawn": 1}, "wrong_pawn")]
    for seat, body, reason in cases:
        answer = api.post(url, json=body, headers=bearer(tokens[seat]))
        assert answer.status_code == 409 and answer.json["reason"] == reason, (body, answer.json)
    for body in ({"type": "move"}, {"type": "move", "to": "1S"}, {"type": "pick_up", "citizens": []},
                 {"type": "pick_up", "citizens": ["x"]}, {"type": "end_turn", "pawn": 0}, {"type": "skip"},
                 {"type": "move", "to": "AS", "pawn": "0"}):
        answer = api.post(url, json=body, headers=bearer(tokens[0]))
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", body


def test_contraband_places_police_and_names_pawns(api: ContractClient) -> None:
    answer = api.post("/v1/games", json={"game": "bahama_taxi", "seats": 3, "options": {"contraband": True}})
    assert answer.status_code == 422 and "2 players" in answer.json["errors"]["options"]["contraband"]
    answer = api.post("/v1/games", json={"game": "bahama_taxi", "seats": 2, "options": {"contraband": True, "dice": True}})
    assert answer.status_code == 422 and "dice" in answer.json["errors"]["options"]["contraband"]
    game_id = create(api, contraband=True, two_cab_mode="both")
    tokens = seat_all(api, game_id, 2)
    url = f"/v1/games/{game_id}/commands"
    assert api.get(f"/v1/games/{game_id}").json["table"]["phase"] == "placing"
    assert api.post(url, json={"type": "place_police", "area": "3S"}, headers=bearer(tokens[0])).json["reason"] == "not_your_start_area"
    assert api.post(url, json={"type": "place_police", "area": "3D"}, headers=bearer(tokens[0])).status_code == 201
    assert api.post(url, json={"type": "place_police", "area": "3C"}, headers=bearer(tokens[1])).status_code == 201
    cabs = api.get(f"/v1/games/{game_id}").json["table"]["cabs"]
    assert [(c["kind"], c["area"]) for c in cabs] == [("smuggler", "3H"), ("police", "3D"), ("smuggler", "3S"), ("police", "3C")]
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[0])).json["commands"]
    police_move = next(c for c in legal if c["type"] == "bahama_taxi.move" and c["pawn"] == 1)
    answer = api.post(url, json=police_move | {"pawn": "police"}, headers=bearer(tokens[0]))
    assert answer.status_code == 201 and answer.json["events"][0]["type"] == "pawn_turn_started"
    assert api.post(url, json={"type": "move", "to": "4H", "pawn": "thief"}, headers=bearer(tokens[0])).status_code == 422


def test_the_board_is_served_to_draw_the_map(api: ContractClient) -> None:
    board = api.get("/v1/games/types/bahama_taxi/board").json
    assert len(board["areas"]) == 52 and len(board["edges"]) == 128 and set(board["positions"]) == set(board["areas"])
    assert ["AS", "QS"] in board["edges"] and ["3H", "5H"] not in board["edges"] and ["5H", "3H"] not in board["edges"]
    assert board["districts"]["S"][:3] == ["AS", "2S", "3S"] and len(board["downtown"]) == 16
    assert board["positions"]["3S"] == [0.0, -6.0]  # spades at the top
