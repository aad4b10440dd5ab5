"""The workers' tests: an executor on the session's real Redis server, games to act in, and
waiting for a worker."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis

from domain.core.game import Budget
from domain.core.rng import ScriptedRng, SeededRng
from events import keys
from events.envelope import TurnDeadline
from events.execute import Executor
from events.store import EventStore
from workers.reactor import GROUP


@pytest.fixture
def executor(real_redis: redis.Redis) -> Executor:  # type: ignore[type-arg]
    return Executor(EventStore(real_redis))


def new_game(executor: Executor, bots: dict[int, str], seats: int = 4, game: str = "taki",
             options: dict[str, object] | None = None, budgets: dict[int, Budget] | None = None) -> tuple[str, dict[int, str]]:
    """A started game with an AI of level `bots[seat]` at those seats (within `budgets[seat]`, if
    given) and people at the others; its id and the people's tokens."""
    game_id = f"g{time.monotonic_ns()}"
    executor.store.games.create(game_id, game, options or {}, seats)
    tokens = {}
    for seat in range(seats):
        if seat in bots:
            executor.store.seats.claim(game_id, seat, f"{bots[seat]} bot", None, bot=bots[seat],
                                      budget=(budgets or {}).get(seat))
        else:
            tokens[seat] = f"token-{seat}-{game_id}"
            executor.store.seats.claim(game_id, seat, "person", tokens[seat])
    executor.start(game_id, SeededRng(len(bots)))
    return game_id, tokens


def two_people(executor: Executor, deadline: TurnDeadline | None, options: dict[str, int] | None = None,
               rng: ScriptedRng | None = None) -> str:
    """A started two-seat TAKI game of people, with a turn deadline."""
    game_id = f"d{time.monotonic_ns()}"
    executor.store.games.create(game_id, "taki", options or {}, 2, deadline)
    for seat in range(2):
        executor.store.seats.claim(game_id, seat, f"p{seat}", f"token-{seat}-{game_id}")
    executor.start(game_id, rng or ScriptedRng())
    return game_id


def reacting(client: redis.Redis) -> bool:  # type: ignore[type-arg]
    """Whether a reactor is reading the feed (its consumer group exists)."""
    try:
        return any(group["name"] == GROUP.encode() for group in client.xinfo_groups(keys.feed("")))
    except redis.ResponseError:  # no feed yet
        return False


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
