"""Ratings measured end to end: rated games between the AI levels of each game, created through
the API of a `meeple serve` on its embedded store and played by its workers, whose rating keeper
records and folds each result. The cheapest settings that still tell the levels apart: two-seat
TAKI and Bahama Taxi (10 rounds) between random and greedy, three-seat Djambi among random,
greedy and search (Djambi needs three seats, and a rated game seats each level once). Each level
thinks within its own budget, as every rated AI does.

    python -m bench.ratings [--games 300] [--at-once 16] [--game taki ...]

Prints, for each game, how long its games took, each level's measured win rate (its first places
alone) and its rating, and whether the leaderboard orders the levels as their win rates do; then
whether ratings rebuilt from the stored games (`meeple ratings rebuild`) and the keeper made to read
the whole feed and sweep every finished game again leave every rating, history and result as it was."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, cast

import redis
import requests

from application.results import MIN_MOVES
from bench.server import ROOT, Server
from domain import GAMES
from events import keys
from workers.ratings import GROUP

SETUPS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {  # levels, options
    "taki": (("random", "greedy"), {}),
    "bahama_taxi": (("random", "greedy"), {"max_rounds": 10}),
    "djambi": (("random", "greedy", "search"), {}),
}
MARGIN = 0.15  # levels whose win rates differ by more than this must be ordered by them


@dataclass(frozen=True)
class Measured:
    """One game's rated games: how many were played and how many count (each seat moved twice),
    how long they took, each level's first places in those that count and its rating, and whether
    the leaderboard orders the levels as their win rates do."""

    game: str
    played: int
    games: int
    seconds: float
    wins: dict[str, int]
    ratings: dict[str, float]

    def win_rate(self, level: str) -> float:
        return self.wins.get(level, 0) / self.games

    def apart(self, margin: float = MARGIN) -> list[tuple[str, str]]:
        """The pairs of levels whose win rates differ by more than `margin`, the better first."""
        return [(a, b) if self.win_rate(a) > self.win_rate(b) else (b, a)
                for a, b in combinations(self.ratings, 2) if abs(self.win_rate(a) - self.win_rate(b)) > margin]

    def agrees(self, margin: float = MARGIN) -> bool:
        """Whether every two levels whose win rates differ by more than `margin` are rated in that order."""
        return all(self.ratings[better] > self.ratings[worse] for better, worse in self.apart(margin))


def play(session: requests.Session, url: str, game: str, count: int, at_once: int) -> list[str]:
    """`count` rated games of `game` between its levels, each level at each seat in turn, `at_once`
    in play at a time, created through the API and played to the end by the server's workers."""
    levels, options = SETUPS[game]
    playing: list[str] = []
    finished: list[str] = []
    for number in range(count):
        while len(playing) >= at_once:
            playing = _waiting(session, url, playing, finished)
        seated = levels[number % len(levels):] + levels[:number % len(levels)]
        bots = [{"seat": seat, "level": level} for seat, level in enumerate(seated)]
        answer = session.post(f"{url}/v1/games", json={"game": game, "seats": len(levels), "options": options, "bots": bots})
        answer.raise_for_status()
        assert answer.json()["rated"], answer.json()
        playing.append(answer.json()["id"])
    while playing:
        playing = _waiting(session, url, playing, finished)
    return finished


def _waiting(session: requests.Session, url: str, playing: list[str], finished: list[str]) -> list[str]:
    """The games of `playing` still in play, after a short wait; those over are added to `finished`."""
    time.sleep(0.2)
    still: list[str] = []
    for game_id in playing:
        status = session.get(f"{url}/v1/games/{game_id}").json()["status"]
        (finished if status == "finished" else still).append(game_id)
    return still


def counts(session: requests.Session, url: str, game_id: str) -> bool:
    """Whether the game counts for the ratings, as its log says: each seat made two moves of its own."""
    moves: set[tuple[str, str]] = set()
    after: int | None = 0
    while after is not None:
        page = session.get(f"{url}/v1/games/{game_id}/events", params={"after": after, "limit": 1000}).json()
        moves |= {(event["command_id"], event["actor"]) for event in page["events"] if event["actor"].startswith("bot:")}
        after = page["next"]
    made = Counter(actor for _, actor in moves)
    seats = len(session.get(f"{url}/v1/games/{game_id}").json()["seats"])
    return all(made[f"bot:{seat}"] >= MIN_MOVES for seat in range(seats))


def first_places(session: requests.Session, url: str, game_ids: list[str]) -> Counter[str]:
    """How many of the games each level won alone, as each game's own result says."""
    won: Counter[str] = Counter()
    for game_id in game_ids:
        answer = session.get(f"{url}/v1/games/{game_id}").json()
        first = answer["result"]["ranking"][0]
        if len(first) == 1:
            won[answer["seats"][first[0]]["bot"]] += 1
    return won


def ratings(session: requests.Session, url: str, game: str) -> dict[str, dict[str, Any]]:
    """Every rated identity of `game` on its leaderboard, established and provisional."""
    found: dict[str, dict[str, Any]] = {}
    for provisional in ("false", "true"):
        after: int | None = 0
        while after is not None:
            page = session.get(f"{url}/v1/ratings/{game}", params={"provisional": provisional, "after": after, "limit": 100}).json()
            found |= {each["player"]: each for each in page["ratings"]}
            after = page["next"]
    return found


