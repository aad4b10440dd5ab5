"""Rated games and the ratings folded from their results: which games are rated, what a result
counts, and a fold that ends in the same numbers whatever order the results arrive in, however
often each is recorded, and when rebuilt (fakeredis and a real Redis server alike)."""

from __future__ import annotations

import random

import pytest
import redis

from application.errors import Invalid
from application.lobby import Bot, GameSettings, Lobby
from application.ratings import MU, Ratings, _release
from application.results import Result, ai_identity, result_of
from domain import GAMES
from domain.core.game import Budget
from domain.core.rng import SeededRng
from events import keys
from events.envelope import Origin
from tests.application.conftest import Asking, finished_game


def _settings(**given: object) -> GameSettings:
    return GameSettings(**given)  # type: ignore[arg-type]


def test_a_game_of_ais_and_reserved_seats_is_rated_by_default_and_one_with_a_seat_for_anyone_is_not(lobby: Lobby) -> None:
    store = lobby.executor.store
    ais = lobby.open("taki", {}, 2, _settings(bots=(Bot(0, "random"), Bot(1, "greedy"))), Asking()).game_id
    reserved = lobby.open("taki", {}, 2, _settings(bots=(Bot(0, "random"),), reserved={1: "bo"}), Asking("ann")).game_id
    open_seat = lobby.open("taki", {}, 2, _settings(bots=(Bot(0, "random"),)), Asking()).game_id
    same_level = lobby.open("taki", {}, 2, _settings(bots=(Bot(0, "random"), Bot(1, "random"))), Asking()).game_id
    assert [store.games.get(game_id).rated for game_id in (ais, reserved, open_seat, same_level)] == [True, True, False, False]


def test_a_rated_fork_or_one_level_at_two_seats_is_refused_and_unrated_by_default(lobby: Lobby) -> None:
    for given, forked_from in [({}, Origin("g", 3)), ({"bots": (Bot(0, "random"), Bot(1, "random"))}, None)]:
        with pytest.raises(Invalid) as refused:
            lobby.open("taki", {}, 2, _settings(rated=True, **given), Asking(), forked_from=forked_from)
        assert "rated" in refused.value.extra["errors"]
        game_id = lobby.open("taki", {}, 2, _settings(**given), Asking(), forked_from=forked_from).game_id
        assert not lobby.executor.store.games.get(game_id).rated


def test_an_ai_given_a_budget_makes_a_game_unrated_and_is_refused_in_a_rated_one(lobby: Lobby) -> None:
    store, budget = lobby.executor.store, Budget(iterations=1)
    bots = (Bot(0, "search", budget), Bot(1, "greedy"))
    assert not store.games.get(lobby.open("taki", {}, 2, _settings(bots=bots), Asking()).game_id).rated
    with pytest.raises(Invalid) as refused:
        lobby.open("taki", {}, 2, _settings(bots=bots, rated=True), Asking())
    assert refused.value.code == "budget_unrated"
    game_id = lobby.open("taki", {}, 2, _settings(bots=(Bot(1, "greedy"),), rated=True), Asking()).game_id
    with pytest.raises(Invalid) as refused:
        lobby.join(game_id, 0, "search bot", bot="search", budget=budget)
    assert refused.value.code == "budget_unrated" and store.games.get(game_id).names[0] is None
    lobby.join(game_id, 0, "search bot", bot="search")
    assert store.games.get(game_id).budgets == {}


def test_a_seat_of_a_rated_game_is_refused_to_a_guest(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 2, _settings(rated=True), Asking()).game_id
    with pytest.raises(Invalid):
        lobby.join(game_id, 0, "guest")
    assert lobby.join(game_id, 0, "Ann", player_id="ann").seat == 0


def _played(lobby: Lobby, levels: tuple[str, str], seed: int, unlisted: bool = False) -> str:
    """A rated two-seat TAKI game between AIs at `levels`, played to its end here."""
    bots = tuple(Bot(seat, level) for seat, level in enumerate(levels))
    game_id = lobby.open("taki", {}, 2, _settings(bots=bots, unlisted=unlisted), Asking()).game_id
    game, rng = GAMES["taki"], SeededRng(seed)
    while not (status := game.status((loaded := lobby.executor.load(game_id)).state)).finished:
        seat = status.to_move[0]
        command = game.bot(levels[seat])(loaded.state, seat, rng)
        lobby.executor.execute(game_id, command, actor=f"bot:{seat}")
    return game_id


def test_a_finished_rated_game_counts_its_identities_in_the_rules_places(lobby: Lobby) -> None:
    game_id = _played(lobby, ("random", "greedy"), 1)
    result = result_of(lobby.executor, game_id)
    assert result is not None
    loaded = lobby.executor.load(game_id)
    winner = loaded.game.status(loaded.state).ranking[0][0]
    assert result.places[0] == (ai_identity(("random", "greedy")[winner]),)
    assert result.names == {"ai:random": "AI (random)", "ai:greedy": "AI (greedy)"}
    assert not result.unlisted and result.public_id == game_id


def test_an_unlisted_game_counts_and_its_result_names_it_to_nobody(lobby: Lobby) -> None:
    result = result_of(lobby.executor, _played(lobby, ("random", "greedy"), 1, unlisted=True))
    assert result is not None and result.unlisted and result.public_id is None
    assert Result.from_json(result.to_json()) == result


