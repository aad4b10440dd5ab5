"""What a game's clocks cost the reactor: `Reactor.react` on a 2-seat TAKI game in play with a
Fischer clock of days, played by random bots up to `--events` events (or its end, if sooner; the
game is then cut short of its last move, so a seat is to move), on fakeredis.

    python -m bench.clocks [--events 2000] [--reacts 50]

Prints the game's events and the milliseconds a react takes, median and slowest."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import fakeredis

from domain.core.rng import SeededRng
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from events.execute import Executor
from events.store import EventStore
from workers.reactor import Reactor

DAYS = TurnDeadline(3 * 86_400, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER, increment=86_400, maximum=5 * 86_400)


def played(executor: Executor, events: int) -> str:
    """A game with a clock of days, played by random bots until it holds about `events` events, still in play."""
    executor.store.games.create("g", "taki", {}, 2, DAYS)
    for seat in range(2):
        executor.store.seats.claim("g", seat, f"p{seat}", f"token-{seat}")
    executor.start("g", SeededRng(1))
    rng = SeededRng(2)
    while (loaded := executor.load("g")).version < events:
        game, seat = loaded.game, loaded.game.status(loaded.state).to_move[0]
        command = game.bots["random"](loaded.state, seat, rng)
        if _ends(loaded.game, loaded.state, command):
            break
        executor.execute("g", command, actor=f"seat:{seat}")
    return "g"


def _ends(game: Any, state: Any, command: Any) -> bool:
    """Whether `command` would end the game."""
    for event in game.decide(state, command, SeededRng(3)):
        state = game.evolve(state, event)
    return bool(game.status(state).finished)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--reacts", type=int, default=50)
    args = parser.parse_args()
    store = EventStore(fakeredis.FakeRedis())
    executor = Executor(store)
    game_id = played(executor, args.events)
    reactor, taken = Reactor(executor, queues=store.redis), []
    for _ in range(args.reacts):
        started = time.perf_counter()
        reactor.react(game_id)
        taken.append((time.perf_counter() - started) * 1000)
    print(f"events {executor.load(game_id).version}: react median {statistics.median(taken):.1f} ms, "
          f"slowest {max(taken):.1f} ms")


if __name__ == "__main__":
    main()
