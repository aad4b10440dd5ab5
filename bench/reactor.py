"""The reactor on `meeple serve`'s embedded store: how long a sweep over the games in play takes
in a store that also holds many finished games, and how long a bot's turn waits to be enqueued
while sweeps run.

    python -m bench.reactor [--finished 10000] [--active 100 1000] [--probes 50]

- sweep: `Reactor.sweep` with `--finished` finished games (imported logs of a 2-seat TAKI game)
  and each count of 2-seat TAKI games in play, in seconds and per game in play; a reactor's
  first sweep also reads each game in play from its events, and in a store older than the status
  indexes, files every game in them;
- reaction: a reactor in its own process, sweeping every second, while a move is made every
  0.2 s in a game whose other seat is a bot: the time from each move's append to the bot's job
  in its queue, median and slowest."""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import threading
import time
import uuid

import redis

from bench.recorded import record
from bench.server import Server
from domain import GAMES
from domain.core.rng import SeededRng
from events.envelope import Lifecycle
from events.execute import Executor
from events.store import EventStore
from workers.reactor import Reactor


def fill(store: EventStore, finished: int, active: int) -> None:
    """Import `finished` copies of one played game and start `active` new games, all 2-seat TAKI."""
    played = record("taki", 0, seats=2, level="greedy")
    events = [event for batch in played.appends for event in batch]
    for _ in range(finished):
        game_id = uuid.uuid4().hex[:16]
        store.games.create(game_id, "taki", {}, 2)
        store.streams.append(game_id, 0, events, command_id=uuid.uuid4().hex, actor="import", status=Lifecycle.FINISHED)
    executor = Executor(store)
    for number in range(active):
        game_id = uuid.uuid4().hex[:16]
        store.games.create(game_id, "taki", {}, 2)
        for seat in range(2):
            store.seats.claim(game_id, seat, f"p{seat}", f"token-{game_id}-{seat}")
        executor.start(game_id, SeededRng(number))


def measure_sweeps(store: EventStore) -> list[float]:
    """Seconds taken by a reactor's first sweep and by its second."""
    reactor, taken = Reactor(Executor(store)), []
    for _ in range(2):
        started = time.perf_counter()
        reactor.sweep()
        taken.append(time.perf_counter() - started)
    return taken


def react_in_background(redis_url: str, stop: threading.Event) -> None:
    Reactor(Executor(EventStore(redis.Redis.from_url(redis_url))), sweep_seconds=1).run(stop)


def measure_reactions(store: EventStore, redis_url: str, probes: int) -> list[float]:
    """Seconds from a move's append to the job of the bot whose turn it made, `probes` times."""
    stop = multiprocessing.Event()
    reactor = multiprocessing.Process(target=react_in_background, args=(redis_url, stop))
    reactor.start()
    time.sleep(2)  # its first sweep is under way
    executor, taki, rng = Executor(store), GAMES["taki"], SeededRng(7)
    waits: list[float] = []
    try:
        while len(waits) < probes:
            game_id = uuid.uuid4().hex[:16]
            store.games.create(game_id, "taki", {"first_seat": 0}, 2)
            store.seats.claim(game_id, 0, "person", f"token-{game_id}")
            store.seats.claim(game_id, 1, "bot", None, bot="random")
            executor.start(game_id, rng)
            loaded = executor.load(game_id)
            while len(waits) < probes and not (status := taki.status(loaded.state)).finished:
                time.sleep(0.2)  # moves spread over many sweeps
                seat = status.to_move[0]
                appended = executor.execute(game_id, taki.bots["random"](loaded.state, seat, rng), actor=f"seat:{seat}")
                sent = time.perf_counter()
                loaded = executor.load(game_id)
                if taki.status(loaded.state).to_move == (1,):
                    job = f"rq:job:bot-{game_id}-{appended.version}-1"
                    while not store.redis.exists(job):
                        time.sleep(0.0005)
                    waits.append(time.perf_counter() - sent)
    finally:
        stop.set()
        reactor.join(timeout=30)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--active", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--probes", type=int, default=50)
    args = parser.parse_args()
    for active in args.active:
        with Server(no_worker=True) as server:
            store = EventStore(server.redis)
            fill(store, args.finished, active)
            first, second = measure_sweeps(store)
            print(f"{args.finished} finished, {active} in play: a sweep takes {second:.2f} s "
                  f"({second / active * 1000:.2f} ms per game in play), the first one {first:.2f} s")
            waits = measure_reactions(store, server.redis_url, args.probes)
            print(f"  a bot's turn is enqueued {statistics.median(waits) * 1000:.1f} ms after the move (median), "
                  f"{max(waits) * 1000:.0f} ms at the slowest, over {len(waits)} moves")


if __name__ == "__main__":
    main()
