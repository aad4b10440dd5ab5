"""The moves a game's clocks read, kept per version (application.timelines): the clocks worked out
from them equal the clocks of the whole log folded afresh at every version, whether the kept
moves were extended a command at a time or folded at once, and moves kept for another version,
or for another log under the same id, are never read as this one's."""

from __future__ import annotations

import json
from itertools import count

import pytest

from application.clocks import clocks
from application.deadlines import game_clocks, pauses
from application.timelines import folded, moves_of
from domain.core.rng import SeededRng
from events import clock, keys
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from events.execute import Executor, Loaded

FISCHER = TurnDeadline(3 * 86_400, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER, increment=3_600, maximum=5 * 86_400)


def afresh(executor: Executor, loaded: Loaded, now: int) -> tuple[object, ...]:
    """The loaded version's clocks at `now`, its whole log folded with nothing kept."""
    envelopes = executor.store.streams.read(loaded.record.id, limit=loaded.version)
    moves = moves_of(loaded.game, loaded.record, envelopes)
    assert loaded.record.deadline is not None
    return clocks(loaded.record.deadline, loaded.record.seats, moves, pauses(executor.store, loaded.record), now)


def play(executor: Executor, monkeypatch: pytest.MonkeyPatch, game_id: str, commands: int) -> None:
    """Start a two-seat TAKI game on a Fischer clock and let random bots make `commands` commands, an hour apart."""
    hours = count(1)
    monkeypatch.setattr(clock, "now", lambda: 1_700_000_000_000 + next(hours) * 3_600_000)
    executor.store.games.create(game_id, "taki", {}, 2, FISCHER)
    for seat in range(2):
        executor.store.seats.claim(game_id, seat, f"p{seat}", f"token-{game_id}-{seat}")
    executor.start(game_id, SeededRng(1))
    rng = SeededRng(2)
    for _ in range(commands):
        loaded = executor.load(game_id)
        if loaded.game.status(loaded.state).finished:
            break
        seat = loaded.game.status(loaded.state).to_move[0]
        executor.execute(game_id, loaded.game.bots["random"](loaded.state, seat, rng), actor=f"seat:{seat}")


def test_kept_moves_give_the_clocks_of_the_whole_log_at_every_version(executor: Executor,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    play(executor, monkeypatch, "g", 1)
    now = 1_800_000_000_000
    for _ in range(40):
        loaded = executor.load("g")
        if loaded.game.status(loaded.state).finished:
            break
        seat = loaded.game.status(loaded.state).to_move[0]
        executor.execute("g", loaded.game.bots["random"](loaded.state, seat, SeededRng(loaded.version)), actor=f"seat:{seat}")
        loaded = executor.load("g")
        assert game_clocks(executor.store, loaded, now) == afresh(executor, loaded, now)
        assert json.loads(executor.store.redis.get(keys.clock_moves("g")) or b"null")[0] == loaded.version  # kept
    kept = executor.store.redis.get(keys.clock_moves("g"))
    for version in range(1, executor.load("g").version + 1):  # past versions: later moves kept, none read
        past = executor.load("g", version)
        assert game_clocks(executor.store, past, now) == afresh(executor, past, now)
    assert executor.store.redis.get(keys.clock_moves("g")) == kept  # a past version's moves are not kept


def test_moves_kept_for_another_version_or_another_log_are_not_read(executor: Executor,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    play(executor, monkeypatch, "g", 12)
    loaded, now = executor.load("g"), 1_800_000_000_000
    key = keys.clock_moves("g")
    assert game_clocks(executor.store, loaded, now) == afresh(executor, loaded, now)
    version, command, first, moves = json.loads(executor.store.redis.get(key) or b"null")
    assert version == loaded.version
    forged = [[seat, at + 1_000, to_move] for seat, at, to_move in moves]
    executor.store.redis.set(key, json.dumps([version + 1, command, first, forged]))  # a version the game has not reached
    assert game_clocks(executor.store, loaded, now) == afresh(executor, loaded, now)
    executor.store.redis.set(key, json.dumps([version, "another-command", first, forged]))  # another log's
    assert game_clocks(executor.store, loaded, now) == afresh(executor, loaded, now)
    executor.store.redis.set(key, json.dumps([version - 1, command, first, forged[:-1]]))  # a version not ended by its command
    assert game_clocks(executor.store, loaded, now) == afresh(executor, loaded, now)
    assert folded(executor.store, loaded).moves == tuple(moves_of(loaded.game, loaded.record, executor.store.streams.read("g")))
