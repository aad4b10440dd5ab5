"""Win rates of the AI levels against each other, and the time each level takes per move.

    python -m bench.bots [--games 200] [--seats 2] [--game taki] [--pairing greedy:search] [--jobs 2]
                         [--iterations N] [--seconds S]

Plays `--games` seeded games per pairing of levels for each game, the seats alternating
between the two levels (with at least as many seats as the game needs: Djambi plays 4,
two of each level), and prints how often each level wins, with the 95 % Wilson interval of
that share, and its mean and slowest time per move. The levels that search think within
their own budget, or within `--iterations` and `--seconds` when either is given. Games run
in `--jobs` processes; the figures do not depend on it. Progress goes to stderr, a tenth of
a pairing's games at a time."""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from os import cpu_count
from typing import Any

from domain import GAMES
from domain.core.game import Budget, Game, Seat
from domain.core.rng import SeededRng


def play(game: Game, levels: list[str], seed: int,  # type: ignore[type-arg]
         watch: Callable[[Any], None] | None = None, budget: Budget | None = None) -> tuple[Seat | None, dict[str, list[float]]]:
    """One game with `levels[seat]` at each seat (those that search within `budget`, if given),
    `watch` shown each position before its move: the seat that won alone (None if no seat did)
    and the move times per level."""
    rng = SeededRng(seed)
    options = game.options_type()
    state = game.replay(options, len(levels), game.setup(options, len(levels), rng))
    times: dict[str, list[float]] = defaultdict(list)
    bots = {level: game.bot(level, budget if level in game.budgets() else None, time.perf_counter) for level in set(levels)}
    while not (status := game.status(state)).finished:
        if watch is not None:
            watch(state)
        seat = status.to_move[0]
        started = time.perf_counter()
        command = bots[levels[seat]](state, seat, rng)
        times[levels[seat]].append(time.perf_counter() - started)
        for event in game.decide(state, command, rng):
            state = game.evolve(state, event)
    ranking = game.status(state).ranking
    return (ranking[0][0] if ranking and len(ranking[0]) == 1 else None), times


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of `wins` in `games` (95 % for z = 1.96)."""
    share, spread = wins / games, z * z / games
    middle = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / games + spread / (4 * games)) / (1 + spread)
    return middle - half, middle + half


def _play_seeded(name: str, levels: list[str], seed: int, budget: Budget | None) -> tuple[Seat | None, dict[str, list[float]]]:
    return play(GAMES[name], levels, seed, budget=budget)


def _described(budget: Budget) -> str:
    limits = [f"{budget.iterations} iterations" if budget.iterations is not None else "",
              f"{budget.seconds:g} s" if budget.seconds is not None else ""]
    return " and ".join(limit for limit in limits if limit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--pairing", action="append", help="only this pairing of levels, as `first:second` (repeatable)")
    parser.add_argument("--jobs", type=int, default=cpu_count() or 1)
    parser.add_argument("--iterations", type=int, help="the search levels' iterations per move (default: their own budget)")
    parser.add_argument("--seconds", type=float, help="the search levels' seconds per move (default: their own budget)")
    args = parser.parse_args()
    budget = None if args.iterations is None and args.seconds is None else Budget(args.iterations, args.seconds)
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in args.game or GAMES:
            game = GAMES[name]
            seats = min(max(args.seats, game.min_seats + game.min_seats % 2), game.max_seats)
            pairings = [tuple(p.split(":")) for p in args.pairing] if args.pairing else itertools.combinations(game.bots, 2)
            for first, second in pairings:
                started = time.perf_counter()
                seatings = [[((first, second) if seed % 2 else (second, first))[seat % 2] for seat in range(seats)]
                            for seed in range(args.games)]
                games = pool.map(_play_seeded, [name] * args.games, seatings, range(args.games), [budget] * args.games)
                wins: Counter[str | None] = Counter()
                times: dict[str, list[float]] = defaultdict(list)
                for played, (seating, (winner, move_times)) in enumerate(zip(seatings, games, strict=True), start=1):
                    if played % max(args.games // 10, 1) == 0 and played < args.games:
                        print(f"  {name} {first}:{second}: {played}/{args.games} games, "
                              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
                    wins[None if winner is None else seating[winner]] += 1
                    for level, spent in move_times.items():
                        times[level] += spent
                within = "" if budget is None else f", searching within {_described(budget)}"
                print(f"{name}: {first} vs {second}, {args.games} games of {seats} seats{within} "
                      f"({time.perf_counter() - started:.0f} s)")
                for level in (first, second):
                    mean_ms = 1000 * sum(times[level]) / max(len(times[level]), 1)
                    slowest_ms = 1000 * max(times[level], default=0)
                    low, high = wilson(wins[level], args.games)
                    print(f"  {level:>8} wins {wins[level]:4d} ({100 * wins[level] / args.games:5.1f} %, 95 % interval "
                          f"{100 * low:.1f}–{100 * high:.1f} %), {mean_ms:7.2f} ms per move, slowest {slowest_ms:6.0f} ms")
                if wins[None]:
                    print(f"  {'no one':>8} wins {wins[None]:4d}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
