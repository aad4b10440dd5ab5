"""The rating keeper on a real Redis: it keeps the results of the rated games that finished and
counts, acks each announcement once its game is kept, and goes past a game that fails to be kept,
in the feed and in the sweep alike; a sweep reads a batch a pass, one keeper at a time, and never
moves a mark a rebuild set after it began; a result kept while a rebuild runs outlives its swap;
and a store whose ratings are under older keys has them made anew from its finished games by the
first sweep, the older keys deleted by a rebuild, which takes one game at a time and keeps its
lock by time while it reads games that count for nothing."""

from __future__ import annotations

import time

import pytest
import redis

from application import ratings as ratings_module
from application.ratings import Ratings, rebuild
from application.results import result_of
from domain import GAMES
from domain.core.rng import SeededRng
from events import clock, keys, rating_fold
from events.envelope import Lifecycle
from events.execute import Executor
from events.rating_rebuild import Rebuild
from events.ratings import Result
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


def _result(executor: Executor, game_id: str) -> Result:
    result = result_of(executor, game_id)
    assert result is not None
    return result


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
    assert _pending(executor.store.redis) == 0 and not executor.store.redis.zcard(keys.rating_unfolded(keys.ratings_root("taki")))
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
    assert all(mark is not None and mark >= before for mark in Ratings(executor.store.redis).marks().values())


def test_the_first_sweep_makes_the_ratings_anew_from_the_finished_games_and_a_rebuild_deletes_the_older_keys(executor: Executor) -> None:
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
    assert rebuild(executor) == 2 and ratings.rating("taki", "ai:greedy") == greedy  # a rebuild deletes the older keys
    assert not client.exists(f"{keys.PREFIX}:{{ratings}}:taki:now", f"{keys.PREFIX}:{{ratings}}:swept")


def test_a_result_kept_while_a_rebuild_runs_outlives_its_swap_and_a_sweep_spanning_the_swap_leaves_its_mark(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    now = {"ms": 1_000_000}
    monkeypatch.setattr(clock, "now", lambda: now["ms"])
    keeper, ratings = RatingKeeper(executor), Ratings(executor.store.redis)
    old = _game(executor)
    keeper.sweep()
    with Rebuild(ratings, "taki") as rebuilding:
        now["ms"] = 2_000_000  # the rebuild reads the finished games from here
        rebuilding.add(_result(executor, old))
        now["ms"] = 2_100_000
        late = _game(executor)
        assert keeper.keep(late)  # from the feed, while the rebuild runs
        now["ms"] = 2_300_000  # a sweep begins, and is still running when the rebuild swaps
        real = keeper.ratings.fold_all
        monkeypatch.setattr(keeper.ratings, "fold_all", lambda: (rebuilding.swap(2_000_000), real())[1])
        keeper.sweep()
        monkeypatch.setattr(keeper.ratings, "fold_all", real)
    assert ratings.marks()["taki"] == 2_000_000  # the rebuild's mark, not the sweep's that began before it
    greedy = ratings.rating("taki", "ai:greedy")
    assert ratings.is_recorded("taki", late) and greedy is not None and greedy.games == 2


def test_a_sweep_reads_a_batch_a_pass_moving_its_mark_and_one_keeper_sweeps_at_a_time(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keeper_module, "BATCH", 2)
    games = [_game(executor) for _ in range(5)]
    keeper, other, ratings = RatingKeeper(executor), RatingKeeper(executor), Ratings(executor.store.redis)
    filed = [int(score) for _, score in executor.store.redis.zrange(
        keys.games_with_status(Lifecycle.FINISHED, executor.store.shards.names[0]), 0, -1, withscores=True)]
    monkeypatch.setattr(clock, "now", lambda: filed[-1] + 3_600_000)  # the sweep begins an hour after the games
    assert keeper.sweep_pass() == 2 and keeper.sweeping is not None
    assert set(ratings.marks().values()) == {filed[1] + keeper_module.OVERLAP_MS}  # the next sweep resumes at the second game's filing
    assert other.sweep_pass() == 0 and other.sweeping is None  # one sweeps at a time
    assert keeper.sweep_pass() == 2 and keeper.sweep_pass() == 1 and keeper.sweeping is None
    assert all(ratings.is_recorded("taki", game_id) for game_id in games) and set(ratings.marks().values()) == {filed[-1] + 3_600_000}
    assert other.sweep() == 0 and other.sweeping is None  # the lock let go: the other sweeps, and finds nothing new


def test_a_rebuild_takes_one_game_at_a_time_holding_no_other_games_lock_or_marker(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    client, held = executor.store.redis, []
    game_id = _game(executor)
    real = Rebuild.swap

    def swap(self: Rebuild, swept: int) -> None:
        held.append((self.game, [game for game in GAMES if client.exists(keys.rating_lock(game), keys.rating_rebuilding(game))]))
        real(self, swept)

    monkeypatch.setattr(Rebuild, "swap", swap)
    assert rebuild(executor) == 1 and Ratings(client).is_recorded("taki", game_id)
    assert held == [(game, [game]) for game in GAMES]


def test_a_rebuild_keeps_its_lock_by_time_while_it_reads_games_that_count_for_nothing(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rating_fold, "LOCK_SECONDS", 0.6)
    rated, unrated = _game(executor), [_game(executor, rated=False) for _ in range(4)]
    real = ratings_module.result_of
    monkeypatch.setattr(ratings_module, "result_of", lambda ex, game_id: (time.sleep(0.25), real(ex, game_id))[1])  # 1.25 s in all
    assert rebuild(executor) == 1 and not any(Ratings(executor.store.redis).is_recorded("taki", each) for each in unrated)
    assert Ratings(executor.store.redis).is_recorded("taki", rated)
