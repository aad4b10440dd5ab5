"""Time controls through the API: every seat's clock in the game's view, the same clocks rebuilt
from an exported log, vacations that stop them without telling others when they end, and the
inbox by time left. Time is the store's clock, moved by the tests."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from events import clock
from service import limits
from tests.contract import ContractClient
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register

HOUR, DAY = 3_600_000, 86_400_000
T0 = int(datetime(2026, 11, 25, 9, tzinfo=UTC).timestamp() * 1000)  # a Wednesday morning


class Moments:
    """The store's clock, stood still at `now` until a test moves it."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now

    def wait(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def moments(monkeypatch: pytest.MonkeyPatch) -> Iterator[Moments]:
    found = Moments()
    monkeypatch.setattr(clock, "now", found)
    yield found


def fischer_days(initial: int, increment: int, maximum: int, **more: Any) -> dict[str, Any]:
    return {"clock": "fischer", "seconds": initial * 86400, "increment": increment * 86400, "maximum": maximum * 86400,
            "policy": "skip", **more}


def two_players(api: ContractClient, deadline: dict[str, Any], zones: tuple[str, str] = ("UTC", "UTC")) -> tuple[str, list[str]]:
    """A started two-seat TAKI game between registered ann (seat 0) and bo, in their time zones."""
    tokens = []
    for name, zone in zip(("ann", "bo"), zones, strict=True):
        token = register(api, name)["token"]
        assert api.put("/v1/players/me/time-zone", json={"time_zone": zone}, headers=bearer(token)).status_code == 200
        tokens.append(token)
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": deadline})
    assert answer.status_code == 201, answer.json
    for token in tokens:
        assert api.post(f"/v1/games/{answer.json['id']}/join", json={"name": "x"}, headers=bearer(token)).status_code == 201
    return answer.json["id"], tokens


def move(api: ContractClient, game_id: str, tokens: list[str]) -> None:
    """The seat to move ends its turn: it closes a run or ends a follow-up if it may, else plays a number card,
    else draws, else sends its first legal command, until another seat is to move (a Stop in a game of two, say,
    gives it the turn again), so that the deal's luck changes no turn order."""
    seat = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["to_move"][0]  # live, whatever the delay
    for _ in range(6):
        legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=bearer(tokens[seat])).json["commands"]
        ends = [c for c in legal if c["type"] in ("taki.close_taki", "taki.end_turn")]
        numbers = [c for c in legal if c["type"] == "taki.play" and c["card"].split(".")[1].isdigit()]
        command = next(iter(ends + numbers + [c for c in legal if c["type"] == "taki.draw"]), legal[0])
        assert api.post(f"/v1/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])).status_code == 201
        if api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json["to_move"] != [seat]:
            return
    raise AssertionError(f"seat {seat} kept the turn")


@pytest.mark.parametrize("deadline", [
    fischer_days(3, 1, 5, weekends=True), {"clock": "simple", "seconds": 2 * 86400, "policy": "skip", "weekends": True},
    fischer_days(1, 0, 1)], ids=["fischer", "simple", "sudden"])
def test_clocks_over_a_played_game_equal_those_rebuilt_from_its_exported_log(
        api: ContractClient, moments: Moments, deadline: dict[str, Any]) -> None:
    game_id, tokens = two_players(api, deadline, ("Europe/Paris", "Asia/Tokyo"))
    shown = {}
    for number, hours in enumerate([5, 31, 2, 50, 7, 26, 60, 3, 19, 44]):
        moments.wait(hours * HOUR)
        if number == 4:  # ann goes away for two days and comes back after one and a half
            assert api.put("/v1/players/me/vacation", json={"until": moments.now + 2 * DAY}, headers=bearer(tokens[0])).status_code == 200
            moments.wait(36 * HOUR)
            assert api.delete("/v1/players/me/vacation", headers=bearer(tokens[0])).status_code == 204
        move(api, game_id, tokens)
        game = api.get(f"/v1/games/{game_id}").json
        shown[game["version"]] = game["clocks"]
    moments.wait(HOUR)
    seat = api.get(f"/v1/games/{game_id}").json["to_move"][0]
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[seat])).status_code == 201
    final = api.get(f"/v1/games/{game_id}").json
    assert final["status"] == "finished" and not any(c["running"] for c in final["clocks"])
    exported = api.get(f"/v1/games/{game_id}/export").get_data()
    header = json.loads(exported.splitlines()[0])["clock"]
    assert header["time_zones"] == ({"0": "Europe/Paris", "1": "Asia/Tokyo"} if deadline.get("weekends") else {})
    assert header["vacations"] == {"0": [[T0 + 95 * HOUR, T0 + 131 * HOUR]]}  # ann's, as she took and ended it
    moments.wait(400 * DAY)  # the copy is read long after, by another server's clock
    copy = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"}).json["id"]
    assert api.get(f"/v1/games/{copy}").json["turn_deadline"] == final["turn_deadline"]
    assert api.get(f"/v1/games/{copy}").json["clocks"] == final["clocks"]
    for version, clocks in shown.items():
        assert api.get(f"/v1/games/{copy}/states/{version}").json["clocks"] == clocks, version
        assert api.get(f"/v1/games/{game_id}/states/{version}").json["clocks"] == clocks, version
    assert len({str(c) for c in shown.values()}) > 5  # the clocks moved


