"""Standings: points by place and byes, ordered by points, Buchholz, first places, then sign-up order."""

from __future__ import annotations

from domain.tournaments.pairing import Round, Table
from domain.tournaments.standings import Standing, bye_points, standings


def test_standings_order_by_points_then_buchholz_then_firsts_then_sign_up() -> None:
    rounds = [Round((Table("g1", ("a", "b")), Table("g2", ("c", "d"))), ("e",)),
              Round((Table("g3", ("a", "c")), Table("g4", ("e", "b"))), ("d",))]
    results = {"g1": (("a",), ("b",)), "g2": (("c", "d"),), "g3": (("c",), ("a",)), "g4": (("e",), ("b",))}
    rows = standings(["a", "b", "c", "d", "e"], 2, rounds, results)
    assert rows == [
        Standing("c", 1.5, 2.0, 2, 2, 0),  # met d (1) and a (1); a tie for first counts as a first
        Standing("e", 1.5, 0.0, 1, 1, 1),  # a bye's half point; met b, who has none
        Standing("a", 1.0, 1.5, 1, 2, 0),  # level with d on every tiebreak: signed up first
        Standing("d", 1.0, 1.5, 1, 1, 1),
        Standing("b", 0.0, 2.5, 0, 2, 0),
    ]


def test_a_table_still_playing_counts_nothing_yet_and_equal_rows_keep_sign_up_order() -> None:
    rounds = [Round((Table("g1", ("a", "b", "c", "d")),))]
    assert [row.entrant for row in standings(["d", "c", "b", "a"], 4, rounds, {})] == ["d", "c", "b", "a"]
    assert bye_points(4) == 1.5
