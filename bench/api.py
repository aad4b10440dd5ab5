"""HTTP throughput and latency of `meeple serve` with many clients playing real games.

    python -m bench.api [--seconds 10] [--games 1 10 100 1000] [--ask-games 100] [--paced-runs 5] [--registered]

Starts `meeple serve` on a fresh embedded store and, for each count of concurrent games,
measures for `--seconds`:
- the rate of `GET /v1/health` from that many clients, each asking again as soon as answered;
- the rate of commands (`POST /commands`, answered 201) from as many clients each playing a
  Djambi game by sending, as soon as answered, the next command of a recorded game (Djambi
  has no chance, so a recorded game plays out the same on the server: every command is
  decided and appended for real). Both sides of the ratio come from the same run. With
  `--registered`, registered players take those seats with their player tokens, so every seat
  token the commands send is tied to its player's token (and looked at with it).
Then it paces the commands of 100 games at half the best rate seen, then at a quarter of it
(each sent at its scheduled time, latency counted from then), and prints p50/p99 of each of
`--paced-runs` runs at both rates side by side and their spread, with, at half the rate, the
API processes' CPU per command, the CPU each spent (a share of one core) and how many of the
players' connections it held, to show how evenly the connections are served. Last, for each game, clients that play as a front end does - read the game, ask the
seat's legal commands (`form=compact`), send one - and their rate beside TAKI's.
Every answer that is not the expected status is counted and printed. While it measures, the
client's own garbage collector is held off (see `collector_held`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import random
import resource
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.recorded import Recorded, record
from bench.server import Server
from domain import GAMES
from service.schemas.runs import expanded


@dataclass
class Tally:
    """What the clients of one measurement saw."""

    latencies: list[float] = field(default_factory=list)
    unexpected: Counter[str] = field(default_factory=Counter)
    requests: int = 0

    def add(self, expected: int, status: int, seconds: float, detail: str) -> None:
        self.requests += 1
        if status == expected:
            self.latencies.append(seconds)
        else:
            self.unexpected[f"{status} {detail}"] += 1

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class SeatedGame:
    """A game created and joined over HTTP: its id and a token for each seat."""

    def __init__(self, game_id: str, tokens: list[str]) -> None:
        self.id, self.tokens = game_id, tokens

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, url: str, game: str, seats: int, options: dict[str, Any],
                   players: list[str] | None = None) -> SeatedGame:
        """Each seat joined by nobody in particular, or by the registered player whose token `players`
        holds at its place (the seat's token then lasts as long as that player token)."""
        async with http.post(f"{url}/v1/games", json={"game": game, "seats": seats, "options": options}) as created:
            game_id = (await created.json())["id"]
        tokens = []
        for seat in range(seats):
            sent = {"Authorization": f"Bearer {players[seat]}"} if players else {}
            async with http.post(f"{url}/v1/games/{game_id}/join", json={"name": f"p{seat}"}, headers=sent) as joined:
                tokens.append((await joined.json())["token"])
        return cls(game_id, tokens)


async def registered(http: aiohttp.ClientSession, url: str, count: int) -> list[str]:
    """The player tokens of `count` new registered players."""
    tokens = []
    for n in range(count):
        async with http.post(f"{url}/v1/players", json={"name": f"p{n}"}) as answer:
            tokens.append((await answer.json())["token"])
    return tokens


def _connection() -> aiohttp.ClientSession:
    """A client's own connection, kept alive between its requests as a player's program or
    browser keeps its own. (One pool shared by all the clients would send each request over
    whichever connection was freed last, so that a few hot connections, each served by one
    server process, would carry nearly every request while other processes stood idle.)
    Idle, it is let go before gunicorn's keep-alive (2 s) closes it, so that no request is sent
    on a connection the server is closing."""
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1, keepalive_timeout=1.0),
                                 timeout=aiohttp.ClientTimeout(total=120))