def settle(session: requests.Session, url: str, game: str, counted: dict[str, int], timeout: float = 120) -> dict[str, float]:
    """Each level's rating once the keeper has counted `counted[level]` games for it."""
    until = time.monotonic() + timeout
    while True:
        found = ratings(session, url, game)
        if all(found.get(f"ai:{level}", {}).get("games", 0) == games for level, games in counted.items()):
            return {level: found[f"ai:{level}"]["rating"] for level in counted}
        if time.monotonic() > until:
            raise TimeoutError(f"{game}: the ratings counted {found}, not {counted}")
        time.sleep(0.2)


def measure(server: Server, game: str, count: int, at_once: int) -> Measured:
    """Play `count` rated games of `game` on `server` and read what they made of the ratings."""
    session = requests.Session()
    before = ratings(session, server.url, game)
    started = time.monotonic()
    played = play(session, server.url, game, count, at_once)
    seconds = time.monotonic() - started
    counted = [game_id for game_id in played if counts(session, server.url, game_id)]
    settled = settle(session, server.url, game, {level: before.get(f"ai:{level}", {}).get("games", 0) + len(counted)
                                                 for level in SETUPS[game][0]})
    return Measured(game, len(played), len(counted), seconds, dict(first_places(session, server.url, counted)), settled)


def stored(client: redis.Redis, games: Iterable[str] = tuple(GAMES)) -> dict[str, Any]:
    """Every key of each game's current generation of ratings, named by its game and from its root, and its
    content, but what the keeper has yet to fold and its own keys (lock, sweep mark, generations)."""
    found: dict[str, Any] = {}
    for game in games:
        current = (cast(bytes | None, client.get(keys.rating_current(game))) or b"").decode()
        root, later = keys.ratings_root(game, current), f"{keys.ratings_root(game)}:gen:"
        own = {*keys.rating_game_keys(game), keys.rating_unfolded(root)}
        for key in sorted(cast(Iterable[bytes], client.scan_iter(match=f"{root}:*", count=1000))):
            name = key.decode()
            if name not in own and (current or not name.startswith(later)):
                kind = client.type(key)
                found[game + name[len(root):]] = client.hgetall(key) if kind == b"hash" else client.zrange(key, 0, -1, withscores=True)
    return found


def rebuilt_unchanged(server: Server) -> bool:
    """Whether `meeple ratings rebuild`, from the stored finished games, leaves every rating as it was."""
    before = stored(server.redis)
    subprocess.run([sys.executable, "-m", "cli.main", "ratings", "rebuild"], cwd=ROOT, check=True, capture_output=True,
                   env=os.environ | {"MEEPLE_REDIS_URL": server.redis_url})
    return stored(server.redis) == before


def recounted_unchanged(server: Server, timeout: float = 60) -> bool:
    """Whether the keeper, made to read the whole feed again and sweep every finished game again, changes nothing."""
    before = stored(server.redis)
    feeds = [key for key in server.redis.scan_iter(match=f"{keys.PREFIX}:feed*") if server.redis.type(key) == b"stream"]
    for feed in feeds:
        server.redis.xgroup_setid(feed, GROUP, "0")
    server.redis.delete(*(keys.rating_swept(game) for game in GAMES))
    until = time.monotonic() + timeout
    while not (all(server.redis.exists(keys.rating_swept(game)) for game in GAMES) and all(_read_all(server.redis, feed) for feed in feeds)):
        if time.monotonic() > until:
            raise TimeoutError("the keeper did not read the feed again")
        time.sleep(0.2)
    return stored(server.redis) == before


def _read_all(client: redis.Redis, feed: bytes) -> bool:
    """Whether the keepers' group has read and acknowledged every announcement of `feed`."""
    group = next(each for each in client.xinfo_groups(feed) if each["name"] == GROUP.encode())
    return bool(group["pending"] == 0 and group["last-delivered-id"] == client.xinfo_stream(feed)["last-generated-id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="rated games of each game (default 300)")
    parser.add_argument("--at-once", type=int, default=16, help="games in play at a time (default 16)")
    parser.add_argument("--game", action="append", choices=sorted(SETUPS), help="only these games (default: all three)")
    args = parser.parse_args()
    os.environ["MEEPLE_SWEEP_SECONDS"] = "1"  # the recount's sweep comes soon
    with Server() as server:
        for game in args.game or list(SETUPS):
            measured = measure(server, game, args.games, args.at_once)
            print(f"{game}: {measured.played} rated games between {', '.join(SETUPS[game][0])} in {measured.seconds:.1f} s "
                  f"({measured.seconds / measured.played:.2f} s a game), {measured.games} of them counted")
            for level, rating in sorted(measured.ratings.items(), key=lambda item: -item[1]):
                print(f"  {level}: won {measured.win_rate(level):.0%} alone, rating {rating:.2f}")
            print(f"  the leaderboard orders the levels as their win rates do: {measured.agrees()}"
                  f"{'' if measured.apart() else ' (no two levels apart by more than 15 points)'}")
        print(f"ratings rebuilt from the stored games equal the live ones: {rebuilt_unchanged(server)}")
        print(f"the keeper re-reading the whole feed and sweeping every game again changes nothing: {recounted_unchanged(server)}")


if __name__ == "__main__":
    main()