def test_a_game_given_up_before_each_seat_moved_twice_counts_for_nothing(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 2, _settings(reserved={0: "ann", 1: "bo"}), Asking("cy")).game_id
    assert lobby.executor.store.games.get(game_id).rated
    for seat, player in enumerate(("ann", "bo")):
        lobby.join(game_id, seat, player, player_id=player)
    lobby.executor.execute(game_id, GAMES["taki"].forfeit_command(0), actor="seat:0")
    assert result_of(lobby.executor, game_id) is None
    assert result_of(lobby.executor, finished_game(lobby)) is None  # not rated: its seats were for anyone


def _moved(lobby: Lobby, made: tuple[int, int]) -> str:
    """A rated TAKI game of ann and bo in which seat 0 made at least and seat 1 exactly the moves `made`
    gives them, then seat 1 forfeits (dealt again while a deal's turns make that impossible)."""
    return next(game_id for _ in range(50) if (game_id := _dealt(lobby, made)) is not None)


def _dealt(lobby: Lobby, made: tuple[int, int]) -> str | None:
    game_id = lobby.open("taki", {}, 2, _settings(reserved={0: "ann", 1: "bo"}), Asking("cy")).game_id
    for seat, player in enumerate(("ann", "bo")):
        lobby.join(game_id, seat, player, player_id=player)
    game, rng, moves = GAMES["taki"], SeededRng(3), [0, 0]
    while moves[0] < made[0] or moves[1] < made[1]:
        seat = game.status((loaded := lobby.executor.load(game_id)).state).to_move[0]
        if seat == 1 and moves[1] == made[1]:
            return None
        lobby.executor.execute(game_id, game.bot("random")(loaded.state, seat, rng), actor=f"seat:{seat}")
        moves[seat] += 1
    lobby.executor.execute(game_id, game.forfeit_command(1), actor="seat:1")
    return game_id


def test_the_command_that_forfeits_a_seat_is_not_one_of_its_moves(lobby: Lobby) -> None:
    assert result_of(lobby.executor, _moved(lobby, (2, 1))) is None
    counted = result_of(lobby.executor, _moved(lobby, (2, 2)))
    assert counted is not None and counted.places == (("ann",), ("bo",))


def _results(count: int) -> list[Result]:
    """Results of four-seat games among six identities, several ending in the same millisecond."""
    chooser = random.Random(7)
    results = []
    for number in range(count):
        seated = chooser.sample(["ann", "bo", "cy", "di", "ai:greedy", "ai:random"], 4)
        places = ((seated[0],), (seated[1], seated[2]), (seated[3],))
        results.append(Result(f"g{number:03d}", "taki", 1_000 + number // 3, places, {name: name for name in seated}))
    return results


def _everything(ratings: Ratings) -> tuple[object, ...]:
    identities = sorted(ratings.current("taki"))
    return ratings.current("taki"), [ratings.history("taki", identity) for identity in identities]


def test_results_arriving_in_any_order_or_twice_fold_into_the_same_ratings_as_a_rebuild(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(30)
    shuffled = random.Random(3).sample(results, len(results))
    for number, result in enumerate(shuffled):
        assert ratings.record(result)
        if number % 4 == 0:
            ratings.fold()  # the later ones arrive after earlier-ordered ones were folded
    ratings.fold()
    live = _everything(ratings)
    assert not ratings.record(results[5]) and ratings.fold() == 0  # a re-run counts nothing twice
    assert _everything(ratings) == live
    assert ratings.rebuild(results, 0) == len(results)
    assert _everything(ratings) == live
    assert all(len(ratings.history("taki", identity)) == rating.games for identity, rating in ratings.current("taki").items())
    assert ratings.current("taki")["ann"].mu != MU


def test_a_fold_whose_lock_was_lost_writes_nothing_and_lets_go_quietly(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    for result in results:
        ratings.record(result)
    lock = client.lock(keys.rating_lock(), timeout=60)
    assert lock.acquire(blocking=False)
    client.set(keys.rating_lock(), "another folder's token")  # it expired and another took it
    assert ratings._fold(lock) == 0 and ratings.current("taki") == {} and client.zcard(keys.rating_unfolded()) == 6
    client.delete(keys.rating_lock())
    _release(lock)  # expired: nothing to let go of, and no error
    assert ratings.fold() == 6 and len(ratings.current("taki")) == 6


def test_a_rebuild_marks_its_sweep_and_a_fold_passes_a_result_that_is_gone(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    assert ratings.rebuild(results, 12_345) == 6 and client.get(keys.rating_swept()) == b"12345"
    ratings.record(Result("g999", "taki", 999, (("ann",), ("bo",)), {}))
    client.hdel(keys.rating_results(), "g001")  # as a rebuild under way leaves it, for a moment
    kept = [result for result in results if result.game_id != "g001"]
    assert ratings.fold() == 1 and ratings.current("taki")["ann"].games == 1 + sum("ann" in result.identities() for result in kept)


def test_a_history_read_latest_first_gives_its_last_entries_in_order(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    ratings.rebuild(_results(12), 0)
    whole = ratings.history("taki", "ann")
    assert ratings.history("taki", "ann", latest=2) == whole[-2:] and len(whole) > 2
