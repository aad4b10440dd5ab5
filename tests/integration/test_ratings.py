"""Done when: rated games between the AI levels of each game, created through the API of a real
`meeple serve` and played by its workers, leave a leaderboard that orders the levels as their
measured win rates do; ratings rebuilt from the stored games equal the live ones exactly; and the
keeper made to count every game again changes nothing. Fewer games than bench.ratings plays (a
few hundred of each take over half an hour on two busy cores; docs/ratings.md has its figures):
these take two to four minutes and still tell the levels apart."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bench.ratings import SETUPS, measure, rebuilt_unchanged, recounted_unchanged
from bench.server import Server

pytestmark = pytest.mark.http
GAMES = {"taki": 30, "bahama_taxi": 30, "djambi": 9}  # Djambi's three-seat games, search at its own budget, cost the most
MARGIN = 0.3  # win rates this far apart order the levels' ratings (fewer games leave closer ones undecided)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    os.environ["MEEPLE_SWEEP_SECONDS"] = "1"
    try:
        with Server() as started:
            yield started
    finally:
        del os.environ["MEEPLE_SWEEP_SECONDS"]


def test_the_leaderboard_orders_the_levels_as_their_win_rates_and_a_rebuild_or_a_recount_changes_nothing(server: Server) -> None:
    for game, count in GAMES.items():
        measured = measure(server, game, count, at_once=16)
        stronger = [level for level in SETUPS[game][0] if level != "random"]
        # random wins less than the best level (in Djambi greedy may win no game alone, search winning most)
        assert max(measured.win_rate(level) for level in stronger) > measured.win_rate("random"), measured
        assert all(measured.ratings[level] > measured.ratings["random"] for level in stronger), measured  # rated so
        assert measured.agrees(MARGIN), measured  # and any two levels whose win rates differ widely
        assert set(measured.ratings) == set(SETUPS[game][0])
    assert rebuilt_unchanged(server)
    assert recounted_unchanged(server)
