"""Where a command's time goes: recorded Djambi games played through the API in this process
(Flask's test client, no HTTP server) on a real embedded store, under cProfile, with every
function's own time summed by the part of the stack it belongs to.

    python -m bench.profile [--games 4] [--top 25]

Prints the time per command by part (the rules, the event store, the API's own code, Flask and
Werkzeug, marshmallow, the Redis client, waiting on Redis, JSON, logging and metrics, the rest of
the standard library), then the functions with the most time of their own. cProfile adds its own
cost to every call, so the shares matter more than the milliseconds; `GET /v1/health` is
profiled the same way beside it. Last, without the profiler, what a front end pays to ask a
Djambi opening's 891 legal commands, and to ask them again at the same version."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import redis
from flask.testing import FlaskClient

from bench.recorded import Recorded, record
from runtime.config import Config
from runtime.embedded import EmbeddedRedis
from service.app import create_app

ROOT = str(Path(__file__).parents[1])
PARTS: list[tuple[str, Callable[[str, str], bool]]] = [  # the first that claims a function has it
    ("waiting on Redis (socket reads)", lambda path, name: "recv_into" in name or "sendall" in name),
    ("the rules (domain/)", lambda path, name: path.startswith(f"{ROOT}/domain/")),
    ("the event store (events/)", lambda path, name: path.startswith(f"{ROOT}/events/")),
    ("the API's own code (service/, application/, runtime/)",
     lambda path, name: path.startswith((f"{ROOT}/service/", f"{ROOT}/application/", f"{ROOT}/runtime/"))),
    ("marshmallow", lambda path, name: "/marshmallow/" in path),
    ("Redis client (redis-py, hiredis)", lambda path, name: "/redis/" in path or "hiredis" in name),
    ("Flask and Werkzeug", lambda path, name: "/flask/" in path or "/werkzeug/" in path),
    ("JSON", lambda path, name: "/json/" in path or "json" in name),
    ("logging and metrics", lambda path, name: "/logging/" in path or "prometheus" in path or "pythonjsonlogger" in path),
]


def part_of(path: str, name: str) -> str:
    return next((part for part, claims in PARTS if claims(path, name)), "the rest (standard library, builtins)")


def play(client: FlaskClient, recorded: Recorded) -> int:
    """Create the game, seat its players and send its recorded commands; how many were accepted."""
    game_id = client.post("/v1/games", json={"game": recorded.game, "seats": recorded.seats,
                                             "options": recorded.options}).get_json()["id"]
    tokens = [client.post(f"/v1/games/{game_id}/join", json={"name": f"p{seat}"}).get_json()["token"]
              for seat in range(recorded.seats)]
    sent = 0
    for seat, command, _ in recorded.moves:
        answer = client.post(f"/v1/games/{game_id}/commands", json=command,
                             headers={"Authorization": f"Bearer {tokens[seat]}"})
        if answer.status_code != 201:
            raise RuntimeError(f"command {sent + 1} answered {answer.status_code}: {answer.get_json()}")
        sent += 1
    return sent


def by_part(profile: cProfile.Profile) -> dict[str, float]:
    """Seconds of own time per part."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    parts: dict[str, float] = defaultdict(float)
    for (path, _, name), (_, _, own, _, _) in stats.items():
        parts[part_of(path, name)] += own
    return parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="recorded Djambi games to play")
    parser.add_argument("--top", type=int, default=25, help="functions listed by their own time")
    args = parser.parse_args()
    games = [record("djambi", seed) for seed in range(args.games + 1)]
    with EmbeddedRedis(tempfile.mkdtemp(prefix="meeple-profile-")) as server:
        app = create_app(Config(rate_per_token=None, rate_per_address=None), client=redis.Redis.from_url(server.url))
        http = app.test_client()
        play(http, games[0])  # warm up: imports, scripts loaded, caches filled
        commands = cProfile.Profile()
        commands.enable()
        sent = sum(play(http, recorded) for recorded in games[1:])
        commands.disable()
        health = cProfile.Profile()
        health.enable()
        for _ in range(sent):
            http.get("/v1/health")
        health.disable()
        first, again = asking_twice(http)
    command_parts, health_parts = by_part(commands), by_part(health)
    command_total, health_total = sum(command_parts.values()), sum(health_parts.values())
    print(f"{sent} commands of {args.games} recorded Djambi games, and as many GET /v1/health, under cProfile")
    print(f"\n{'part':<40} {'ms/command':>10} {'share':>6} {'ms/health':>10} {'share':>6}")
    for part in sorted(command_parts, key=command_parts.get, reverse=True):  # type: ignore[arg-type]
        print(f"{part:<40} {1000 * command_parts[part] / sent:10.3f} {100 * command_parts[part] / command_total:5.1f}%"
              f" {1000 * health_parts.get(part, 0.0) / sent:10.3f} {100 * health_parts.get(part, 0.0) / health_total:5.1f}%")
    print(f"{'all':<40} {1000 * command_total / sent:10.3f} {100.0:5.1f}% {1000 * health_total / sent:10.3f} {100.0:5.1f}%")
    print(f"\nthe {args.top} functions with the most time of their own, per command:")
    stats = pstats.Stats(commands).stats  # type: ignore[attr-defined]
    ranked = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:args.top]
    for (path, line, name), (_, calls, own, cumulative, _) in ranked:
        where = path.replace(ROOT + "/", "").replace(str(Path(redis.__file__).parents[1]) + "/", "")
        print(f"{1000 * own / sent:8.3f} ms {calls / sent:7.1f} calls  {name} ({where}:{line})")
    print(f"\na Djambi opening's legal commands through the API (medians of {ASKS} games): "
          f"asked first {1000 * first:.2f} ms, asked again at the same version {1000 * again:.2f} ms")


ASKS = 30


def asking_twice(client: FlaskClient) -> tuple[float, float]:
    """The median seconds to ask a new Djambi game's legal commands, and to ask them again."""
    first: list[float] = []
    again: list[float] = []
    for _ in range(ASKS):
        game_id = client.post("/v1/games", json={"game": "djambi", "seats": 4}).get_json()["id"]
        token = [client.post(f"/v1/games/{game_id}/join", json={"name": f"p{seat}"}).get_json()["token"]
                 for seat in range(4)][0]
        for times in (first, again):
            started = time.perf_counter()
            client.get(f"/v1/games/{game_id}/legal-commands", headers={"Authorization": f"Bearer {token}"})
            times.append(time.perf_counter() - started)
    return statistics.median(first), statistics.median(again)


if __name__ == "__main__":
    main()
