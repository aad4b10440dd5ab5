"""Imports beside the health check, on `meeple serve` with one API process (so that every
request shares the process the import is checked in):

    python -m bench.imports [--seats 10] [--padding 110000] [--probes-ms 10]

- a genuine long log: a TAKI tournament of `--seats` random bots, exported as the server does
  (format 2: each command beside its events), imported (checked, every command decided again, and
  stored);
- the same log padded with no-op events up to `--padding` events (~16 MB), refused by
  MEEPLE_MAX_IMPORT_EVENTS;
- the same padded log with the limit raised above it, so that it is read and checked whole
  (and refused for its first event after the end);

each with the time the import took and how long `GET /v1/health`, asked every `--probes-ms`
meanwhile, took to answer: median, 99th percentile and slowest, beside health with nothing else
going on."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

import requests

from bench.server import Server
from domain import GAMES
from domain.core.rng import SeededRng
from events.envelope import Envelope, GameRecord, Lifecycle
from events.execute import recorded
from events.log_file import export_lines


def export(seats: int) -> list[str]:
    """The export of a TAKI tournament played by random bots, each move an AI seat's command."""
    game, options, rng = GAMES["taki"], {"mode": "tournament"}, SeededRng(1)
    parsed = game.parse_options(options, seats)
    opening = game.setup(parsed, seats, rng)
    state, envelopes = game.replay(parsed, seats, opening), list(_run("bench", 1, "system", "setup", opening, game))
    while not (status := game.status(state)).finished:
        seat = status.to_move[0]
        command = game.bots["random"](state, seat, rng)
        events = game.decide(state, command, rng)
        for event in events:
            state = game.evolve(state, event)
        envelopes += _run("bench", len(envelopes) + 1, f"bot:{seat}", recorded(game, command), events, game)
    record = GameRecord("bench", "taki", options, seats, Lifecycle.FINISHED, len(envelopes), 0,
                        tuple(f"bot {seat}" for seat in range(seats)), ("random",) * seats)
    return [line.rstrip("\n") for line in export_lines(record, envelopes)]


def _run(game_id: str, first: int, actor: str, cause: Any, events: tuple[Any, ...], game: Any) -> list[Envelope]:
    """One command's events as the store keeps them, the first with the command's cause."""
    return [Envelope(game_id, first + index, *game.events.encode(event), f"c{first}", actor, 0, None if index else cause)
            for index, event in enumerate(events)]


def padded(lines: list[str], events: int) -> list[str]:
    """`lines` with turn_started events (which change nothing once the game is over) up to
    `events`, in the last command's run."""
    last = json.loads(lines[-1])
    noop = {"type": "turn_started", "schema_version": 1, "payload": {"seat": 0, "turn_no": 1},
            "command_id": last["command_id"], "actor": last["actor"], "time": 0}
    return lines + [json.dumps({"version": version, **noop}) for version in range(len(lines), events + 1) if version > last["version"]]


POST = ("import requests, sys; answer = requests.post(sys.argv[1], data=open(sys.argv[2], 'rb').read(), "
        "headers={'Content-Type': 'application/x-ndjson'}, timeout=300); print(answer.status_code, answer.text)")


def probe(url: str, every: float, stop: threading.Event, seen: list[float]) -> None:
    with requests.Session() as session:
        while not stop.is_set():
            started = time.perf_counter()
            assert session.get(f"{url}/v1/health", timeout=30).status_code == 200
            seen.append(time.perf_counter() - started)
            time.sleep(every)


def measure(server: Server, body: bytes | None, every: float, alone: float = 2.0) -> tuple[str, float, list[float]]:
    """(the import's status and code, its seconds, health's seconds meanwhile); with no body, health
    alone for `alone` seconds."""
    stop, seen = threading.Event(), []
    prober = threading.Thread(target=probe, args=(server.url, every, stop, seen))
    prober.start()
    time.sleep(0.2)
    started = time.perf_counter()
    outcome = "-"
    if body is None:
        time.sleep(alone)
    else:  # sent by a process of its own, so that sending megabytes does not hold up the probes
        with tempfile.NamedTemporaryFile(suffix=".jsonl") as file:
            file.write(body)
            file.flush()
            sent = subprocess.run([sys.executable, "-c", POST, f"{server.url}/v1/games/import", file.name],
                                  capture_output=True, text=True, check=True, timeout=300)
        status, answer = sent.stdout.split(" ", 1)
        outcome = f"{status} {json.loads(answer).get('code', '')}".strip()
    took = time.perf_counter() - started
    time.sleep(0.2)
    stop.set()
    prober.join()
    return outcome, took, seen


def show(what: str, outcome: str, took: float, seen: list[float]) -> None:
    ms = sorted(1000 * s for s in seen)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{what:<46} {outcome:<18} {took:6.2f} s   health: {len(ms):4} probes, "
          f"median {statistics.median(ms):6.1f} ms, p99 {p99:6.1f} ms, slowest {ms[-1]:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=10)
    parser.add_argument("--padding", type=int, default=110_000)
    parser.add_argument("--probes-ms", type=float, default=10)
    args = parser.parse_args()
    genuine = export(args.seats)
    long = padded(genuine, args.padding)
    genuine_body, long_body = "\n".join(genuine).encode(), "\n".join(long).encode()
    print(f"genuine log: {len(genuine) - 1:,} events, {len(genuine_body) / 1e6:.1f} MB; "
          f"padded: {len(long) - 1:,} events, {len(long_body) / 1e6:.1f} MB")
    every = args.probes_ms / 1000
    # the padded log outgrows the default 16 MiB: this measures the event limit and the check, not the byte limit
    os.environ["MEEPLE_MAX_IMPORT_BYTES"] = str(2 * len(long_body))
    for limit in (100_000, args.padding + 1):
        os.environ["MEEPLE_MAX_IMPORT_EVENTS"] = str(limit)
        server = Server(workers=1, no_worker=True)
        try:
            show("health alone", *measure(server, None, every))
            if limit == 100_000:
                show(f"import genuine ({len(genuine) - 1:,} events)", *measure(server, genuine_body, every))
                show(f"import padded, limit {limit:,}", *measure(server, long_body, every))
            else:
                show(f"import padded, limit {limit:,} (checked whole)", *measure(server, long_body, every))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
