"""The ratings over HTTP, each answer checked against the contract: a game created rated or not,
a game's leaderboard (established and provisional apart, paged), a player's ratings with their
latest history, latest rated games, opponents and head-to-head."""

from __future__ import annotations

import time

import pytest

from application.ratings import Ratings
from events import keys
from events.ratings import Result
from runtime.config import Config
from tests.contract import ContractClient
from tests.service.test_players_api import register


def _ratings(api: ContractClient) -> Ratings:
    return Ratings(api.client.application.extensions["meeple"].store.redis)


def test_a_game_of_two_ai_levels_is_rated_and_one_with_a_seat_for_anyone_is_not(api: ContractClient) -> None:
    rated = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": [{"seat": 0, "level": "random"},
                                                                                {"seat": 1, "level": "greedy"}]})
    assert rated.status_code == 201 and rated.json["rated"] is True
    unrated = api.post("/v1/games", json={"game": "taki", "seats": 2, "bots": [{"seat": 0, "level": "random"}]})
    assert unrated.json["rated"] is False
    chosen = api.post("/v1/games", json={"game": "taki", "seats": 2, "rated": True})
    assert chosen.json["rated"] is True
    refused = api.post(f"/v1/games/{chosen.json['id']}/join", json={"name": "guest"})
    assert refused.status_code == 422 and "player" in refused.json["errors"]


def _played(api: ContractClient) -> tuple[str, str]:
    """Ann and bo, and ten rated TAKI games: ann ahead of bo and the greedy AI in most."""
    ann, bo = register(api, "ann")["id"], register(api, "bo")["id"]
    ratings, now = _ratings(api), int(time.time() * 1000)
    for number in range(10):
        order = [ann, "ai:greedy", bo] if number % 3 else [bo, ann, "ai:greedy"]
        ratings.record(Result(f"g{number}", "taki", now - 10_000 + number, tuple((each,) for each in order),
                              {ann: "ann", bo: "bo", "ai:greedy": "AI (greedy)"}))
    ratings.fold("taki")
    return ann, bo


def test_a_leaderboard_lists_the_established_best_first_and_the_provisional_apart(api: ContractClient) -> None:
    ann, bo = _played(api)
    provisional = api.get("/v1/ratings/taki?provisional=true&limit=2")
    assert provisional.status_code == 200 and provisional.json["total"] == 3  # ten games leave every sigma above 6
    assert [each["player"] for each in provisional.json["ratings"]] == [ann, "ai:greedy"]
    assert provisional.json["next"] == 2
    rest = api.get("/v1/ratings/taki?provisional=true&after=2")
    assert [each["rank"] for each in rest.json["ratings"]] == [3] and rest.json["next"] is None
    assert api.get("/v1/ratings/taki").json["ratings"] == []
    assert api.get("/v1/ratings/djambi?days=1").json["total"] == 0
    assert api.get("/v1/ratings/chess").status_code == 404
    assert api.get("/v1/ratings/taki?days=0").status_code == 422


def test_a_player_page_gives_each_rating_after_each_game_places_results_and_head_to_head(api: ContractClient) -> None:
    ann, bo = _played(api)
    page = api.get(f"/v1/players/{ann}/ratings").json
    [taki] = page["games"]
    assert page["name"] == "ann" and taki["games"] == 10 and taki["won"] == 6 and taki["places"] == [6, 4]
    history, total = _ratings(api).history("taki", ann)
    assert [(point["game_id"], point["mu"], point["sigma"]) for point in taki["history"]] == [
        (entry.game_id, entry.mu, entry.sigma) for entry in history]
    assert taki["history"][-1]["rating"] == taki["rating"] and taki["history_total"] == total == 10
    results = api.get(f"/v1/players/{ann}/results?limit=3").json["results"]
    assert [result["game_id"] for result in results] == ["g9", "g8", "g7"] and results[0]["place"] == 2
    versus = api.get(f"/v1/players/{ann}/versus/{bo}").json["games"]
    assert versus == [{"game": "taki", "played": 10, "ahead": 6, "behind": 4, "tied": 0}]
    assert api.get("/v1/players/ai:greedy/ratings").json["games"][0]["places"] == [0, 6, 4]
    assert api.get("/v1/players/ai:random/ratings").json == {"player": "ai:random", "name": "AI (random)", "ai": True, "games": []}
    assert api.get("/v1/players/nobody/ratings").status_code == 404
    assert api.get("/v1/players/ai:nobody/results").status_code == 404


def test_an_unlisted_game_counts_on_a_player_page_without_its_id(api: ContractClient) -> None:
    ann, bo = register(api, "ann")["id"], register(api, "bo")["id"]
    ratings = _ratings(api)
    ratings.record(Result("secret1", "taki", int(time.time() * 1000), ((ann,), (bo,)), {ann: "ann", bo: "bo"}, unlisted=True))
    ratings.fold("taki")
    [taki] = api.get(f"/v1/players/{ann}/ratings").json["games"]
    assert taki["games"] == 1 and taki["won"] == 1 and [point["game_id"] for point in taki["history"]] == [None]
    [result] = api.get(f"/v1/players/{bo}/results").json["results"]
    assert result["game_id"] is None and result["place"] == 2
    assert "secret1" not in api.get(f"/v1/players/{ann}/results").text


