"""The event store on a local Redis Cluster: appends/s and their latency with 1, 2 and 3 masters,
with and without waiting for a replica, and where the keys and the writes went.

    python -m bench.cluster [--seconds 5] [--masters 1 2 3] [--replicas 1] [--runs 3]
                            [--games 1000] [--processes 2] [--threads 8]

For each count of masters it starts a `LocalCluster` (`--replicas` replicas per master) and, on
the same cluster, measures `--runs` times each setting of the replica wait (off, and
`append_replicas=1` when there are replicas):
- appends/s through `EventStore` on the cluster client (`store_client`, 64 connections per node),
  each a whole command's events from recorded games of every kind, from `--processes` client
  processes of `--threads` threads writing to `--games` games created just before (new ones each
  run); p50/p99 of an append's latency; the CPU used meanwhile by the clients, the masters and the
  replicas, as shares of one core and per append;
- on the cluster of one master, one thread appending alone through the cluster's client and
  through a plain client of that master: the client's CPU and the time per append;
- then, per master: its slots, its keys (DBSIZE), which of the 16 shards of the feed and of the
  game indexes it serves, the feed entries it received, and its share of the appends (the calls of
  the append script it ran) and of the feed entries."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, cast

import redis

from bench.local_cluster import LocalCluster, Node
from bench.recorded import Recorded, record
from domain import GAMES
from events import keys
from events.durability import Durability
from events.envelope import Lifecycle
from events.errors import NotReplicated
from events.shards import Shards
from events.store import EventStore
from runtime.config import Config
from runtime.connections import event_store, store_client

RECORDED_SEEDS = range(4)
TICK = os.sysconf("SC_CLK_TCK")


def _store(url: str, wait: int) -> EventStore:
    config = Config(redis_url=url, redis_cluster=True, queue_url="redis://unused", append_replicas=wait)
    return event_store(config, store_client(config, connections=64))


@dataclass
class Written:
    """What the clients of one measurement did: appends, events, each append's latency (ms),
    appends that too few replicas confirmed in time, errors, and the clients' CPU seconds."""

    appends: int = 0
    events: int = 0
    latencies: list[float] = field(default_factory=list)
    unconfirmed: int = 0
    errors: list[str] = field(default_factory=list)
    cpu: float = 0.0
    late: float = 0.0  # the latest start of a thread after the agreed start, seconds

    def add(self, other: Written) -> None:
        self.appends += other.appends
        self.events += other.events
        self.latencies += other.latencies
        self.unconfirmed += other.unconfirmed
        self.errors += other.errors
        self.cpu += other.cpu
        self.late = max(self.late, other.late)


class _Writing:
    """One game being written to: its id, which recorded script, how many of its batches went in."""

    def __init__(self, game_id: str, script: int) -> None:
        self.game_id, self.script, self.batch, self.version = game_id, script, 0, 0