def players(api: ContractClient, game: str, seats: int, deadline: dict[str, Any]) -> tuple[str, list[str]]:
    """A started game of `game` between registered players, one a seat."""
    tokens = [register(api, f"p{seat}")["token"] for seat in range(seats)]
    answer = api.post("/v1/games", json={"game": game, "seats": seats, "turn_deadline": deadline})
    assert answer.status_code == 201, answer.json
    for token in tokens:
        assert api.post(f"/v1/games/{answer.json['id']}/join", json={"name": "x"}, headers=bearer(token)).status_code == 201
    return answer.json["id"], tokens


@pytest.mark.parametrize(("game", "seats", "leave"), [("taki", 3, "forfeit"), ("djambi", 4, "resign")])
def test_a_move_out_of_turn_charges_only_the_seat_to_move_live_as_in_the_exported_log(
        api: ContractClient, moments: Moments, game: str, seats: int, leave: str) -> None:
    game_id, tokens = players(api, game, seats, {"clock": "fischer", "seconds": 600, "increment": 5, "maximum": 900,
                                                 "policy": "skip"})
    shown = {}
    for seconds in [10, 30, 20]:
        moments.wait(seconds * 1000)
        move(api, game_id, tokens)
        shown[api.get(f"/v1/games/{game_id}").json["version"]] = api.get(f"/v1/games/{game_id}").json["clocks"]
    waiting = api.get(f"/v1/games/{game_id}").json["to_move"][0]  # to move from 60 s
    banks = {c["seat"]: c["remaining"] for c in api.get(f"/v1/games/{game_id}").json["clocks"]}
    out_of_turn = next(seat for seat in range(seats) if seat != waiting and seat != (waiting - 1) % seats)
    moments.wait(90_000)
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": leave}, headers=bearer(tokens[out_of_turn])).status_code == 201
    shown[api.get(f"/v1/games/{game_id}").json["version"]] = api.get(f"/v1/games/{game_id}").json["clocks"]
    moments.wait(10_000)
    view = api.get(f"/v1/games/{game_id}").json
    assert view["to_move"] == [waiting]  # the forfeit out of turn neither ended its turn nor began one
    left = {c["seat"]: c["remaining"] for c in view["clocks"]}
    assert left[waiting] == banks[waiting] - 100_000
    assert left[out_of_turn] == banks[out_of_turn]  # not to move, nor given an increment
    moments.wait(5000)
    move(api, game_id, tokens)
    final = api.get(f"/v1/games/{game_id}").json
    given = 0 if waiting in final["to_move"] else 5000  # its turn ended with its own move (a TAKI card may not end it)
    assert {c["seat"]: c["remaining"] for c in final["clocks"]}[waiting] == banks[waiting] - 105_000 + given
    shown[final["version"]] = final["clocks"]
    for seat in (seat for seat in range(seats) if seat != out_of_turn):
        if api.get(f"/v1/games/{game_id}").json["status"] != "finished":
            api.post(f"/v1/games/{game_id}/commands", json={"type": leave}, headers=bearer(tokens[seat]))
    exported = api.get(f"/v1/games/{game_id}/export").get_data()
    copy = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"})
    assert copy.status_code == 201, copy.get_data()
    for version, clocks in shown.items():
        assert api.get(f"/v1/games/{copy.json['id']}/states/{version}").json["clocks"] == clocks, version


