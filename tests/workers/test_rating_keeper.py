"""The rating keeper on a real Redis: it keeps the results of the rated games that finished and
counts, acks each announcement once its game is kept, and goes past a game that fails to be kept,
in the feed and in the sweep alike; and a store whose ratings are under older keys has them made
anew from its finished games by the first sweep."""

from __future__ import annotations

import time

import pytest
import redis

from application.ratings import Ratings
from domain import GAMES
from domain.core.rng import SeededRng
from events import keys
from events.execute import Executor
from events.ratings import Keys
from workers import ratings as keeper_module
from workers.ratings import GROUP, RatingKeeper


def _game(executor: Executor, rated: bool = True, finished: bool = True) -> str:
    """A two-seat TAKI game of the random and the greedy AI, rated or not, played to its end or not begun."""
    game_id, levels = f"g{time.monotonic_ns()}", ("random", "greedy")
    executor.store.games.create(game_id, "taki", {}, 2, rated=rated)
    for seat, level in enumerate(levels):
        executor.store.seats.claim(game_id, seat, f"{level} bot", None, bot=level)
    if not finished:
        return game_id
    executor.start(game_id, SeededRng(1))
    game, rng = GAMES["taki"], SeededRng(2)
    while not (status := game.status((loaded := executor.load(game_id)).state)).finished:
        seat = status.to_move[0]
        executor.execute(game_id, game.bot(levels[seat])(loaded.state, seat, rng), actor=f"bot:{seat}")
    return game_id


def _pending(client: redis.Redis) -> int:  # type: ignore[type-arg]
    return sum(int(client.xpending(stream, GROUP)["pending"]) for stream in client.scan_iter(match="*feed*")
               if client.type(stream) == b"stream")


def test_the_keeper_keeps_rated_finished_games_acks_each_and_goes_past_a_bad_one(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    keeper = RatingKeeper(executor)
    executor.store.feed.join(GROUP)
    rated, unrated, unfinished, bad = _game(executor), _game(executor, rated=False), _game(executor, finished=False), _game(executor)
    later = _game(executor)
    real = keeper_module.result_of
    monkeypatch.setattr(keeper_module, "result_of", lambda ex, game_id: 1 / 0 if game_id == bad else real(ex, game_id))
    for game_id in (rated, unrated, unfinished, bad, later):
        executor.store.feed.tell(game_id)
    assert sum(keeper.consume(None) for _ in range(100)) == 2  # each move announced its game: many batches
    ratings = Ratings(executor.store.redis)
    assert [ratings.is_recorded("taki", game_id) for game_id in (rated, unrated, unfinished, bad, later)] == [True, False, False, False, True]
    assert _pending(executor.store.redis) == 0 and not executor.store.redis.zcard(Keys("taki").unfolded)
    greedy = ratings.rating("taki", "ai:greedy")
    assert greedy is not None and greedy.games == 2


def test_the_sweep_goes_past_a_bad_game_and_marks_where_it_began(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    keeper = RatingKeeper(executor)
    bad, good = _game(executor), _game(executor)
    real = keeper_module.result_of
    monkeypatch.setattr(keeper_module, "result_of", lambda ex, game_id: 1 / 0 if game_id == bad else real(ex, game_id))
    before = int(time.time() * 1000)
    assert keeper.sweep() == 1 and keeper.sweep() == 0  # the second finds good recorded
    assert Ratings(executor.store.redis).is_recorded("taki", good)
    assert Ratings(executor.store.redis).swept() >= before


def test_the_first_sweep_makes_the_ratings_anew_from_the_finished_games_leaving_older_keys_alone(executor: Executor) -> None:
    client = executor.store.redis
    client.hset(f"{keys.PREFIX}:{{ratings}}:taki:now", "ai:greedy", "[30.0, 2.0, 7, 1]")  # as kept before each game had its slot
    client.set(f"{keys.PREFIX}:{{ratings}}:swept", 10**13)  # the older keys' mark: far ahead, and not this store's any more
    games = [_game(executor), _game(executor)]
    assert RatingKeeper(executor).sweep() == 2
    ratings = Ratings(client)
    greedy = ratings.rating("taki", "ai:greedy")
    assert greedy is not None and greedy.games == 2 and all(ratings.is_recorded("taki", game_id) for game_id in games)
    assert ratings.history("taki", "ai:random")[1] == 2 and ratings.places("taki", "ai:random")
    assert client.hgetall(f"{keys.PREFIX}:{{ratings}}:taki:now") == {b"ai:greedy": b"[30.0, 2.0, 7, 1]"}