def _writer(url: str, wait: int, scripts: list[Recorded], games: list[tuple[str, int]], threads: int, start: float,
            seconds: float) -> Written:
    """In one process: `threads` threads appending the recorded `scripts` to `games` (id, script)
    in turn from `start` for `seconds`; a game whose script ends is followed by a new one."""
    store = _store(url, wait)
    results = [Written() for _ in range(threads)]

    def write(thread: int) -> None:
        mine = [_Writing(game_id, script) for game_id, script in games[thread::threads]]
        done = results[thread]
        while time.time() < start:
            time.sleep(0.001)
        done.late = time.time() - start
        while mine:
            for game in mine:
                if time.time() >= start + seconds:
                    return
                if game.batch == len(scripts[game.script].appends):
                    game.script, game.batch, game.version = (game.script + 1) % len(scripts), 0, 0
                    script = scripts[game.script]
                    game.game_id = f"{script.game}-{uuid.uuid4().hex[:12]}"
                    store.games.create(game.game_id, script.game, script.options, script.seats)
                events = list(scripts[game.script].appends[game.batch])
                started = time.perf_counter()
                try:
                    game.version = store.streams.append(game.game_id, game.version, events, command_id=uuid.uuid4().hex,
                                                        actor="bench", status=Lifecycle.ACTIVE).version
                except NotReplicated as error:
                    done.unconfirmed += 1
                    game.version = error.version
                except Exception as error:  # told in the report; the thread stops
                    done.errors.append(f"{type(error).__module__}.{type(error).__name__}: {error}")
                    return
                done.latencies.append(1000 * (time.perf_counter() - started))
                done.appends += 1
                done.events += len(events)
                game.batch += 1

    workers = [threading.Thread(target=write, args=(thread,)) for thread in range(threads)]
    for worker in workers:
        worker.start()
    while time.time() < start:
        time.sleep(0.001)
    cpu = _own_cpu()
    for worker in workers:
        worker.join()
    total = Written(cpu=_own_cpu() - cpu)
    store.redis.close()
    for result in results:
        total.add(result)
    return total


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _node_cpu(node: Node) -> float:
    """CPU seconds the node's redis-server has used so far (from /proc)."""
    assert node.process is not None
    with open(f"/proc/{node.process.pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def _created(store: EventStore, scripts: list[Recorded], games: int) -> list[tuple[str, int]]:
    """`games` new games, each with the recorded script it will play."""
    wanted = [(f"{scripts[n % len(scripts)].game}-{uuid.uuid4().hex[:12]}", n % len(scripts)) for n in range(games)]

    def create(game: tuple[str, int]) -> None:
        script = scripts[game[1]]
        store.games.create(game[0], script.game, script.options, script.seats)

    with ThreadPoolExecutor(16) as threads:
        list(threads.map(create, wanted))
    return wanted


@dataclass
class Run:
    """One measurement: appends/s, events/s, CPU shares of one core (clients, masters, replicas)."""

    appends: float
    events: float
    written: Written
    masters_cpu: float
    replicas_cpu: float


def measure(pool: ProcessPoolExecutor, cluster: LocalCluster, wait: int, scripts: list[Recorded],
            args: argparse.Namespace) -> Run:
    """Appends from every client process to `args.games` new games for `args.seconds`."""
    creating = _store(cluster.url, wait)
    games = _created(creating, scripts, args.games)
    creating.redis.close()
    per_process = max(1, min(args.threads, len(games) // args.processes or 1))
    start = time.time() + 1.0
    futures = [pool.submit(_writer, cluster.url, wait, scripts, games[p::args.processes], per_process, start,
                           args.seconds) for p in range(args.processes) if games[p::args.processes]]
    while time.time() < start:
        time.sleep(0.001)
    masters = cluster.nodes[:cluster.masters]
    before = [_node_cpu(node) for node in cluster.nodes]
    written = Written()
    for future in futures:
        written.add(future.result())
    after = [_node_cpu(node) for node in cluster.nodes]
    spent = [b - a for a, b in zip(before, after, strict=True)]
    return Run(written.appends / args.seconds, written.events / args.seconds, written,
               sum(spent[:len(masters)]) / args.seconds, sum(spent[len(masters):]) / args.seconds)


def alone(cluster: LocalCluster, wait: int, played: Recorded, appends: int = 2000) -> dict[str, tuple[float, float]]:
    """On a cluster of one master, one thread appending `played` over and over through the cluster's
    client, then through a plain client of that master (the same shards): for each, the CPU ms
    the thread spent per append and the ms an append took; the better of two tries."""
    plain = redis.Redis(port=cluster.nodes[0].port)
    stores = {"cluster": _store(cluster.url, wait),
              "server": EventStore(plain, shards=Shards.cluster(), durability=Durability(wait))}
    best = dict.fromkeys(stores, (float("inf"), float("inf")))
    for _ in range(2):
        for name, store in stores.items():
            cpu, started, done = _thread_cpu(), time.perf_counter(), 0
            while done < appends:
                game_id, version = f"{played.game}-{uuid.uuid4().hex[:12]}", 0
                store.games.create(game_id, played.game, played.options, played.seats)
                for batch in played.appends[:appends - done]:
                    version = store.streams.append(game_id, version, list(batch), command_id=uuid.uuid4().hex,
                                                   actor="bench", status=Lifecycle.ACTIVE).version
                    done += 1
            spent = (1000 * (_thread_cpu() - cpu) / appends, 1000 * (time.perf_counter() - started) / appends)
            best[name] = min(best[name], spent)
    for store in stores.values():
        store.redis.close()
    return best


def _thread_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return usage.ru_utime + usage.ru_stime


def _percentile(latencies: list[float], share: float) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


HEADER = (f"{'masters':>7} {'replicas':>8} {'wait':>4} {'appends/s':>9} {'spread':>11} {'events/s':>8} {'p50 ms':>6}"
          f" {'p99 ms':>6} {'client':>6} {'masters':>7} {'replicas':>8} {'CPU ms/append':>13} {'unconfirmed':>11}")


def row(masters: int, replicas: int, wait: int, runs: list[Run], seconds: float) -> str:
    """One configuration: medians over its runs (the spread is the lowest and highest appends/s);
    latencies pooled over the runs; CPU as shares of one core, then per append (clients + servers)."""
    latencies = [latency for run in runs for latency in run.written.latencies]
    spread = f"{min(r.appends for r in runs):.0f}-{max(r.appends for r in runs):.0f}"
    client = statistics.median(run.written.cpu / seconds for run in runs)
    servers = statistics.median(run.masters_cpu + run.replicas_cpu for run in runs)
    appends = statistics.median(run.appends for run in runs)
    return (f"{masters:7d} {replicas:8d} {'on' if wait else 'off':>4} {appends:9.0f}"
            f" {spread:>11} {statistics.median(r.events for r in runs):8.0f} {_percentile(latencies, 0.5):6.2f}"
            f" {_percentile(latencies, 0.99):6.2f} {100 * client:5.0f}%"
            f" {100 * statistics.median(r.masters_cpu for r in runs):6.0f}%"
            f" {100 * statistics.median(r.replicas_cpu for r in runs):7.0f}%"
            f" {f'{1000 * client / appends:.2f} + {1000 * servers / appends:.2f}':>13}"
            f" {sum(r.written.unconfirmed for r in runs):11d}")


def distribution(cluster: LocalCluster) -> list[str]:
    """Per master: its port and slots, its keys, the store-wide shards it serves, the feed entries
    it holds, and its shares of the appends (append script calls) and of the feed entries."""
    masters = cluster.nodes[:cluster.masters]
    shards = Shards.cluster().names
    serving: dict[int, list[int]] = {node.port: [] for node in masters}
    feed_entries = dict.fromkeys(serving, 0)
    wide_keys = dict.fromkeys(serving, 0)
    for number, shard in enumerate(shards):
        wide = [keys.feed(shard), keys.game_index(shard), *(keys.games_with_status(s, shard) for s in Lifecycle)]
        owner = cluster.master_of(keys.feed(shard))
        if cluster.master_of(keys.game_index(shard)).port != owner.port:
            raise RuntimeError(f"shard {number}: its feed and its game index are on different masters")
        serving[owner.port].append(number)
        feed_entries[owner.port] += int(owner.client.xlen(keys.feed(shard)))
        wide_keys[owner.port] += int(owner.client.exists(*wide))
    appends = {node.port: _appends(node) for node in masters}
    lines = [f"{'master':>6} {'slots':>11} {'keys':>6} {'games keys':>10} {'shards (feed, indexes)':<23}"
             f" {'feed entries':>12} {'feed share':>10} {'appends share':>13}"]
    for node in masters:
        nodes = cast(dict[str, dict[str, Any]], node.client.execute_command("CLUSTER NODES"))
        slots = ",".join("-".join(span) for span in next(n for n in nodes.values() if "myself" in n["flags"])["slots"])
        size = int(node.client.dbsize())
        lines.append(
            f"{node.port:6d} {slots:>11} {size:6d} {size - wide_keys[node.port]:10d} {_numbers(serving[node.port]):<23}"
            f" {feed_entries[node.port]:12d} {100 * feed_entries[node.port] / max(sum(feed_entries.values()), 1):9.1f}%"
            f" {100 * appends[node.port] / max(sum(appends.values()), 1):12.1f}%")
    return lines


def _appends(node: Node) -> int:
    """Calls of the append script the node ran (EVALSHA, less those refused for a missing script)."""
    stats = cast(dict[str, dict[str, int]], node.client.info("commandstats")).get("cmdstat_evalsha", {})
    return int(stats.get("calls", 0)) - int(stats.get("failed_calls", 0))


def _numbers(numbers: list[int]) -> str:
    return " ".join(str(n) for n in numbers) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measurement")
    parser.add_argument("--masters", type=int, nargs="+", default=[1, 2, 3], help="counts of masters to measure")
    parser.add_argument("--replicas", type=int, default=1, help="replicas per master (0: no replica wait measured)")
    parser.add_argument("--runs", type=int, default=3, help="measurements of each setting")
    parser.add_argument("--games", type=int, default=1000, help="games written to at once")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=8, help="client threads per process")
    args = parser.parse_args()
    scripts = [record(name, seed) for name in GAMES for seed in RECORDED_SEEDS]
    waits = [0, 1] if args.replicas else [0]
    runs_of = f"{args.runs} run{'s' if args.runs != 1 else ''} of {args.seconds:g} s"
    print(f"{args.processes} client processes x {args.threads} threads, {args.games} games, {runs_of} per setting;"
          " medians over the runs, spread = lowest-highest appends/s, latencies"
          " pooled over the runs, CPU in shares of one core and in ms per append (clients + redis-servers)")
    summary = []
    for masters in args.masters:
        with LocalCluster(masters, args.replicas) as cluster, ProcessPoolExecutor(args.processes) as pool:
            runs: dict[int, list[Run]] = {wait: [] for wait in waits}
            for _ in range(args.runs):
                for wait in waits:
                    runs[wait].append(measure(pool, cluster, wait, scripts, args))
            plural = "s" if args.replicas != 1 else ""
            print(f"\n{masters} master{'s' if masters > 1 else ''}, {args.replicas} replica{plural} each")
            print(HEADER)
            for wait in waits:
                summary.append(row(masters, args.replicas, wait, runs[wait], args.seconds))
                print(summary[-1])
            for wait in waits:
                for run in runs[wait]:
                    if run.written.errors:
                        print(f"  wait {wait}: {len(run.written.errors)} threads stopped on {run.written.errors[0]}")
                    if run.written.late > 0.1:
                        print(f"  wait {wait}: a thread started {run.written.late:.2f} s late")
            if masters == 1:
                print("one thread appending alone (2,000 appends; the better of two tries), through the cluster's"
                      " client and through a plain client of the master:")
                print(f"  {'client':>7} {'wait':>4} {'CPU ms/append':>13} {'ms/append':>9}")
                for wait in waits:
                    for name, (cpu, took) in alone(cluster, wait, scripts[0]).items():
                        print(f"  {name:>7} {'on' if wait else 'off':>4} {cpu:13.3f} {took:9.3f}")
            print("keys and writes per master, after every run on this cluster:")
            for line in distribution(cluster):
                print("  " + line)
    print("\nall configurations")
    print(HEADER)
    for line in summary:
        print(line)


if __name__ == "__main__":
    main()