class ScriptedPlayer:
    """A client playing recorded Djambi games one after another, one command at a time."""

    def __init__(self, url: str, scripts: list[Recorded], first: int, registers: bool = False) -> None:
        """`registers`: its seats are taken by registered players of its own, rather than by nobody in particular."""
        self.http, self.url, self.registers = _connection(), url, registers
        self.scripts = itertools.cycle(scripts[first % len(scripts):] + scripts[:first % len(scripts)])
        self.seated: SeatedGame | None = None
        self.moves: list[tuple[int, dict[str, Any], Any]] = []
        self.players: list[str] = []

    async def prepare(self) -> None:
        script = next(self.scripts)
        if self.registers and len(self.players) < script.seats:
            self.players += await registered(self.http, self.url, script.seats - len(self.players))
        self.seated = await SeatedGame.open(self.http, self.url, script.game, script.seats, script.options,
                                            self.players or None)
        self.moves = list(script.moves)

    async def play(self, until: float, tally: Tally, interval: float | None = None) -> None:
        """Send commands until `until`: as soon as answered, or each `interval` seconds (latency
        then counts from when the command was due)."""
        due = time.perf_counter() + (random.uniform(0, interval) if interval else 0)
        while due < until:
            if interval:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            if not self.moves:
                await self.prepare()
            assert self.seated is not None
            seat, command, _ = self.moves.pop(0)
            started = due if interval else time.perf_counter()
            async with self.http.post(f"{self.url}/v1/games/{self.seated.id}/commands", json=command,
                                      headers={"Authorization": f"Bearer {self.seated.tokens[seat]}"}) as answer:
                # the answer is read whole, as a client does: a connection with an answer left
                # unread cannot carry the next request, and is closed
                body = await answer.json()
                detail = "" if answer.status == 201 else body.get("code", "")
            tally.add(201, answer.status, time.perf_counter() - started, detail)
            due = due + interval if interval else time.perf_counter()


class AskingPlayer:
    """A client that plays as a front end does: reads the game, asks the legal commands of the
    seat to move (in their compact form), and sends one of them."""

    def __init__(self, url: str, game: str, seed: int) -> None:
        self.http, self.url, self.game = _connection(), url, game
        self.random = random.Random(seed)
        self.seated: SeatedGame | None = None

    async def prepare(self) -> None:
        options = {"max_rounds": 30} if self.game == "bahama_taxi" else {}
        self.seated = await SeatedGame.open(self.http, self.url, self.game, 4, options)

    async def play(self, until: float, tally: Tally) -> None:
        while time.perf_counter() < until:
            assert self.seated is not None
            async with self.http.get(f"{self.url}/v1/games/{self.seated.id}") as read:
                view = await read.json()
            tally.requests += 1
            if view["status"] == "finished":
                await self.prepare()
                continue
            token = {"Authorization": f"Bearer {self.seated.tokens[view['to_move'][0]]}"}
            async with self.http.get(f"{self.url}/v1/games/{self.seated.id}/legal-commands?form=compact",
                                     headers=token) as asked:
                legal = expanded((await asked.json())["runs"])
            tally.requests += 1
            started = time.perf_counter()
            async with self.http.post(f"{self.url}/v1/games/{self.seated.id}/commands",
                                      json=self.random.choice(legal), headers=token) as answer:
                body = await answer.json()
                detail = "" if answer.status in (201, 409) else body.get("code", "")
            if answer.status == 409:  # another seat of a +3 window moved first: read the game again
                tally.requests += 1
            else:
                tally.add(201, answer.status, time.perf_counter() - started, detail)