def test_a_log_exported_before_clocks_still_imports(api: ContractClient, moments: Moments) -> None:
    game_id, tokens = two_players(api, fischer_days(3, 1, 5))
    move(api, game_id, tokens)
    api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[1]))
    header, *lines = api.get(f"/v1/games/{game_id}/export").get_data().splitlines(keepends=True)
    assert b'"clock"' in header
    older = header.replace(header[header.index(b', "clock"'):header.rindex(b"}")], b"")
    answer = api.post("/v1/games/import", data=b"".join([older, *lines]), headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 201 and answer.json["turn_deadline"] is None
    assert api.get(f"/v1/games/{answer.json['id']}").json["clocks"] is None


def test_others_see_a_vacation_but_not_its_end_and_the_etag_changes(api: ContractClient, moments: Moments) -> None:
    game_id, tokens = two_players(api, fischer_days(3, 1, 5))
    seen = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[1]))
    assert seen.json["clocks"][0] == {"seat": 0, "remaining": 3 * DAY, "running": True, "paused": None,
                                      "runs_out": T0 + 3 * DAY, "stops_at": None}
    tag = seen.headers["ETag"]
    assert api.get(f"/v1/games/{game_id}", headers={**bearer(tokens[1]), "If-None-Match": tag}).status_code == 304
    moments.wait(HOUR)
    back = moments.now + 4 * DAY
    assert api.put("/v1/players/me/vacation", json={"until": back}, headers=bearer(tokens[0])).json["vacation_days_left"] == 26
    moments.wait(HOUR)
    answer = api.get(f"/v1/games/{game_id}", headers={**bearer(tokens[1]), "If-None-Match": tag})
    assert answer.status_code == 200 and answer.headers["ETag"] != tag
    assert answer.json["clocks"][0] == {"seat": 0, "remaining": 3 * DAY - HOUR, "running": False, "paused": "vacation",
                                        "runs_out": None, "stops_at": None}
    assert answer.json["deadlines"] == [{"seat": 0, "at": None, "policy": "skip"}]
    for spectator in (api.get(f"/v1/games/{game_id}").json, api.get("/v1/players/me/inbox", headers=bearer(tokens[1])).json):
        assert str(back) not in str(spectator) and str(back + 3 * DAY - HOUR) not in str(spectator)
    own = api.get(f"/v1/games/{game_id}", headers=bearer(tokens[0])).json
    assert own["clocks"][0]["runs_out"] == own["deadlines"][0]["at"] == back + 3 * DAY - HOUR
    assert api.get("/v1/players/me/inbox", headers=bearer(tokens[0])).json["games"][0]["deadline"] == back + 3 * DAY - HOUR
    tag = answer.headers["ETag"]
    assert api.delete("/v1/players/me/vacation", headers=bearer(tokens[0])).status_code == 204
    back_now = api.get(f"/v1/games/{game_id}", headers={**bearer(tokens[1]), "If-None-Match": tag})
    assert back_now.status_code == 200 and back_now.json["clocks"][0]["runs_out"] == moments.now + 3 * DAY - HOUR
    assert api.get("/v1/players/me", headers=bearer(tokens[0])).json["vacation_days_left"] == 29  # one day begun


def test_a_vacation_past_the_days_left_is_refused(api: ContractClient, moments: Moments) -> None:
    token = register(api, "ann")["token"]
    answer = api.put("/v1/players/me/vacation", json={"until": moments.now + 31 * DAY}, headers=bearer(token))
    assert answer.status_code == 409 and answer.json["code"] == "no_vacation_days_left"
    for zone in ("Mars/Olympus", "localtime", "posixrules", "Factory"):
        assert api.put("/v1/players/me/time-zone", json={"time_zone": zone}, headers=bearer(token)).status_code == 422
    assert api.get("/v1/players/me", headers=bearer(token)).json["time_zone"] == "UTC"


