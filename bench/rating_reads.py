"""What the ratings' reads cost in a big game: 20,000 four-seat TAKI results among 500
identities recorded and folded on the embedded Redis, then a leaderboard page (of everyone, and
deep in a window of the latest hundredth of the games), a player page and a head-to-head read as the API
reads them, each timed as the mean of 20, and the opponents' first page; then one late result
folded again with what follows it, its first chunk and the mean of its chunks timed.

    python -m bench.rating_reads [--results 20000] [--identities 500]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis

from application import leaderboards
from application.ratings import Ratings
from events.ratings import Result
from players.accounts import PlayerStore

READS = 20


def filled(client: redis.Redis, count: int, identities: int) -> Ratings:
    """`count` results of four-seat TAKI games among `identities` identities, recorded and folded."""
    ratings, chooser = Ratings(client), random.Random(1)
    everyone = [f"p{number:04d}" for number in range(identities)]
    for number in range(count):
        seated = chooser.sample(everyone, 4)
        ratings.record(Result(f"g{number:05d}", "taki", 1_000_000 + number * 1000, tuple((each,) for each in seated),
                              {each: each for each in seated}))
    ratings.fold("taki")
    return ratings


def timed(name: str, read: Callable[[], object]) -> None:
    started = time.perf_counter()
    for _ in range(READS):
        read()
    print(f"{name}: {(time.perf_counter() - started) / READS * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=20_000)
    parser.add_argument("--identities", type=int, default=500)
    args = parser.parse_args()
    from runtime.embedded import EmbeddedRedis

    with EmbeddedRedis(Path(tempfile.mkdtemp())) as server:
        client = redis.Redis.from_url(server.url)
        started = time.perf_counter()
        ratings = filled(client, args.results, args.identities)
        print(f"recorded and folded {args.results} results: {time.perf_counter() - started:.1f} s")
        players = PlayerStore(client)  # none registered: each identity is shown by its id
        timed("leaderboard page (first 50)", lambda: leaderboards.leaderboard(ratings, players, "taki", False, 0, 0, 50))
        timed("player page (ratings, places, history)", lambda: leaderboards.careers(ratings, players, ["taki"], "p0001", 500))
        timed("head-to-head", lambda: leaderboards.versus(ratings, ["taki"], "p0001", "p0002"))
        timed("opponents (first 20)", lambda: leaderboards.opponents(ratings, players, "taki", "p0001", 0, 20))
        lately = 1_000_000 + args.results * 990  # a window of the last hundredth of the games: fewer played in it
        timed("leaderboard page (50 past the first 500 of those in a window of the last 1% of games)",
              lambda: leaderboards.leaderboard(ratings, players, "taki", False, lately, 500, 50))
        timed("the same of the provisional board", lambda: leaderboards.leaderboard(ratings, players, "taki", True, lately, 500, 50))
        refolded(ratings, args.results)


def refolded(ratings: Ratings, count: int) -> None:
    """Record one result placed before the latter half of the folded ones, and time the chunks of its fold."""
    took: list[float] = []
    real = Ratings._chunk

    def chunk(self: Ratings, *args: object) -> tuple[int, str | None]:
        started = time.perf_counter()
        try:
            return real(self, *args)  # type: ignore[arg-type]
        finally:
            took.append(time.perf_counter() - started)

    Ratings._chunk = chunk  # type: ignore[method-assign]
    late = Result("late", "taki", 1_000_000 + count // 2 * 1000 - 1, (("p0001",), ("p0002",), ("p0003",), ("p0004",)), {})
    ratings.record(late)
    ratings.fold("taki")
    Ratings._chunk = real  # type: ignore[method-assign]
    print(f"a late result folded again with the {count // 2} after it: {len(took)} chunks, the first {took[0] * 1000:.0f} ms, "
          f"{sum(took) / len(took) * 1000:.0f} ms a chunk")


if __name__ == "__main__":
    main()
