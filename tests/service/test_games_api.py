"""Every endpoint of API v1 through the Flask test client; every answer checked against openapi.yaml."""

from __future__ import annotations

from typing import Any

import pytest

from events.envelope import MAX_THINK_SECONDS
from tests.contract import ContractClient


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(api: ContractClient, seats: int = 3, **options: Any) -> str:
    answer = api.post("/v1/games", json={"game": "taki", "seats": seats, "options": options})
    assert answer.status_code == 201, answer.json
    assert answer.headers["Location"] == f"/v1/games/{answer.json['id']}"
    return answer.json["id"]  # type: ignore[no-any-return]


def seat_all(api: ContractClient, game_id: str, seats: int) -> list[str]:
    tokens = []
    for seat in range(seats):
        answer = api.post(f"/v1/games/{game_id}/join", json={"name": f"player {seat}"})
        assert answer.status_code == 201 and answer.json["seat"] == seat
        tokens.append(answer.json["token"])
    return tokens


def test_health(api: ContractClient) -> None:
    assert api.get("/v1/health").json == {"status": "ok"}


def test_game_types_list_seats_and_options(api: ContractClient) -> None:
    types = api.get("/v1/games/types").json["types"]
    taki = next(t for t in types if t["name"] == "taki")
    assert (taki["min_seats"], taki["max_seats"]) == (2, 10)
    assert {o["name"] for o in taki["options"]} >= {"mode", "first_seat", "taki_close", "king_on_plus3"}


def test_creating_a_game_names_every_bad_option(api: ContractClient) -> None:
    answer = api.post("/v1/games", json={"game": "taki", "seats": 3, "options": {"mode": "solo", "colour": 1}})
    assert answer.status_code == 422 and answer.json["code"] == "validation_error"
    assert set(answer.json["errors"]["options"]) == {"mode", "colour"}
    answer = api.post("/v1/games", json={"game": "taki", "seats": 11})
    assert answer.status_code == 422 and "seats" in answer.json["errors"]
    answer = api.post("/v1/games", json={"game": "chess", "seats": 2})
    assert answer.status_code == 422 and "game" in answer.json["errors"]


def test_a_game_waits_for_its_seats_then_starts(api: ContractClient) -> None:
    game_id = create(api)
    waiting = api.get(f"/v1/games/{game_id}").json
    assert waiting["status"] == "waiting" and waiting["table"] is None and waiting["version"] == 0
    tokens = seat_all(api, game_id, 3)
    full = api.post(f"/v1/games/{game_id}/join", json={"name": "late"})
    assert full.status_code == 409 and full.json["code"] == "seat_unavailable"
    game = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[1]))
    assert game.status_code == 200 and game.headers["ETag"] == f'"{game.json["version"]}"'
    assert game.json["status"] == "active" and game.json["you"] == 1 and game.json["to_move"] == [0]
    assert len(game.json["table"]["hand"]) == 8 and game.json["table"]["hand_sizes"] == [8, 8, 8]
    assert [s["name"] for s in game.json["seats"]] == ["player 0", "player 1", "player 2"]
    spectator = api.get(f"/v1/games/{game_id}").json
    assert spectator["you"] is None and spectator["table"]["hand"] is None


def test_join_a_chosen_seat(api: ContractClient) -> None:
    game_id = create(api)
    assert api.post(f"/v1/games/{game_id}/join", json={"name": "cy", "seat": 2}).json["seat"] == 2
    taken = api.post(f"/v1/games/{game_id}/join", json={"name": "bo", "seat": 2})
    assert taken.status_code == 409 and taken.json["reason"] == "seat_taken"
    missing = api.post(f"/v1/games/{game_id}/join", json={"name": "bo", "seat": 7})
    assert missing.status_code == 409 and missing.json["reason"] == "no_such_seat"


def test_playing_a_legal_command_appends_its_events(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[0])).json
    assert {"type": "taki.draw"} in legal["commands"]
    answer = api.post(f"/v1/games/{game_id}/commands", json=legal["commands"][0], headers=bearer(tokens[0]))
    assert answer.status_code == 201 and answer.json["version"] > legal["version"]
    assert answer.headers["ETag"] == f'"{answer.json["version"]}"'
    assert [e["version"] for e in answer.json["events"]] == list(range(legal["version"] + 1, answer.json["version"] + 1))