def test_a_player_begins_or_moves_a_few_vacations_an_hour(
        api: ContractClient, moments: Moments, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: 1_800_001_800.0))  # mid-hour: one window throughout
    token = register(api, "ann")["token"]
    far = api.put("/v1/players/me/vacation", json={"until": moments.now + 400 * DAY}, headers=bearer(token))
    assert far.status_code == 422 and "vacation" not in far.headers.get("RateLimit", "")  # refused first: not counted
    for n in range(6):
        answer = api.put("/v1/players/me/vacation", json={"until": moments.now + DAY + n * HOUR}, headers=bearer(token))
        assert answer.status_code == 200 and f'"vacation";r={5 - n};' in answer.headers["RateLimit"]
        assert '"vacation";q=6;w=3600' in answer.headers["RateLimit-Policy"]
    same = api.put("/v1/players/me/vacation", json={"until": moments.now + DAY + 5 * HOUR}, headers=bearer(token))
    assert same.status_code == 200 and "vacation" not in same.headers.get("RateLimit", "")  # nothing moved: not counted
    refused = api.put("/v1/players/me/vacation", json={"until": moments.now + 2 * DAY}, headers=bearer(token))
    assert refused.status_code == 429 and refused.json["code"] == "vacation_limited" and refused.json["limit"] == 6
    assert int(refused.headers["Retry-After"]) > 0
    assert api.get("/v1/players/me", headers=bearer(token)).json["vacation_until"] == moments.now + DAY + 5 * HOUR
    other = register(api, "bo")["token"]
    assert api.put("/v1/players/me/vacation", json={"until": moments.now + DAY}, headers=bearer(other)).status_code == 200


def test_the_inbox_puts_the_least_time_left_first(api: ContractClient, moments: Moments) -> None:
    ann, bo = register(api, "ann"), register(api, "bo")
    games = []
    for deadline in (fischer_days(5, 0, 5), {"seconds": 86400, "policy": "skip"}, fischer_days(2, 0, 2)):
        game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": deadline}).json["id"]
        for player in (ann, bo):
            api.post(f"/v1/games/{game_id}/join", json={"name": "x"}, headers=bearer(player["token"]))
        games.append(game_id)
    moments.wait(HOUR)
    inbox = api.get("/v1/players/me/inbox", headers=bearer(ann["token"])).json["games"]
    assert [(entry["game"]["id"], entry["time_left"]) for entry in inbox] == [
        (games[1], DAY - HOUR), (games[2], 2 * DAY - HOUR), (games[0], 5 * DAY - HOUR)]


@pytest.mark.parametrize("clock", [
    {"control": {"seconds": "a day", "policy": "skip"}}, {"control": {"seconds": 60, "policy": "skip", "clock": "hourglass"}},
    {"control": {"seconds": 60, "policy": "skip"}, "time_zones": {"0": "Mars/Olympus"}},
    {"control": {"seconds": 60, "policy": "skip"}, "time_zones": {"0": "localtime"}},  # the host's: no place
    {"control": {"seconds": 60, "policy": "skip"}, "vacations": {"0": [[5, 1]]}},
    {"control": {"seconds": 60, "policy": "skip"}, "vacations": {"7": [[1, 5]]}}, {"control": None}, "fischer",
    {"control": {"seconds": 10**12, "policy": "skip"}},  # longer than a year
    {"control": {"seconds": 60, "policy": "skip", "clock": "fischer", "increment": 60}},  # a bank without a maximum
    {"control": {"seconds": 60, "policy": "skip"}, "vacations": {"0": [[T0, 10**15]]}}])  # past the log's last event