@contextlib.contextmanager
def collector_held() -> Iterator[None]:
    """No collection of the client's own garbage while it measures: a full collection of the
    client's heap took 30 to 90 ms in this benchmark, and every answer arriving meanwhile would
    be timed that much later, as if the server had been slow. The heap is collected just
    before; what the measurement leaves is collected once the collector runs again."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def health_rate(url: str, clients: int, seconds: float) -> Tally:
    tally = Tally()

    async def ask(until: float) -> None:
        async with _connection() as http:
            while time.perf_counter() < until:
                started = time.perf_counter()
                async with http.get(f"{url}/v1/health") as answer:
                    await answer.read()
                tally.add(200, answer.status, time.perf_counter() - started, "")

    with collector_held():
        until = time.perf_counter() + seconds
        await asyncio.gather(*(ask(until) for _ in range(clients)))
    return tally


async def timed(players: list[Any], seconds: float, **pace: float) -> tuple[Tally, float, float]:
    """Let every player play for `seconds`, then close its connection: the tally, the seconds
    taken and the client's CPU share."""
    tally = Tally()
    with collector_held():
        cpu, started = _cpu(), time.perf_counter()
        await asyncio.gather(*(player.play(started + seconds, tally, **pace) for player in players))
        elapsed = time.perf_counter() - started
        share = (_cpu() - cpu) / elapsed
    await asyncio.gather(*(player.http.close() for player in players))
    return tally, elapsed, share


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _problems(tally: Tally) -> str:
    return ", ".join(f"{count} × {what}" for what, count in tally.unexpected.most_common()) or "none"


def _spent(server: Server, before: dict[str, float], count: int) -> dict[str, float]:
    """Server CPU milliseconds per request by part since `before`."""
    after = server.cpu_seconds()
    return {part: 1000 * (after[part] - before[part]) / max(count, 1) for part in after}


def _cpu_columns(spent: dict[str, float]) -> str:
    return f"{sum(spent.values()):5.2f} ({spent['api']:.2f}/{spent['worker']:.2f}/{spent['store']:.2f})"


async def _prepared(players: list[Any]) -> list[Any]:
    for batch in range(0, len(players), 50):
        await asyncio.gather(*(player.prepare() for player in players[batch:batch + 50]))
    return players


async def paced(server: Server, scripts: list[Recorded], games: int, rate: float,
                seconds: float, registers: bool) -> tuple[Tally, float, dict[int, float], str]:
    """Commands of `games` fresh games paced to `rate` in all for `seconds`: the tally, the seconds
    taken, the CPU seconds each API process spent and the players' connections each held."""
    players = await _prepared([ScriptedPlayer(server.url, scripts, n, registers) for n in range(games)])
    held = "/".join(str(count) for _, count in sorted(server.api_connections().items()))
    before = server.api_cpu_seconds()
    tally, elapsed, _ = await timed(players, seconds, interval=games / rate)
    spent = {pid: cpu - before.get(pid, 0.0) for pid, cpu in server.api_cpu_seconds().items()}
    return tally, elapsed, spent, held


