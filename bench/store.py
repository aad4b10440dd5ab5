"""The event store on `meeple serve`'s embedded Redis: appends beside raw XADD, state rebuilds,
snapshot reads and the bytes each event takes.

    python -m bench.store [--seconds 5] [--games 1 10 100 1000] [--processes 2] [--threads 8]

- appends/s (`EventStore.append`: the conditional Lua append and the feed, each carrying one
  command's events from recorded games of every kind) beside `XADD`/s of one entry with the
  same fields, from the same clients to the same server, for each count of games written
  to at once;
- rebuild: each game's state from its stored events (read, decoded and folded, no snapshot),
  in events/s, then without the read, and the decoding and the fold each alone;
- snapshot read: a Bahama Taxi game of 5,000 events read cold (no state cached in the
  process) at its last version, and at every version from 4,801 to 5,000 (the nearest
  snapshot plus up to 199 events);
- bytes per event: Redis `MEMORY USAGE` of each stream over its length, per game and for
  the streams of 1 to 1,000 games together;
- memory per finished game of AI seats, played by `meeple serve`'s own workers: `MEMORY USAGE`
  of the game's keys and of the growth of RQ's keys, beside that of its stream alone."""

from __future__ import annotations

import argparse
import itertools
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import redis

from bench.recorded import Recorded, long_game, record
from bench.server import Server
from domain import GAMES
from events import keys
from events.envelope import Lifecycle
from events.execute import Executor, StateCache
from events.store import EventStore
from events.streams import _envelopes, encoded_payload

RECORDED_SEEDS = range(4)


def _recorded() -> list[Recorded]:
    return [record(name, seed) for name in GAMES for seed in RECORDED_SEEDS]


def _store(url: str) -> EventStore:
    return EventStore(redis.Redis.from_url(url, max_connections=64))


class _Writing:
    """One game being written to: which recorded game, how many of its batches went in, its id."""

    def __init__(self, name: str, script: int) -> None:
        self.name, self.script, self.batch, self.version, self.game_id = name, script, 0, 0, name