def test_a_player_page_learns_which_games_are_unlisted_from_the_history_reading_a_result_only_for_older_entries(
        api: ContractClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bo = register(api, "ann")["id"], register(api, "bo")["id"]
    ratings, now = _ratings(api), int(time.time() * 1000)
    for number, unlisted in enumerate((False, True, False)):
        ratings.record(Result(f"g{number}", "taki", now + number, ((ann,), (bo,)), {}, unlisted=unlisted))
    ratings.fold("taki")
    history = keys.rating_history(keys.ratings_root("taki"), ann)
    [(older, at)] = ratings.redis.zrange(history, 1, 1, withscores=True)
    ratings.redis.zrem(history, older)
    ratings.redis.zadd(history, {older.rsplit(b" ", 1)[0]: at})  # as written before entries said whether their game is unlisted
    read: list[list[str]] = []
    real = Ratings.results
    monkeypatch.setattr(Ratings, "results", lambda self, game, game_ids: (read.append(game_ids), real(self, game, game_ids))[1])
    ann_points = api.get(f"/v1/players/{ann}/ratings").json["games"][0]["history"]
    bo_points = api.get(f"/v1/players/{bo}/ratings").json["games"][0]["history"]
    assert [point["game_id"] for point in ann_points] == [point["game_id"] for point in bo_points] == ["g0", None, "g2"]
    assert read == [["g1"], []]  # ann's older entry only


def test_a_registered_player_is_named_as_registered_whatever_they_sat_as(api: ContractClient) -> None:
    ann, bo = register(api, "ann")["id"], register(api, "bo")["id"]
    ratings = _ratings(api)
    ratings.record(Result("g1", "taki", int(time.time() * 1000), ((ann,), (bo,), ("ai:greedy",)),
                          {ann: "AI (search)", bo: "bo", "ai:greedy": "AI (greedy)"}))
    ratings.fold("taki")
    board = api.get("/v1/ratings/taki?provisional=true").json["ratings"]
    assert [(each["player"], each["name"]) for each in board] == [(ann, "ann"), (bo, "bo"), ("ai:greedy", "AI (greedy)")]
    assert api.get(f"/v1/players/{ann}/ratings").json["name"] == "ann"
    [result] = api.get(f"/v1/players/{bo}/results").json["results"]
    assert [seat["name"] for place in result["places"] for seat in place] == ["ann", "bo", "AI (greedy)"]


def test_a_player_page_draws_the_latest_points_of_a_long_history_and_says_how_many_exist(api: ContractClient) -> None:
    ann, _ = _played(api)
    api.client.application.config["MEEPLE_RATING_HISTORY_POINTS"] = 4
    [taki] = api.get(f"/v1/players/{ann}/ratings").json["games"]
    assert [point["game_id"] for point in taki["history"]] == ["g6", "g7", "g8", "g9"] and taki["history_total"] == 10
    assert taki["games"] == 10 and sum(taki["places"]) == 10


def test_the_opponents_of_a_player_are_listed_most_met_first_a_page_at_a_time(api: ContractClient) -> None:
    ann, bo = _played(api)
    cy = register(api, "cy")["id"]
    ratings = _ratings(api)
    ratings.record(Result("g-cy", "taki", int(time.time() * 1000), ((cy,), (ann,)), {cy: "cy", ann: "ann"}))
    ratings.fold("taki")
    first = api.get(f"/v1/players/{ann}/opponents?game=taki&limit=2")
    assert first.status_code == 200 and first.json["total"] == 3 and first.json["next"] == 2
    assert [(each["player"], each["played"], each["ai"]) for each in first.json["opponents"]] == sorted([
        ("ai:greedy", 10, True), (bo, 10, False)])  # met as often: by id
    rest = api.get(f"/v1/players/{ann}/opponents?game=taki&after=2").json
    assert rest["opponents"] == [{"player": cy, "name": "cy", "ai": False, "played": 1, "ahead": 0, "behind": 1, "tied": 0}]
    assert rest["next"] is None
    assert api.get(f"/v1/players/{ann}/opponents?game=djambi").json["opponents"] == []
    assert api.get(f"/v1/players/{ann}/opponents").status_code == 422
    assert api.get("/v1/players/nobody/opponents?game=taki").status_code == 404


def test_a_page_deeper_than_ten_thousand_is_refused_and_so_is_a_history_of_no_point(
        api: ContractClient, monkeypatch: pytest.MonkeyPatch) -> None:
    assert api.get("/v1/ratings/taki?after=10000").json["ratings"] == []
    assert api.get("/v1/ratings/taki?after=10001").status_code == 422
    assert api.get("/v1/players/ai:greedy/opponents?game=taki&after=10001").status_code == 422
    for points in ("0", "-3"):
        monkeypatch.setenv("MEEPLE_RATING_HISTORY_POINTS", points)
        with pytest.raises(ValueError, match="MEEPLE_RATING_HISTORY_POINTS and MEEPLE_RATING_DAYS are 1 or more"):
            Config.from_env()
