"""Event streams over the Flask test client, and the spectator delay on every read."""

from __future__ import annotations

from typing import Any

from tests.contract import ContractClient
from tests.service.test_export import finished_game
from tests.service.test_games_api import bearer, seat_all
from tests.sse import parse


def all_events(api: ContractClient, game_id: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = api.get(f"/v1/games/{game_id}/events?after={after}&limit=1000", headers=headers or {}).json
        events, after = events + page["events"], page["next"]
    return events


def test_the_stream_of_a_finished_game_sends_every_event_then_ends(api: ContractClient) -> None:
    game_id = finished_game(api, "taki", 2)
    log = all_events(api, game_id)
    answer = api.get(f"/v1/games/{game_id}/stream")
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    *events, end = parse(answer.get_data(as_text=True))
    assert [m.data for m in events] == log and [m.id for m in events] == [str(e["version"]) for e in log]
    assert end.event == "end" and end.data == {"version": len(log), "status": "finished"}


def test_a_reconnect_gets_only_what_it_missed_and_none_once_it_has_all(api: ContractClient) -> None:
    game_id = finished_game(api, "taki", 2)
    last = api.get(f"/v1/games/{game_id}").json["version"]
    resumed = parse(api.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": "5"}).get_data(as_text=True))
    assert [m.id for m in resumed[:-1]] == [str(v) for v in range(6, last + 1)]
    assert api.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": str(last)}).status_code == 204
    assert api.get(f"/v1/games/{game_id}/stream?after={last}").status_code == 204


def test_a_broken_last_event_id_is_refused(api: ContractClient) -> None:
    game_id = finished_game(api, "taki", 2)
    for bad in ("x", "-1", "1" * 16):
        answer = api.get(f"/v1/games/{game_id}/stream", headers={"Last-Event-ID": bad})
        assert answer.status_code == 422 and answer.json["code"] == "validation_error"
    assert api.get("/v1/games/nosuchgame/stream").status_code == 404


def play_moves(api: ContractClient, game_id: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        seat = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["to_move"][0]
        legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[seat])).json["commands"]
        assert api.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=bearer(tokens[seat])).status_code == 201


def move_ends(log: list[dict[str, Any]]) -> list[int]:
    """The versions at which a move (or the opening) ends."""
    return [e["version"] for e, after in zip(log, log[1:] + [None]) if after is None or after["command_id"] != e["command_id"]]


def test_spectators_see_the_game_some_moves_late_and_seats_see_it_live(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "djambi", "seats": 4, "spectator_delay": 2}).json["id"]
    assert api.get(f"/v1/games/{game_id}").json["spectator_delay"] == 2
    tokens = seat_all(api, game_id, 4)
    opening = api.get(f"/v1/games/{game_id}").json["version"]
    play_moves(api, game_id, tokens, 1)
    assert api.get(f"/v1/games/{game_id}").json["version"] == opening  # fewer moves than the delay: the opening
    play_moves(api, game_id, tokens, 3)
    boundaries = move_ends(all_events(api, game_id, bearer(tokens[0])))
    live, late = boundaries[-1], boundaries[-3]
    assert api.get(f"/v1/games/{game_id}", headers=bearer(tokens[1])).json["version"] == live
    seen = api.get(f"/v1/games/{game_id}")
    assert seen.json["version"] == late and seen.headers["ETag"] == f'"{late}"'
    assert seen.json["table"] == api.get(f"/v1/games/{game_id}/states/{late}").json["table"]
    events = api.get(f"/v1/games/{game_id}/events?limit=1000").json
    assert events["version"] == late and events["events"][-1]["version"] == late and events["next"] is None
    assert api.get(f"/v1/games/{game_id}/states/{late + 1}").json["code"] == "version_not_found"
    assert api.get(f"/v1/games/{game_id}/states/{late + 1}", headers=bearer(tokens[2])).status_code == 200
    api.post(f"/v1/games/{game_id}/commands", json={"type": "resign"}, headers=bearer(tokens[0]))
    for seat in (1, 2):
        api.post(f"/v1/games/{game_id}/commands", json={"type": "resign"}, headers=bearer(tokens[seat]))
    finished = api.get(f"/v1/games/{game_id}").json
    assert finished["status"] == "finished" and finished["version"] == move_ends(all_events(api, game_id, bearer(tokens[0])))[-1]


def test_a_spectator_delay_out_of_range_is_refused(api: ContractClient) -> None:
    for bad in (-1, 1001, "2", 1.5):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "spectator_delay": bad})
        assert answer.status_code == 422 and "spectator_delay" in answer.json["errors"]


def test_the_listing_does_not_leak_a_delayed_games_progress(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "djambi", "seats": 4, "spectator_delay": 3}).json["id"]
    tokens = seat_all(api, game_id, 4)
    play_moves(api, game_id, tokens, 5)
    seen = api.get(f"/v1/games/{game_id}")
    live = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["version"]
    assert seen.json["version"] < live
    listed = [game for game in api.get("/v1/games?status=active&limit=100").json["games"] if game["id"] == game_id]
    assert listed == [{key: value for key, value in seen.json.items() if key in listed[0]}]
    assert listed[0]["version"] == seen.json["version"] == int(seen.headers["ETag"].strip('"'))
