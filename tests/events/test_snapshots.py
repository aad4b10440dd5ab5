"""Snapshots are a cache: with them, without them, or with stale ones, every state is the same."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import GAMES
from domain.core.codec import converter
from domain.core.rng import SeededRng
from events.envelope import Lifecycle, NewEvent
from events.execute import Checkpoints, Executor
from events.snapshots import EVERY
from events.store import EventStore
from tests.playing import moves_on, random_game


def stored_game(store: EventStore, name: str, seats: int, seed: int) -> tuple[str, list[Any]]:
    """A random finished game appended command by command; its states after each event."""
    game = GAMES[name]
    options = game.parse_options({}, seats)
    game_id = f"{name}-{seed}"
    store.games.create(game_id, name, {}, seats)
    opening = game.setup(options, seats, SeededRng(seed))
    batches = [opening] + [step.events for step in random_game(game, seats, options, seed)]
    states, state, version = [game.initial(options, seats)], game.initial(options, seats), 0
    for batch in batches:
        store.streams.append(game_id, version, [NewEvent(*game.events.encode(e)) for e in batch], command_id=f"c{version}", actor="system")
        for event in batch:
            state = game.evolve(state, event)
            states.append(state)
        version += len(batch)
    return game_id, states


def counted_reads(store: EventStore) -> list[int]:
    """How many events each read of the store's streams returns, from now on."""
    replayed: list[int] = []
    read = store.streams.read

    def counting(game_id: str, after: int = 0, limit: int | None = None) -> list[Any]:
        events = read(game_id, after, limit)
        replayed.append(len(events))
        return events

    store.streams.read = counting  # type: ignore[method-assign]
    return replayed


def test_every_version_reads_the_same_with_fresh_missing_and_stale_snapshots(store: EventStore) -> None:
    game_id, states = stored_game(store, "taki", 2, seed=4)
    assert len(states) > 3 * EVERY
    fresh = Executor(store)
    versions = [0, 1, EVERY - 1, EVERY, EVERY + 1, 2 * EVERY + 7, len(states) - 1]
    assert all(fresh.load(game_id, v).state == states[v] for v in versions)
    snapshots = store.redis.hkeys(f"meeple:{{{game_id}}}:snapshots")
    assert sorted(int(v) for v in snapshots) == list(range(EVERY, len(states), EVERY))
    key = f"meeple:{{{game_id}}}:snapshots"
    stale = json.loads(store.redis.hget(key, str(EVERY)))
    store.redis.hset(key, str(EVERY), json.dumps({"rules": "other", "state": stale["state"] | {"turn_no": -1}}))
    assert Executor(store).load(game_id, EVERY + 3).state == states[EVERY + 3]
    store.redis.delete(key)
    assert all(Executor(store).load(game_id, v).state == states[v] for v in versions)


def test_a_load_replays_fewer_events_than_between_two_snapshots(store: EventStore) -> None:
    game_id, states = stored_game(store, "taki", 2, seed=5)
    Executor(store).load(game_id)  # writes the snapshots
    replayed = counted_reads(store)
    for version in (EVERY * 2 + EVERY - 1, len(states) - 1):
        assert Executor(store).load(game_id, version).state == states[version]
    assert max(replayed) <= EVERY  # the events after the nearest snapshot, and the snapshot's own


@pytest.mark.parametrize(("name", "seats", "options"), [
    ("taki", 5, {}), ("taki", 3, {"mode": "tournament"}), ("djambi", 4, {}), ("djambi", 3, {}),
    ("bahama_taxi", 4, {"max_rounds": 30, "dice": True, "hand_size": 4, "unknown_destination": True}),
    ("bahama_taxi", 3, {"max_rounds": 20, "cabs_per_player": 2, "two_cab_mode": "both"}),
    ("bahama_taxi", 2, {"max_rounds": 30, "contraband": True}),
])
def test_every_state_survives_the_snapshot_encoding(name: str, seats: int, options: dict[str, Any]) -> None:
    game = GAMES[name]
    for step in random_game(game, seats, game.parse_options(options, seats), seed=seats, prefer=moves_on):
        encoded = json.loads(json.dumps(converter.unstructure(step.after)))
        assert converter.structure(encoded, type(step.after)) == step.after


