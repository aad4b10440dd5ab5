"""A game played live through the one execute path — seats, AIs and deadlines alike, now and then
a seat leaving — then exported, imports to an identical game: each command decided again gives
its events, and the copy has the same events, causes and actors, and the same state at every
version, for every game and option of the contract suite's random games."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis

from application import copies
from domain import GAMES
from domain.core.codec import to_primitive
from domain.core.rng import SeededRng
from events.execute import Executor
from events.log_file import export_lines
from events.store import EventStore
from tests.domain.test_game_contract import CASES, INTERRUPTIONS, random_options
from tests.playing import moves_on

LONGEST = 1500  # commands a game is played for at most; one not over by then is not exported
BOT_SHARE = 0.1  # the share of moves an AI seat makes, through the same path


def played_live(executor: Executor, name: str, number: int) -> tuple[str, dict[int, Any]]:
    """The contract suite's random game `number` of `name`, played through Executor.execute: its id,
    and the state the executor held after each command, by version."""
    game = GAMES[name]
    chooser = random.Random(f"{name}:{number}")
    seats = chooser.randint(game.min_seats, game.max_seats)
    options = random_options(game, seats, chooser)
    rng = SeededRng(chooser.randrange(2**32))
    game_id = f"live{number}"
    executor.store.games.create(game_id, name, to_primitive(options), seats)
    for seat in range(seats):
        executor.store.seats.claim(game_id, seat, f"player {seat}", f"token{seat}")
    executor.start(game_id, rng)
    held: dict[int, Any] = {}
    for _ in range(LONGEST):
        loaded = executor.load(game_id)
        held[loaded.version] = loaded.state
        if (status := game.status(loaded.state)).finished:
            break
        seat = chooser.choice(status.to_move)
        command, actor = _move(game, loaded.state, seat, chooser, rng)
        executor.execute(game_id, command, actor=actor, rng=rng)
    return game_id, held


def _move(game: Any, state: Any, seat: int, chooser: random.Random, rng: SeededRng) -> tuple[Any, str]:
    """A seat's next command and its actor: now and then its deadline's, or an AI's, else its own."""
    if chooser.random() < INTERRUPTIONS:  # a deadline's where the rules set one (these games have no clock)
        by = "deadline" if game.response_seconds(state) is not None else "seat"
        return (game.forfeit_command(seat) if chooser.random() < 0.1 else game.timeout_command(state, seat)), f"{by}:{seat}"
    if chooser.random() < BOT_SHARE:
        return game.bot("random")(state, seat, rng), f"bot:{seat}"
    legal = game.legal_commands(state, seat)
    preferred = [command for command in legal if moves_on(command)]
    return chooser.choice(preferred if preferred and chooser.random() < 0.9 else legal), f"seat:{seat}"


@pytest.fixture
def executor(real_redis: redis.Redis) -> Executor:  # type: ignore[type-arg]
    """An executor on a real server, whose scripts run faster than fakeredis's over thousands of moves."""
    return Executor(EventStore(real_redis))


@pytest.mark.redis
@pytest.mark.parametrize(("name", "number"), CASES, ids=[f"{name}-{number}" for name, number in CASES])
def test_a_live_game_exported_imports_to_an_identical_game(executor: Executor, name: str, number: int) -> None:
    game_id, held = played_live(executor, name, number)
    record = executor.store.games.get(game_id)
    original = executor.store.streams.read(game_id)
    if not GAMES[name].status(executor.load(game_id).state).finished:
        pytest.skip(f"not over after {LONGEST} commands")
    log = copies.checked_log("".join(export_lines(record, original)).encode(), max_events=100_000)
    assert log.checked() == "redecided"
    copy = executor.store.streams.read(copies.import_log(executor.store, log, None))
    assert [(e.version, e.type, e.schema_version, e.payload, e.actor, e.cause) for e in copy] == \
           [(e.version, e.type, e.schema_version, e.payload, e.actor, e.cause) for e in original]
    assert [e.command_id == after.command_id for e, after in zip(copy, copy[1:])] == \
           [e.command_id == after.command_id for e, after in zip(original, original[1:])]
    game = GAMES[name]
    state = game.initial(game.parse_options(record.options, record.seats), record.seats)
    for envelope in copy:  # the copy's state at every version is the original's, as live play held it
        state = game.evolve(state, game.events.decode(envelope.type, envelope.schema_version, envelope.payload))
        assert held.get(envelope.version, state) == state
    for version in {0, 1, len(copy), *random.Random(number).sample(range(len(copy)), 8)}:  # as the store loads it
        assert executor.load(copy[0].game_id, version).state == executor.load(game_id, version).state
