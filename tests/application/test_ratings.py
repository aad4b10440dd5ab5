"""Rated games and their results: which games are rated and what a result counts (the fold of the
results into ratings: tests/events/test_ratings.py)."""

from __future__ import annotations

import pytest

from application import copies
from application.errors import Invalid
from application.lobby import Bot, GameSettings, Lobby
from application.results import ai_identity, result_of
from domain import GAMES
from domain.core.game import Budget
from domain.core.rng import SeededRng
from events.envelope import Origin
from events.log_file import export_lines
from events.ratings import Result
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


def test_the_import_of_a_rated_games_log_counts_for_nothing(lobby: Lobby) -> None:
    game_id = _played(lobby, ("random", "greedy"), 1)
    assert result_of(lobby.executor, game_id) is not None
    store = lobby.executor.store
    record = store.games.get(game_id)
    lines = export_lines(record, store.streams.read(game_id))
    imported = copies.import_log(store, copies.checked_log("".join(lines).encode(), max_events=10_000), "ann")
    assert not store.games.get(imported).rated and result_of(lobby.executor, imported) is None
