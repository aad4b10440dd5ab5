"""The benchmarks run, briefly, and every request they make is answered as expected. Their
figures are printed for people (docs/performance.md), never asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.bots import wilson

ROOT = Path(__file__).parents[2]

pytestmark = pytest.mark.http


def run(*arguments: str) -> str:
    done = subprocess.run([sys.executable, "-m", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_http_benchmark_plays_real_games_with_no_unexpected_answer() -> None:
    printed = run("bench.api", "--seconds", "1", "--games", "1", "4", "--ask-games", "2")
    assert "commands/s" in printed and "at half the best rate" in printed
    paced = printed.split("at half the best rate")[1].splitlines()
    assert "API CPU ms" in paced[1] and "connections" in paced[1]
    for run_number in range(1, 6):  # each run: the API's CPU per command, then the share of a core
        # each of the two API processes spent and the players' connections each held, then the
        # same games paced at a quarter of the best rate
        row = next(line.split() for line in paced if line.split()[:1] == [str(run_number)])
        assert float(row[4]) > 0
        assert len(row[5].split("/")) == 2 and all(float(share) >= 0 for share in row[5].split("/"))
        assert len(row[6].split("/")) == 2 and all(held.isdigit() for held in row[6].split("/"))
        assert float(row[7]) > 0 and float(row[8]) > 0 and float(row[9]) > 0  # at a quarter: sent/s, p50, p99
    assert "¼ p99 ms" in paced[1] and "p99 at a quarter the best rate over 5 runs" in printed
    assert "×" not in printed  # an unexpected answer is printed as "count × status code"
    for game in ("taki", "djambi", "bahama_taxi"):
        assert f"{game} " in printed


def test_the_store_benchmark_prints_every_figure() -> None:
    printed = run("bench.store", "--seconds", "0.5", "--games", "1", "3", "--processes", "1", "--threads", "2")
    for figure in ("appends/XADD", "from store", "at version 5,000", "bytes per event", "3 games of every kind"):
        assert figure in printed


def test_the_reactor_benchmark_prints_every_figure() -> None:
    printed = run("bench.reactor", "--finished", "20", "--active", "5", "--probes", "3")
    assert "20 finished, 5 in play: a sweep takes" in printed and "over 3 moves" in printed


def test_the_bots_benchmark_prints_win_rates_and_times_per_move() -> None:
    printed = run("bench.bots", "--games", "2", "--pairing", "random:greedy", "--jobs", "1")
    for game in ("taki", "djambi", "bahama_taxi"):
        assert f"{game}: random vs greedy, 2 games" in printed
    assert printed.count("ms per move, slowest") == 6
    assert printed.count("95 % interval") == 6


def test_the_bots_benchmark_lets_the_search_think_within_a_budget_given() -> None:
    printed = run("bench.bots", "--games", "2", "--game", "taki", "--pairing", "greedy:search", "--iterations", "2", "--jobs", "1")
    assert "taki: greedy vs search, 2 games of 2 seats, searching within 2 iterations (" in printed
    assert printed.count("ms per move, slowest") == 2


def test_win_rates_come_with_wilsons_interval() -> None:
    assert wilson(107, 200) == pytest.approx((0.4659, 0.6028), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)  # never below 0 nor above 1
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_the_taki_evaluation_fit_prints_every_weight_and_its_log_loss() -> None:
    printed = run("bench.taki_evaluation", "--games", "20", "--jobs", "1")
    for name in ("cards", "king", "facing_plus2", "one_card"):
        assert f" {name} " in printed
    assert "log loss on the games held out: fitted" in printed


@pytest.mark.redis
def test_the_cluster_benchmark_prints_every_figure() -> None:
    printed = run("bench.cluster", "--seconds", "0.5", "--masters", "1", "--runs", "1", "--games", "10",
                  "--processes", "1", "--threads", "2")
    for figure in ("appends/s", "keys and writes per master", "through the cluster's client", "unconfirmed"):
        assert figure in printed


def test_the_profile_sums_a_commands_time_by_part() -> None:
    printed = run("bench.profile", "--games", "1", "--top", "3")
    for part in ("the rules (domain/)", "Flask and Werkzeug", "waiting on Redis", "all"):
        assert part in printed
    assert "the 3 functions with the most time of their own" in printed


def test_the_chat_benchmark_reads_full_pages_of_every_chat() -> None:
    printed = run("bench.chat", "--reads", "5", "--sizes", "10", "300")
    rows = [line.split() for line in printed.splitlines() if line.split()[:1] in (["10"], ["300"])]
    assert [(row[0], row[1]) for row in rows] == [("10", "first"), ("300", "first"), ("300", "middle"), ("300", "last")]
    assert all(row[-1] == "10" for row in rows)  # each page holds the 10 messages it asks for