def test_rule_violations_name_their_reason(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    answer = api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=bearer(tokens[1]))
    assert answer.status_code == 409 and answer.json["code"] == "not_your_turn" and answer.json["reason"] == "not_your_turn"
    answer = api.post(f"/v1/games/{game_id}/commands", json={"type": "play", "card": "red.2.1"}, headers=bearer(tokens[0]))
    assert answer.status_code == 409 and answer.json["code"] == "illegal_move"
    assert (answer.json["reason"], answer.json["index"]) == ("card_not_in_hand", 0)
    answer = api.post(f"/v1/games/{game_id}/commands", json={"type": "pass"}, headers=bearer(tokens[0]))
    assert answer.json["reason"] == "nothing_to_pass"


def test_a_checked_command_is_answered_as_a_submission_would_be_and_changes_nothing(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    url, auth = f"/v1/games/{game_id}/command-checks", bearer(tokens[0])
    before = api.get(f"/v1/games/{game_id}", headers=auth).json
    hand = before["table"]["hand"]
    for command in api.get(f"/v1/games/{game_id}/legal-commands", headers=auth).json["commands"]:
        answer = api.post(url, json=command, headers=auth)
        assert answer.status_code == 200 and answer.json == {"version": before["version"], "accepted": True}, command
    absent = next(card for card in ("red.2.1", "red.2.2") if card not in hand)
    answer = api.post(url, json={"type": "taki.play", "card": absent}, headers=auth)
    assert answer.status_code == 409 and (answer.json["reason"], answer.json["index"]) == ("card_not_in_hand", 0)
    assert api.post(url, json={"type": "taki.draw"}, headers=bearer(tokens[1])).json["code"] == "not_your_turn"
    assert api.post(url, json={"type": "taki.fly"}, headers=auth).status_code == 422
    draw = {"type": "taki.draw"}
    assert api.post(url, json=draw, headers=auth | {"If-Match": f'"{before["version"]}"'}).status_code == 200
    assert api.post(url, json=draw, headers=auth | {"If-Match": f'"{before["version"] - 1}"'}).status_code == 412
    assert api.post(url, json=draw | {"expected_version": before["version"] - 1}, headers=auth).json["code"] == "version_conflict"
    assert api.get(f"/v1/games/{game_id}", headers=auth).json == before


def test_malformed_commands_are_validation_errors(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    url, auth = f"/v1/games/{game_id}/commands", bearer(tokens[0])
    for body in ({"type": "fly"}, {"type": "play"}, {"type": "play", "card": "x", "cards": ["y"]},
                 {"type": "play", "card": 5}, {"type": "play", "card": "none.change_color.1", "color": "pink"},
                 {"type": "draw", "extra": 1}, {"type": "draw", "expected_version": "3"}, {}):
        answer = api.post(url, json=body, headers=auth)
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", body
    answer = api.post(url, data="{", headers=auth | {"Content-Type": "application/json"})
    assert answer.status_code == 400 and answer.json["code"] == "invalid_json"
    answer = api.post(url, data="draw", headers=auth | {"Content-Type": "text/plain"})
    assert answer.status_code == 415
    answer = api.post(url, json=[1, 2], headers=auth)
    assert answer.status_code == 422


def test_tokens_act_for_their_own_seat_and_game_only(api: ContractClient) -> None:
    first, second = create(api, seats=2), create(api, seats=2)
    tokens = seat_all(api, first, 2)
    seat_all(api, second, 2)
    for headers in ({}, bearer(tokens[0]).copy() | {"Authorization": "Basic abc"}, bearer("x" * 43)):
        answer = api.post(f"/v1/games/{first}/commands", json={"type": "draw"}, headers=headers)
        assert answer.status_code == 401 and answer.json["code"] == "unauthorized"
    answer = api.post(f"/v1/games/{second}/commands", json={"type": "draw"}, headers=bearer(tokens[0]))
    assert answer.status_code == 401
    assert api.get(f"/v1/games/{second}/legal-commands", headers=bearer(tokens[0])).status_code == 401


def test_if_match_and_expected_version(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    version = api.get(f"/v1/games/{game_id}").json["version"]
    url = f"/v1/games/{game_id}/commands"
    stale = api.post(url, json={"type": "draw"}, headers=bearer(tokens[0]) | {"If-Match": f'"{version - 1}"'})
    assert stale.status_code == 412 and stale.json["code"] == "version_conflict" and stale.json["current"] == version
    stale = api.post(url, json={"type": "draw", "expected_version": version - 1}, headers=bearer(tokens[0]))
    assert stale.status_code == 409 and stale.json["code"] == "version_conflict"
    bad = api.post(url, json={"type": "draw"}, headers=bearer(tokens[0]) | {"If-Match": "yesterday"})
    assert bad.status_code == 422
    fresh = api.post(url, json={"type": "draw"}, headers=bearer(tokens[0]) | {"If-Match": f'"{version}"'})
    assert fresh.status_code == 201
    assert api.get(f"/v1/games/{game_id}").json["version"] == fresh.json["version"]


def test_idempotency_key_returns_the_first_answer(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    url, headers = f"/v1/games/{game_id}/commands", bearer(tokens[0]) | {"Idempotency-Key": "draw-1"}
    first = api.post(url, json={"type": "draw"}, headers=headers)
    retry = api.post(url, json={"type": "draw"}, headers=headers)
    assert retry.status_code == 201 and retry.json == first.json and retry.headers["Idempotent-Replayed"] == "true"
    assert api.get(f"/v1/games/{game_id}").json["version"] == first.json["version"]
    reused = api.post(url, json={"type": "pass"}, headers=headers)
    assert reused.status_code == 422 and reused.json["code"] == "idempotency_key_reused"


def test_events_are_paged_and_redacted(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    page = api.get(f"/v1/games/{game_id}/events?limit=2", headers=bearer(tokens[0])).json
    assert [e["version"] for e in page["events"]] == [1, 2] and page["next"] == 2
    assert page["events"][0]["type"] == "deck_shuffled" and set(page["events"][0]["payload"]["order"]) == {"?"}
    dealt = page["events"][1]["payload"]
    assert dealt["seat"] == 0 and "?" not in dealt["cards"]
    rest = api.get(f"/v1/games/{game_id}/events?after=2", headers=bearer(tokens[0])).json
    assert rest["next"] is None and rest["events"][0]["payload"]["cards"] == ["?"] * 8
    assert api.get(f"/v1/games/{game_id}/events?after=-1").status_code == 422


def test_states_at_past_versions(api: ContractClient) -> None:
    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    version = api.get(f"/v1/games/{game_id}").json["version"]
    start = api.get(f"/v1/games/{game_id}/states/0").json
    assert start["status"] == "waiting" and start["version"] == 0
    dealt = api.get(f"/v1/games/{game_id}/states/2", headers=bearer(tokens[0])).json
    assert dealt["table"]["hand_sizes"] == [8, 0]
    assert api.get(f"/v1/games/{game_id}/states/{version + 1}").json["code"] == "version_not_found"


def test_a_finished_games_states_show_any_seats_view(api: ContractClient) -> None:
    from tests.service.test_export import play_to_end

    game_id = create(api, seats=2)
    tokens = seat_all(api, game_id, 2)
    early = api.get(f"/v1/games/{game_id}/states/3?seat=1")
    assert early.status_code == 409 and early.json["code"] == "game_not_finished"
    assert api.get(f"/v1/games/{game_id}/states/3?seat=0", headers=bearer(tokens[0])).json["table"]["hand"]
    play_to_end(api, game_id, tokens)
    dealt = [api.get(f"/v1/games/{game_id}/states/3?seat={seat}").json for seat in (0, 1)]
    assert [view["you"] for view in dealt] == [0, 1]
    assert [len(view["table"]["hand"]) for view in dealt] == [8, 8] and dealt[0]["table"]["hand"] != dealt[1]["table"]["hand"]
    assert api.get(f"/v1/games/{game_id}/states/3").json["table"]["hand"] is None
    wrong = api.get(f"/v1/games/{game_id}/states/3?seat=2")
    assert wrong.status_code == 422 and "seat" in wrong.json["errors"]


def test_a_view_tells_when_each_seat_to_move_must_act(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": {"seconds": 60, "policy": "skip"}}).json["id"]
    tokens = seat_all(api, game_id, 2)
    game = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
    started = api.get(f"/v1/games/{game_id}/events?after={game['version'] - 1}").json["events"][0]["time"]
    assert game["deadlines"] == [{"seat": game["to_move"][0], "at": started + 60_000, "policy": "skip"}]
    assert api.get(f"/v1/games/{game_id}").json["deadlines"] == game["deadlines"]  # a spectator's too
    past = api.get(f"/v1/games/{game_id}/states/1", headers=bearer(tokens[0])).json
    assert past["to_move"] and past["deadlines"] == []  # a past version's deadlines are no one's to keep now
    assert api.get(f"/v1/games/{game_id}/states/{game['version']}", headers=bearer(tokens[0])).json["deadlines"] == game["deadlines"]
    untimed = create(api, seats=2)
    seat_all(api, untimed, 2)
    assert api.get(f"/v1/games/{untimed}").json["deadlines"] == []


def test_listing_games(api: ContractClient) -> None:
    ids = [create(api, seats=2) for _ in range(3)]
    seat_all(api, ids[0], 2)
    listed = api.get("/v1/games?limit=2").json
    assert [g["id"] for g in listed["games"]] == ids[:0:-1] and isinstance(listed["next"], str)
    assert [g["id"] for g in api.get(f"/v1/games?cursor={listed['next']}").json["games"]] == [ids[0]]
    assert [g["id"] for g in api.get("/v1/games?status=active&game=taki").json["games"]] == [ids[0]]
    assert api.get("/v1/games?status=lost").status_code == 422
    assert api.get("/v1/games?colour=red").status_code == 422


def test_unknown_games_and_routes(api: ContractClient) -> None:
    assert api.get("/v1/games/nope").json["code"] == "game_not_found"
    assert api.get("/v1/games/{bad}").status_code == 404
    assert api.post("/v1/games/nope/join", json={"name": "x"}).status_code == 404
    assert api.client.get("/v1/elsewhere").status_code == 404
    assert api.client.delete("/v1/games").status_code == 405


def test_ai_seats_at_creation_and_by_joining(api: ContractClient) -> None:
    assert next(t for t in api.get("/v1/games/types").json["types"] if t["name"] == "taki")["bots"] == ["random", "greedy", "search"]
    answer = api.post("/v1/games", json={"game": "taki", "seats": 3, "bots": [{"seat": 2, "level": "greedy"}]})
    assert answer.status_code == 201
    game_id = answer.json["id"]
    assert answer.json["seats"][2] == {"seat": 2, "name": "greedy bot", "bot": "greedy", "budget": None,
                                      "reserved": False, "reserved_for": None,
        "waits_for": None, "invite_code": None, "player": None}
    joined = api.post(f"/v1/games/{game_id}/join", json={"name": "robo", "bot": "random"})
    assert joined.status_code == 201 and joined.json["token"] is None and joined.json["seat"] == 0
    assert api.post(f"/v1/games/{game_id}/join", json={"name": "x", "bot": "genius"}).status_code == 422
    human = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}).json
    game = api.get(f"/v1/games/{game_id}", headers=bearer(human["token"])).json
    assert game["status"] == "active" and [s["bot"] for s in game["seats"]] == ["random", None, "greedy"]


def test_all_bot_games_start_at_once_and_bad_bots_are_refused(api: ContractClient) -> None:
    bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "greedy"}]
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": bots})
    assert api.get(f"/v1/games/{answer.json['id']}").json["status"] == "active"
    for wrong in ([{"seat": 0, "level": "genius"}], [{"seat": 5, "level": "random"}], bots + [{"seat": 1, "level": "random"}]):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": wrong})
        assert answer.status_code == 422 and "bots" in answer.json["errors"]


def test_an_ai_that_searches_thinks_within_the_budget_it_is_given(api: ContractClient) -> None:
    types = {t["name"]: t for t in api.get("/v1/games/types").json["types"]}
    assert types["taki"]["budgets"] == {"search": {"iterations": 40, "seconds": 0.8}}
    assert types["djambi"]["budgets"] == {"search": {"iterations": 6, "seconds": 0.5}}
    bots = [{"seat": 1, "level": "search", "budget": {"seconds": 2.5}}, {"seat": 2, "level": "search"}]
    answer = api.post("/v1/games", json={"game": "taki", "seats": 4, "bots": bots})
    assert [seat["budget"] for seat in answer.json["seats"]] == [None, {"iterations": None, "seconds": 2.5}, None, None]
    joined = api.post(f"/v1/games/{answer.json['id']}/join", json={"name": "deep", "bot": "search", "budget": {"iterations": 500}})
    assert joined.status_code == 201
    seats = api.get(f"/v1/games/{answer.json['id']}").json["seats"]
    assert seats[0]["budget"] == {"iterations": 500, "seconds": MAX_THINK_SECONDS}  # thinking always ends


def test_a_rated_games_ai_thinks_within_its_levels_own_budget(api: ContractClient) -> None:
    budget = {"iterations": 1}
    bots = [{"seat": 0, "level": "search", "budget": budget}, {"seat": 1, "level": "greedy"}]
    unrated = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": bots})
    assert unrated.status_code == 201 and unrated.json["rated"] is False
    refused = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": bots, "rated": True})
    assert refused.status_code == 422 and refused.json["code"] == "budget_unrated", refused.json
    assert "unrated" in refused.json["detail"] and "budget" in refused.json["errors"]
    rated = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": bots[1:], "rated": True})
    joined = api.post(f"/v1/games/{rated.json['id']}/join", json={"name": "s", "bot": "search", "budget": budget})
    assert joined.status_code == 422 and joined.json["code"] == "budget_unrated"
    assert api.get(f"/v1/games/{rated.json['id']}").json["seats"][0]["bot"] is None
    assert api.post(f"/v1/games/{rated.json['id']}/join", json={"name": "s", "bot": "search"}).status_code == 201


@pytest.mark.parametrize("budget", [
    {}, {"iterations": None, "seconds": None}, {"seconds": "2"}, {"seconds": True}, {"seconds": 0}, {"seconds": MAX_THINK_SECONDS + 1}, {"iterations": 0},
    {"iterations": 1.5}, {"iterations": 100_001}, {"moves": 3}, [], "fast",
])
def test_a_budget_that_limits_nothing_or_too_much_is_refused(api: ContractClient, budget: object) -> None:
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": [{"seat": 0, "level": "search", "budget": budget}]})
    assert answer.status_code == 422 and "budget" in answer.json["errors"]["bots"]["0"], answer.json


def test_only_an_ai_that_searches_takes_a_budget(api: ContractClient) -> None:
    budget = {"iterations": 10}
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": [{"seat": 0, "level": "greedy", "budget": budget}]})
    assert answer.status_code == 422 and "greedy does not search" in answer.json["errors"]["bots"][0]
    game_id = create(api, seats=2)
    for body in ({"name": "g", "bot": "random", "budget": budget}, {"name": "ann", "budget": budget}):
        answer = api.post(f"/v1/games/{game_id}/join", json=body)
        assert answer.status_code == 422 and "budget" in answer.json["errors"], body
    assert api.get(f"/v1/games/{game_id}").json["seats"] == [
        {"seat": seat, "name": None, "bot": None, "budget": None, "reserved": False, "reserved_for": None,
        "waits_for": None, "invite_code": None, "player": None}
        for seat in range(2)]
    for deadline in ({"seconds": 60, "policy": "skip", "budget": budget}, {"seconds": 60, "policy": "auto", "level": "greedy", "budget": budget}):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": deadline})
        assert answer.status_code == 422 and "turn_deadline" in answer.json["errors"], deadline
    deadline = {"seconds": 60, "policy": "auto", "level": "search", "budget": budget}
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": deadline})
    assert answer.json["turn_deadline"]["budget"] == {"iterations": 10, "seconds": MAX_THINK_SECONDS}


def test_turn_deadlines_at_creation(api: ContractClient) -> None:
    deadline = {"seconds": 86400, "policy": "auto", "level": "greedy", "vacation_days": 7, "budget": None, "clock": "per_move", "increment": 0, "maximum": None, "weekends": False}
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": deadline})
    assert answer.status_code == 201 and answer.json["turn_deadline"] == deadline
    assert api.get(f"/v1/games/{answer.json['id']}").json["turn_deadline"] == deadline
    skip = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": {"seconds": 60, "policy": "skip"}})
    assert skip.json["turn_deadline"] == {"seconds": 60, "policy": "skip", "level": None, "vacation_days": 0, "budget": None,
                                          "clock": "per_move", "increment": 0, "maximum": None, "weekends": False}
    for wrong in ({"seconds": 0, "policy": "skip"}, {"seconds": 60, "policy": "auto"},
                  {"seconds": 60, "policy": "skip", "level": "greedy"}, {"seconds": 60, "policy": "nap"},
                  {"seconds": 60, "policy": "skip", "clock": "simple", "increment": 5},
                  {"seconds": 60, "policy": "skip", "clock": "fischer", "vacation_days": 2},
                  {"seconds": 60, "policy": "skip", "clock": "sandglass"}):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": wrong})
        assert answer.status_code == 422 and "turn_deadline" in answer.json["errors"], wrong


def test_a_seat_can_resign(api: ContractClient) -> None:
    game_id = create(api, seats=3)
    tokens = seat_all(api, game_id, 3)
    answer = api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[2]))
    assert answer.status_code == 201 and answer.json["events"][0]["type"] == "player_forfeited"
    game = api.get(f"/v1/games/{game_id}").json
    assert game["table"]["forfeited"] == [2] and game["status"] == "active"
    again = api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[2]))
    assert again.json["reason"] == "not_in_game"