def _writer(kind: str, url: str, scripts: list[Recorded], games: list[str], threads: int, start: float,
            seconds: float) -> tuple[int, int]:
    """In one process: `threads` threads writing `scripts` to `games` in turn from `start` for
    `seconds`; how many calls and how many events they wrote."""
    store = _store(url)
    counts = [(0, 0)] * threads

    def write(thread: int) -> None:
        mine = [_Writing(name, n % len(scripts)) for n, name in enumerate(games[thread::threads])]
        calls = events = 0
        while time.time() < start:
            time.sleep(0.001)
        for game in itertools.cycle(mine):
            if time.time() >= start + seconds:
                break
            script = scripts[game.script]
            batch = script.appends[game.batch]
            if kind == "append":
                if game.batch == 0:
                    game.game_id = f"{game.name}-{uuid.uuid4().hex[:8]}"
                    store.games.create(game.game_id, script.game, script.options, script.seats)
                game.version = store.streams.append(game.game_id, game.version, list(batch), command_id=uuid.uuid4().hex,
                                            actor="bench", status=Lifecycle.ACTIVE).version
                events += len(batch)
            else:
                event = batch[0]
                store.redis.xadd(f"bench:{{{game.name}}}:raw", {
                    "t": event.type, "s": event.schema_version, "p": encoded_payload(event.payload),
                    "c": uuid.uuid4().hex, "a": "bench", "at": int(time.time() * 1000)})
                events += 1
            calls += 1
            game.batch += 1
            if game.batch == len(script.appends):
                game.script, game.batch, game.version = (game.script + 1) % len(scripts), 0, 0
        counts[thread] = (calls, events)

    workers = [threading.Thread(target=write, args=(thread,)) for thread in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(c for c, _ in counts), sum(e for _, e in counts)


def writes(pool: ProcessPoolExecutor, kind: str, url: str, scripts: list[Recorded], games: int, processes: int,
           threads: int, seconds: float) -> tuple[float, float]:
    """Calls/s and events/s of `kind` (append or xadd) spread over `games` games, writing the
    recorded `scripts`: played once by the caller, they leave every writer ready well before
    the start."""
    names = [f"g{games}-{kind}-{n}" for n in range(games)]
    per_process = max(1, min(threads, games // processes or 1))
    start = time.time() + 1.0
    futures = [pool.submit(_writer, kind, url, scripts, names[p::processes], per_process, start, seconds)
               for p in range(processes) if names[p::processes]]
    results = [future.result() for future in futures]
    return sum(c for c, _ in results) / seconds, sum(e for _, e in results) / seconds


def rebuild(store: EventStore, played: Recorded, repeats: int = 5) -> tuple[float, float, float, float]:
    """Events/s of rebuilding the played game with no snapshot: read from the store, decoded and
    folded; decoded (from the stream's entries as read, payloads parsed included) and folded;
    decoded alone; folded alone."""
    game_id = _stored(store, played)
    game = GAMES[played.game]
    options = game.parse_options(played.options, played.seats)
    entries = store.redis.xrange(keys.stream(game_id))

    def decode() -> list[Any]:
        return [game.events.decode(e.type, e.schema_version, e.payload) for e in _envelopes(game_id, entries)]

    events = decode()
    game.replay(options, played.seats, events)  # warm up

    def from_store() -> None:
        state = game.initial(options, played.seats)
        for envelope in store.streams.read(game_id):
            state = game.evolve(state, game.events.decode(envelope.type, envelope.schema_version, envelope.payload))

    def decode_and_fold() -> None:
        game.replay(options, played.seats, decode())

    def fold() -> None:
        game.replay(options, played.seats, events)

    return (_events_per_second(from_store, len(events), repeats), _events_per_second(decode_and_fold, len(events), repeats),
            _events_per_second(decode, len(events), repeats), _events_per_second(fold, len(events), repeats))


def _events_per_second(run: Callable[[], object], events: int, repeats: int) -> float:
    """The best of `repeats` runs, as events/s."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return events / best


def snapshot_reads(store: EventStore, played: Recorded, last: int = 5000) -> dict[str, float]:
    """Milliseconds to read the played game's state cold, at `last` and at each of the 200 versions up to it."""
    game_id = _stored(store, played)
    Executor(store).load(game_id, last)  # writes the snapshots on the way
    at_last = []
    for _ in range(200):
        started = time.perf_counter()
        Executor(store, StateCache()).load(game_id, last)
        at_last.append(1000 * (time.perf_counter() - started))
    around = []
    for version in range(last - 199, last + 1):
        started = time.perf_counter()
        Executor(store, StateCache()).load(game_id, version)
        around.append(1000 * (time.perf_counter() - started))
    return {"last_p50": statistics.median(at_last), "last_p99": sorted(at_last)[int(0.99 * len(at_last))],
            "around_mean": statistics.mean(around), "around_max": max(around)}


def _stored(store: EventStore, played: Recorded) -> str:
    game_id = f"{played.game}-{uuid.uuid4().hex[:8]}"
    store.games.create(game_id, played.game, played.options, played.seats)
    version = 0
    for batch in played.appends:
        version = store.streams.append(game_id, version, list(batch), command_id=uuid.uuid4().hex, actor="bench").version
    return game_id


def bytes_per_event(client: redis.Redis, game_ids: list[str]) -> float:
    total = events = 0
    for game_id in game_ids:
        key = keys.stream(game_id)
        total += int(client.memory_usage(key, samples=0) or 0)
        events += int(client.xlen(key))
    return total / max(events, 1)


def _key_bytes(client: redis.Redis, pattern: str) -> int:
    """`MEMORY USAGE` of every key matching `pattern`, together."""
    return sum(int(client.memory_usage(key, samples=0) or 0) for key in client.scan_iter(pattern, count=1000))


def ai_game_memory(server: Server, name: str, games: int, timeout: float = 600) -> tuple[float, float, float, float]:
    """Per game of `name` with four AI seats played to its end by the server's workers: its events,
    its stream's bytes, all its keys' bytes, and how much RQ's keys grew."""
    client, store = server.redis, _store(server.redis_url)
    queued_before = _key_bytes(client, "rq:*")
    ids = [f"ai-{name}-{uuid.uuid4().hex[:8]}" for _ in range(games)]
    for game_id in ids:
        store.games.create(game_id, name, {}, 4, unlisted=True)
        for seat in range(4):
            store.seats.claim(game_id, seat, "AI", None, bot="random" if seat % 2 else "greedy")
        Executor(store).start(game_id)
    deadline = time.monotonic() + timeout
    while any(store.games.get(game_id).status is not Lifecycle.FINISHED for game_id in ids):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the games of {name} did not finish in {timeout:.0f} s")
        time.sleep(0.5)
    time.sleep(2)  # the last jobs' own clean-up
    events = sum(int(client.xlen(keys.stream(game_id))) for game_id in ids)
    stream = sum(int(client.memory_usage(keys.stream(game_id), samples=0) or 0) for game_id in ids)
    own = sum(_key_bytes(client, f"*{{{game_id}}}*") for game_id in ids)
    queued = _key_bytes(client, "rq:*") - queued_before
    return events / games, stream / games, own / games, queued / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each write measurement")
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 100, 1000], help="games written to at once")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=8, help="client threads per process")
    parser.add_argument("--ai-games", type=int, default=5, help="games of AI seats of each kind whose memory is measured")
    args = parser.parse_args()
    with Server(no_worker=True) as server, ProcessPoolExecutor(args.processes) as pool:
        store = _store(server.redis_url)
        # first, while the store is quiet: timed just after the writes below, TAKI's rebuild came
        # out at 73,000 events/s against 102,000-109,000 on its own
        print("rebuild from events, no snapshot (target >= 100,000 events/s)")
        print(f"{'game':>12} {'events':>7} {'from store':>11} {'decode+fold':>12} {'decode':>9} {'fold':>9}")
        for name in GAMES:
            played = long_game(name, 400)
            from_store, decoded, decode, fold = rebuild(store, played)
            print(f"{name:>12} {played.events:7d} {from_store:11.0f} {decoded:12.0f} {decode:9.0f} {fold:9.0f}")

        print("\nwrites: the same clients append whole commands, then XADD single entries")
        print(f"{'games':>6} {'appends/s':>10} {'events/s':>9} {'XADD/s':>8} {'appends/XADD':>13}")
        scripts = _recorded()
        for games in args.games:
            appends, appended_events = writes(pool, "append", server.redis_url, scripts, games, args.processes, args.threads,
                                              args.seconds)
            xadds, _ = writes(pool, "xadd", server.redis_url, scripts, games, args.processes, args.threads, args.seconds)
            print(f"{games:6d} {appends:10.0f} {appended_events:9.0f} {xadds:8.0f} {100 * appends / xadds:12.0f}%")

        reads = snapshot_reads(store, long_game("bahama_taxi", 5000))
        print("\nreading a 5,000-event Bahama Taxi game with snapshots, nothing cached (target < 5 ms):")
        print(f"  at version 5,000: p50 {reads['last_p50']:.2f} ms, p99 {reads['last_p99']:.2f} ms")
        print(f"  at versions 4,801-5,000: mean {reads['around_mean']:.2f} ms, slowest {reads['around_max']:.2f} ms")

        print("\nstored bytes per event (MEMORY USAGE of the stream / its length; target <= 300)")
        for name in GAMES:
            print(f"{name:>12} {bytes_per_event(server.redis, [_stored(store, p) for p in scripts if p.game == name]):6.0f}")
        for games in args.games:
            stored = [_stored(store, scripts[n % len(scripts)]) for n in range(games)]
            print(f"{games:>6} games of every kind: {bytes_per_event(server.redis, stored):6.0f}")

    with Server() as server:
        print(f"\nmemory per finished game of AI seats ({args.ai_games} of each, played by the workers; target: "
              "the store's <= 1.3 x the stream's)")
        print(f"{'game':>12} {'events':>7} {'stream':>9} {'game keys':>10} {'RQ keys':>9} {'store':>9} {'store/stream':>13}")
        for name in GAMES:
            events, stream, own, queued = ai_game_memory(server, name, args.ai_games)
            print(f"{name:>12} {events:7.0f} {stream:9.0f} {own:10.0f} {queued:9.0f} {own + queued:9.0f} "
                  f"{(own + queued) / stream:12.2f}x")


if __name__ == "__main__":
    main()