async def run(args: argparse.Namespace) -> None:
    scripts = [record("djambi", seed) for seed in range(8)]
    print(f"scripts: {len(scripts)} recorded Djambi games, {statistics.mean(len(s.moves) for s in scripts):.0f} "
          f"commands each on average")
    with Server() as server:
        await health_rate(server.url, 10, 1.0)  # warm up
        best = 0.0
        print("\nserver CPU ms per request: all (API/worker/store); client CPU: share of one core")
        print(f"{'games':>6} {'health/s':>9} {'CPU ms':>22} {'commands/s':>11} {'CPU ms':>22} {'ratio':>6}"
              f" {'p50 ms':>7} {'p99 ms':>7} {'client':>7}  unexpected answers")
        for games in args.games:
            before = server.cpu_seconds()
            health = await health_rate(server.url, games, args.seconds)
            health_cpu = _spent(server, before, len(health.latencies))
            health_per_second = len(health.latencies) / args.seconds
            players = await _prepared([ScriptedPlayer(server.url, scripts, n, args.registered) for n in range(games)])
            before = server.cpu_seconds()
            tally, elapsed, cpu = await timed(players, args.seconds)
            command_cpu = _spent(server, before, len(tally.latencies))
            rate = len(tally.latencies) / elapsed
            best = max(best, rate)
            print(f"{games:6d} {health_per_second:9.0f} {_cpu_columns(health_cpu):>22} {rate:11.0f}"
                  f" {_cpu_columns(command_cpu):>22} {100 * rate / health_per_second:5.0f}%"
                  f" {tally.percentile(0.5):7.1f} {tally.percentile(0.99):7.1f} {100 * cpu:6.0f}%  "
                  f"{_problems(health)} / {_problems(tally)}")
        paced_games, half, quarter = 100, best / 2, best / 4
        print(f"\nat half the best rate: {paced_games} games paced to {half:.0f} commands/s, then at a quarter: to"
              f" {quarter:.0f} commands/s; {args.paced_runs} runs (target: p99 < 25 ms in each)")
        print(f"{'run':>4} {'sent/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'API CPU ms':>11} {'API processes':>14}"
              f" {'connections':>12} {'¼ sent/s':>9} {'¼ p50 ms':>9} {'¼ p99 ms':>9}  unexpected answers")
        p99s: dict[float, list[float]] = {half: [], quarter: []}
        for run_number in range(1, args.paced_runs + 1):
            tally, elapsed, spent, held = await paced(server, scripts, paced_games, half, args.seconds, args.registered)
            shares = "/".join(f"{seconds / elapsed:.2f}" for _, seconds in sorted(spent.items()))
            per_command = 1000 * sum(spent.values()) / max(len(tally.latencies), 1)
            slower, slower_elapsed, _, _ = await paced(server, scripts, paced_games, quarter, args.seconds, args.registered)
            p99s[half].append(tally.percentile(0.99))
            p99s[quarter].append(slower.percentile(0.99))
            print(f"{run_number:4d} {len(tally.latencies) / elapsed:7.0f} {tally.percentile(0.5):7.1f} {p99s[half][-1]:7.1f}"
                  f" {per_command:11.2f} {shares:>14} {held:>12} {len(slower.latencies) / slower_elapsed:9.0f}"
                  f" {slower.percentile(0.5):9.1f} {p99s[quarter][-1]:9.1f}  {_problems(tally)} / {_problems(slower)}")
        for name, rate in (("half", half), ("a quarter", quarter)):
            runs = p99s[rate]
            print(f"p99 at {name} the best rate over {len(runs)} runs: {min(runs):.1f}-{max(runs):.1f} ms"
                  f" (median {statistics.median(runs):.1f}); under 25 ms in {sum(p99 < 25 for p99 in runs)} of {len(runs)}")
        print(f"\nclients that ask before they move ({args.ask_games} games each; legal commands asked in their"
              " compact form):")
        print(f"{'game':>12} {'requests/s':>11} {'commands/s':>11} {'of taki':>8} {'p50 ms':>7} {'p99 ms':>7}"
              "  unexpected answers")
        rates: dict[str, float] = {}
        for name in GAMES:
            askers = await _prepared([AskingPlayer(server.url, name, n) for n in range(args.ask_games)])
            tally, elapsed, _ = await timed(askers, args.seconds)
            rates[name] = len(tally.latencies) / elapsed
            print(f"{name:>12} {tally.requests / elapsed:11.0f} {rates[name]:11.0f}"
                  f" {100 * rates[name] / rates['taki']:7.0f}% {tally.percentile(0.5):7.1f}"
                  f" {tally.percentile(0.99):7.1f}  {_problems(tally)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measurement")
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 100, 1000], help="concurrent games")
    parser.add_argument("--ask-games", type=int, default=100, help="concurrent games of clients that ask first")
    parser.add_argument("--paced-runs", type=int, default=5, help="runs of the paced measurement")
    parser.add_argument("--registered", action="store_true",
                        help="commands' seats taken by registered players with their tokens (each seat's token tied to one)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
