"""What a game's clocks cost: `Reactor.react` and a view's read of the clocks (`game_clocks` on the
game loaded) on a 2-seat TAKI game in play with a Fischer clock of days, played by random bots that
keep it going (drawing a card rather than playing their last) up to `--events` events, or until only an
ending move is left, on fakeredis; and the deadlines (`due`) of the seats a +3 window awaits, in a
3-seat game played so to a window open past `--events` events.

    python -m bench.clocks [--events 2000] [--reacts 50]

Prints the game's events and the milliseconds a react, a view's clocks and the awaited seats' deadlines
take, median and slowest."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import fakeredis

from application.deadlines import due, game_clocks
from domain.core.rng import SeededRng
from domain.taki.commands import CloseTaki, Draw, EndTurn
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from events.execute import Executor
from events.store import EventStore
from workers.reactor import Reactor

DAYS = TurnDeadline(3 * 86_400, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER, increment=86_400, maximum=5 * 86_400)


def played(executor: Executor, events: int, game_id: str = "g", seats: int = 2, window: bool = False) -> str:
    """A game with a clock of days, played by random bots that avoid ending it until it holds about `events`
    events (and, with `window`, a +3 window stands open)."""
    executor.store.games.create(game_id, "taki", {"plus3_response_seconds": 3600} if window else {}, seats, DAYS)
    for seat in range(seats):
        executor.store.seats.claim(game_id, seat, f"p{seat}", f"token-{seat}-{game_id}")
    executor.start(game_id, SeededRng(1))
    rng = SeededRng(2)
    while (loaded := executor.load(game_id)).version < events or (window and loaded.game.response_seconds(loaded.state) is None):
        game, seat = loaded.game, loaded.game.status(loaded.state).to_move[0]
        tries = (*(game.bots["random"](loaded.state, seat, rng) for _ in range(5)), Draw(seat), EndTurn(seat), CloseTaki(seat))
        command = next((tried for tried in tries if not _ends(game, loaded.state, tried)), None)
        if command is None:
            break
        executor.execute(game_id, command, actor=f"seat:{seat}")
    return game_id


def _ends(game: Any, state: Any, command: Any) -> bool:
    """Whether `command` would end the game, or is not one the rules allow now."""
    try:
        events = game.decide(state, command, SeededRng(3))
    except Exception:  # noqa: BLE001  a draw the rules refuse now
        return True
    for event in events:
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
    reactor = Reactor(executor, queues=store.redis)
    reacts = timed(lambda: reactor.react(game_id), args.reacts)
    views = timed(lambda: game_clocks(store, executor.load(game_id)), args.reacts)
    print(f"events {executor.load(game_id).version}: react median {statistics.median(reacts):.1f} ms, "
          f"slowest {max(reacts):.1f} ms; view's clocks median {statistics.median(views):.1f} ms, "
          f"slowest {max(views):.1f} ms")
    windowed = played(executor, args.events, "w", 3, window=True)
    awaited = timed(lambda: [due(store, loaded, seat) for loaded in [executor.load(windowed)]
                             for seat in loaded.game.status(loaded.state).to_move], args.reacts)
    print(f"events {executor.load(windowed).version}, +3 window open: the awaited seats' deadlines median "
          f"{statistics.median(awaited):.1f} ms, slowest {max(awaited):.1f} ms")


def timed(run: Callable[[], object], times: int) -> list[float]:
    """The milliseconds each of `times` runs of `run` takes."""
    taken = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        taken.append((time.perf_counter() - started) * 1000)
    return taken


if __name__ == "__main__":
    main()