def test_a_log_whose_clock_is_not_one_the_server_writes_is_refused(api: ContractClient, moments: Moments,
                                                                    clock: object) -> None:
    game_id, tokens = two_players(api, fischer_days(3, 1, 5))
    api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[0]))
    header, *lines = api.get(f"/v1/games/{game_id}/export").get_data().splitlines(keepends=True)
    forged = json.dumps(json.loads(header) | {"clock": clock}).encode() + b"\n"
    answer = api.post("/v1/games/import", data=b"".join([forged, *lines]), headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and answer.json["code"] == "invalid_log", answer.json


@pytest.mark.parametrize("later", [10**13, 365 * DAY, -DAY])
def test_a_log_whose_times_are_after_now_or_out_of_order_is_refused(api: ContractClient, moments: Moments,
                                                                     later: int) -> None:
    game_id, tokens = two_players(api, fischer_days(3, 1, 5))
    moments.wait(HOUR)
    api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[0]))
    header, *lines = api.get(f"/v1/games/{game_id}/export").get_data().splitlines(keepends=True)
    last = json.loads(lines[-1])
    forged = json.dumps(last | {"time": last["time"] + later}).encode() + b"\n"
    answer = api.post("/v1/games/import", data=b"".join([header, *lines[:-1], forged]),
                      headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and answer.json["code"] == "invalid_log", answer.json


def test_a_logs_vacations_in_any_order_stop_the_clocks_as_in_order(api: ContractClient, moments: Moments) -> None:
    game_id, tokens = two_players(api, fischer_days(3, 1, 5))
    moments.wait(HOUR)
    assert api.put("/v1/players/me/vacation", json={"until": moments.now + 2 * DAY}, headers=bearer(tokens[0])).status_code == 200
    moments.wait(3 * DAY)
    move(api, game_id, tokens)
    given = 0 if api.get(f"/v1/games/{game_id}").json["to_move"] == [0] else DAY  # a TAKI card may not end her turn
    api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[1]))
    header, *lines = api.get(f"/v1/games/{game_id}/export").get_data().splitlines(keepends=True)
    (start, end), = json.loads(header)["clock"]["vacations"]["0"]
    copies = []
    for spans in ([[start, end]], [[start + DAY, end], [start, start + HOUR], [start + HOUR, start + DAY + HOUR]]):
        forged = json.loads(header)
        forged["clock"]["vacations"]["0"] = spans
        body = b"".join([json.dumps(forged).encode() + b"\n", *lines])
        copies.append(api.post("/v1/games/import", data=body, headers={"Content-Type": "application/x-ndjson"}).json["id"])
    last = api.get(f"/v1/games/{game_id}").json["version"]
    in_order, shuffled = ([api.get(f"/v1/games/{copy}/states/{version}").json["clocks"] for version in range(1, last + 1)]
                          for copy in copies)
    assert in_order == shuffled and in_order[-1][0]["remaining"] == 3 * DAY - (DAY + HOUR) + given  # all but the vacation


def test_a_fischer_clock_with_an_increment_needs_a_maximum_of_a_year_at_most(api: ContractClient) -> None:
    for control in ({"clock": "fischer", "seconds": 60, "increment": 5, "policy": "skip"},
                    fischer_days(3, 1, 366)):
        answer = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": control})
        assert answer.status_code == 422 and answer.json["code"] == "validation_error", answer.json


def test_a_finished_games_states_hide_a_vacations_end_from_whoever_asks_and_equal_its_copys(
        api: ContractClient, moments: Moments) -> None:
    tokens = [register(api, name)["token"] for name in ("ann", "bo", "cy")]
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 3, "turn_deadline": fischer_days(3, 1, 5)}).json["id"]
    for token in tokens:
        assert api.post(f"/v1/games/{game_id}/join", json={"name": "x"}, headers=bearer(token)).status_code == 201
    moments.wait(HOUR)
    back = moments.now + 4 * DAY
    assert api.put("/v1/players/me/vacation", json={"until": back}, headers=bearer(tokens[0])).status_code == 200
    moments.wait(HOUR)
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[2])).status_code == 201
    during = api.get(f"/v1/games/{game_id}").json["version"]  # cy gone, ann still to move and away
    moments.wait(HOUR)
    assert api.post(f"/v1/games/{game_id}/commands", json={"type": "forfeit"}, headers=bearer(tokens[1])).status_code == 201
    assert api.get(f"/v1/games/{game_id}").json["status"] == "finished"
    asked = api.get(f"/v1/games/{game_id}/states/{during}?seat=0").json  # by anyone, as ann's seat
    assert asked["clocks"][0]["paused"] == "vacation" and asked["clocks"][0]["runs_out"] is None
    assert str(back) not in str(asked) and str(back + 3 * DAY - HOUR) not in str(asked)
    own = api.get(f"/v1/games/{game_id}/states/{during}", headers=bearer(tokens[0])).json["clocks"]
    assert own[0]["runs_out"] == T0 + 3 * HOUR + own[0]["remaining"]  # the vacation as the log gives it: to its last event
    exported = api.get(f"/v1/games/{game_id}/export").get_data()
    copy = api.post("/v1/games/import", data=exported, headers={"Content-Type": "application/x-ndjson"}).json["id"]
    assert [c | {"runs_out": None} for c in own] == api.get(f"/v1/games/{copy}/states/{during}").json["clocks"]
