"""A page of the listing, `GET /v1/games?limit=10`, on `meeple serve`'s embedded store with no
unlisted games and then with thousands of them beside the same listed ones.

    python -m bench.listing [--unlisted 5000] [--requests 200]

Each figure is the median and the 99th percentile of `requests` requests, one at a time, of the
first page and of a deep one (the page after 200 listed games)."""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
import uuid

import redis

from bench.server import Server
from events.store import EventStore


def timed(url: str, requests: int) -> tuple[float, float]:
    """Median and 99th percentile, in ms, of `requests` GETs of `url`."""
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times), sorted(times)[int(0.99 * len(times))]


def deep_cursor(base: str, pages: int) -> str:
    """The `next` of the listing's page `pages` (of 10 games)."""
    cursor = ""
    for _ in range(pages):
        with urllib.request.urlopen(f"{base}/v1/games?limit=10{cursor and f'&cursor={cursor}'}", timeout=10) as response:
            cursor = json.load(response)["next"]
    return cursor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unlisted", type=int, default=5000, help="unlisted games created for the second measurement")
    parser.add_argument("--requests", type=int, default=200, help="requests timed per figure")
    args = parser.parse_args()
    with Server(no_worker=True) as server:
        store = EventStore(redis.Redis.from_url(server.redis_url))
        for _ in range(250):
            store.games.create(uuid.uuid4().hex[:16], "taki", {}, 2)
        deep = deep_cursor(server.url, 20)
        print(f"GET /v1/games?limit=10, 250 listed games, {args.requests} requests each: median / p99 in ms")
        print(f"{'unlisted games':>15} {'first page':>17} {'page 21':>17}")
        for unlisted in (0, args.unlisted):
            for _ in range(unlisted):
                store.games.create(uuid.uuid4().hex[:16], "taki", {}, 2, unlisted=True)
            first = timed(f"{server.url}/v1/games?limit=10", args.requests)
            later = timed(f"{server.url}/v1/games?limit=10&cursor={deep}", args.requests)
            print(f"{unlisted:15d} {first[0]:8.2f} / {first[1]:6.2f} {later[0]:8.2f} / {later[1]:6.2f}")


if __name__ == "__main__":
    main()