def test_a_finished_game_keeps_one_snapshot_at_most(store: EventStore) -> None:
    game_id, states = stored_game(store, "taki", 2, seed=4)
    executor = Executor(store)
    executor.load(game_id, len(states) - 2)  # read while in play: a snapshot every EVERY events
    key = f"meeple:{{{game_id}}}:snapshots"
    assert store.redis.hlen(key) == (len(states) - 2) // EVERY > 1
    store.redis.hset(f"meeple:{{{game_id}}}:meta", "status", "active")
    store.streams.append(game_id, len(states) - 1, [NewEvent("end", 1, {})], command_id="end", actor="system",
                         status=Lifecycle.FINISHED)
    assert store.redis.hkeys(key) == [str((len(states) - 2) // EVERY * EVERY).encode()]
    versions = [0, EVERY - 1, EVERY + 1, 2 * EVERY + 7, len(states) - 2]
    assert all(Executor(store).load(game_id, v).state == states[v] for v in versions)  # past versions read anew
    assert store.redis.hlen(key) == 1


def finished_game(store: EventStore, seed: int) -> tuple[str, list[Any]]:
    """A random TAKI game stored as finished (as an import stores its log)."""
    game_id, states = stored_game(store, "taki", 2, seed)
    store.redis.hset(f"meeple:{{{game_id}}}:meta", "status", "finished")
    return game_id, states


def test_a_finished_games_past_is_read_from_the_processs_checkpoints(store: EventStore) -> None:
    game_id, states = finished_game(store, seed=5)
    executor = Executor(store)
    assert executor.load(game_id).state == states[-1]  # folds it once, keeping a checkpoint every EVERY events
    assert not store.redis.exists(f"meeple:{{{game_id}}}:snapshots")
    replayed = counted_reads(store)
    for version in range(len(states) - 1, 0, -37):  # a replay stepping back through the game
        assert executor.load(game_id, version).state == states[version]
    assert 0 < max(replayed) <= EVERY


def test_a_checkpoint_of_another_log_is_not_used(store: EventStore) -> None:
    game_id, states = finished_game(store, seed=5)
    executor = Executor(store)
    executor.load(game_id)
    executor.checkpoints.put(game_id, EVERY, "another command", states[0])  # as if the log had changed
    assert executor.load(game_id, EVERY + 3).state == states[EVERY + 3]
    at, state, command_id = executor.checkpoints.nearest(game_id, EVERY + 3)  # folded anew
    assert (at, state) == (EVERY, states[EVERY]) and command_id != "another command"


def test_a_later_snapshot_is_read_rather_than_an_earlier_checkpoint(store: EventStore) -> None:
    game_id, states = stored_game(store, "taki", 2, seed=5)
    Executor(store).load(game_id)  # read while in play: a snapshot every EVERY events
    store.redis.hset(f"meeple:{{{game_id}}}:meta", "status", "finished")
    executor = Executor(store)
    assert executor.load(game_id, EVERY + 1).state == states[EVERY + 1]  # one checkpoint, at EVERY
    replayed = counted_reads(store)
    assert executor.load(game_id, 3 * EVERY + 5).state == states[3 * EVERY + 5]
    assert replayed == [6]  # from the snapshot at 3 * EVERY, not the checkpoint at EVERY


def test_checkpoints_are_bounded_in_all() -> None:
    checkpoints = Checkpoints(capacity=5)
    for version in range(EVERY, 4 * EVERY, EVERY):
        checkpoints.put("first", version, f"c{version}", version)
    for version in range(EVERY, 4 * EVERY, EVERY):
        checkpoints.put("second", version, f"c{version}", version)
    assert checkpoints.nearest("first", 10 * EVERY) is None  # the game read longest ago went
    assert checkpoints.nearest("second", 10 * EVERY) == (3 * EVERY, 3 * EVERY, f"c{3 * EVERY}")
