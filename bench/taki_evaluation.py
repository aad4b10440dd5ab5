"""Fits the weights by which TAKI's `search` judges a position (`WEIGHTS` in domain/taki/bot.py).

    python -m bench.taki_evaluation [--games 2000] [--seed 10000] [--jobs 2]

Plays `--games` seeded two-seat games of `greedy` against itself and keeps every position of
the games one seat won, with both seats' `features`. The chance that a seat wins is taken to be
a conditional logit, the softmax over the seats of their weighted features, and the weights are
fitted by Newton's method. Prints them next to the weights in use, and the log loss of both on
`--games` further games, against a coin toss's."""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from os import cpu_count

import numpy as np

from bench.bots import play
from domain.taki import TAKI
from domain.taki.bot import WEIGHTS, features
from domain.taki.state import TakiState

NAMES = list(WEIGHTS)


def positions(seed: int) -> list[tuple[list[int], int]]:
    """One game of `greedy` against itself: each position as the first seat's features less the
    second's, with whether the first seat won; none if no seat won alone."""
    seen: list[list[int]] = []

    def watch(state: TakiState) -> None:
        first, second = features(state, 0), features(state, 1)
        seen.append([first[name] - second[name] for name in NAMES])

    winner, _ = play(TAKI, ["greedy", "greedy"], seed, watch)
    return [] if winner is None else [(difference, int(winner == 0)) for difference in seen]


def dataset(pool: ProcessPoolExecutor, seeds: range) -> tuple[np.ndarray, np.ndarray]:
    rows = [row for game in pool.map(positions, seeds, chunksize=50) for row in game]
    return np.array([x for x, _ in rows], dtype=float), np.array([y for _, y in rows], dtype=float)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 25) -> np.ndarray:
    """Logistic regression without intercept (the seats are symmetric), by Newton's method."""
    weights = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ weights))
        gradient = x.T @ (y - p) - ridge * weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(weights))
        weights = weights + np.linalg.solve(hessian, gradient)
    return weights


def log_loss(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ weights)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=cpu_count() or 1)
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        x, y = dataset(pool, range(args.seed, args.seed + args.games))
        held_x, held_y = dataset(pool, range(args.seed + args.games, args.seed + 2 * args.games))
    fitted, in_use = fit(x, y), np.array([WEIGHTS[name] for name in NAMES])
    print(f"taki evaluation: fitted on {args.games} games ({len(y):,} positions), "
          f"checked on {args.games} more ({len(held_y):,}), {time.perf_counter() - started:.0f} s")
    print(f"  {'feature':>14} {'fitted':>7} {'in use':>7}")
    for name, new, old in zip(NAMES, fitted, in_use, strict=True):
        print(f"  {name:>14} {new:+7.3f} {old:+7.2f}")
    print(f"  log loss on the games held out: fitted {log_loss(held_x, held_y, fitted):.4f}, "
          f"in use {log_loss(held_x, held_y, in_use):.4f}, coin toss {math.log(2):.4f}")


if __name__ == "__main__":
    main()
