"""Pairing: a round robin meets every pair (exactly once at two seats, evenly at more), a Swiss
keeps score groups together and repeats no pair a better arrangement avoids, and byes go round."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest

from domain.tournaments.pairing import (
    Pairing,
    Round,
    Table,
    byes_taken,
    met,
    round_robin,
    round_robin_rounds,
    seeded,
    swiss,
)
from domain.tournaments.standings import Places, place_points, standings


def played(pairing: Pairing, number: int) -> Round:
    return Round(tuple(Table(f"r{number}t{index}", table) for index, table in enumerate(pairing.tables)), pairing.byes)


def robin(entrants: Sequence[str], seats: int) -> list[Round]:
    rounds: list[Round] = []
    for number in range(round_robin_rounds(len(entrants), seats)):
        rounds.append(played(round_robin(entrants, entrants, seats, rounds), number))
    return rounds


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 11])
def test_a_two_seat_round_robin_meets_every_pair_exactly_once_with_at_most_one_bye_each(count: int) -> None:
    entrants = [f"e{number}" for number in range(count)]
    rounds = robin(entrants, 2)
    assert met(rounds) == {frozenset(pair): 1 for pair in itertools.combinations(entrants, 2)}
    assert set(byes_taken(rounds).values()) <= {1} and len(byes_taken(rounds)) == (count if count % 2 else 0)
    assert all(len({e for table in each.tables for e in table.entrants} | set(each.byes)) == count for each in rounds)


def test_a_two_seat_round_robin_gives_a_bye_where_the_opponent_withdrew() -> None:
    entrants = ["a", "b", "c", "d"]
    pairing = round_robin(entrants, ["a", "b", "c"], 2, [])
    assert pairing == Pairing((("b", "c"),), ("a",))  # a would have met d


@pytest.mark.parametrize(("count", "seats"), [(6, 3), (7, 3), (8, 4), (9, 3), (10, 3), (12, 4), (13, 4), (16, 4), (20, 5), (23, 6)])
def test_a_round_robin_of_larger_tables_meets_every_pair_and_spreads_the_byes(count: int, seats: int) -> None:
    entrants = [f"e{number}" for number in range(count)]
    rounds = robin(entrants, seats)
    assert set(met(rounds)) == {frozenset(pair) for pair in itertools.combinations(entrants, 2)}
    assert len(rounds) <= 3 * -(-count * (count - 1) // (count // seats * seats * (seats - 1)))  # at most thrice the fewest
    assert max(byes_taken(rounds).values(), default=0) - min(byes_taken(rounds).values(), default=0) <= 1
    assert robin(entrants, seats) == rounds  # its rounds depend on nothing but the rounds before


def test_a_round_robin_of_larger_tables_plans_the_rounds_its_pairing_takes_to_meet_every_pair() -> None:
    assert (round_robin_rounds(6, 3), round_robin_rounds(8, 4), round_robin_rounds(9, 3)) == (4, 3, 4)
    assert round_robin_rounds(3, 4) == 0


def test_each_round_of_an_eight_entrant_round_robin_at_four_seats_is_the_cheapest_there_is() -> None:
    entrants = [f"e{number}" for number in range(8)]
    rounds: list[Round] = []
    for number in range(round_robin_rounds(8, 4)):
        shared = met(rounds)
        pairing = round_robin(entrants, entrants, 4, rounds)
        assert cost(pairing.tables, rounds) == min(cost(tables, rounds) for tables in arrangements(entrants, 4))
        rounds.append(played(pairing, number))
        assert shared != met(rounds)


def arrangements(entrants: list[str], seats: int) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every way to seat `entrants` at whole tables (the first entrant's table first)."""
    for order in itertools.permutations(entrants[1:]):
        seated = [entrants[0], *order]
        yield tuple(tuple(seated[start:start + seats]) for start in range(0, len(seated), seats))


def cost(tables: Sequence[Sequence[str]], rounds: list[Round]) -> int:
    """The round robin's measure of a round: for each pair at a table that met before, 20 and the square of its meetings."""
    shared = met(rounds)
    return sum(20 + shared[frozenset(pair)] ** 2 for table in tables for pair in itertools.combinations(table, 2)
               if shared[frozenset(pair)])


def fewest_repeats(entrants: list[str], seats: int, rounds: list[Round]) -> int:
    """The fewest repeated pairs any arrangement of `entrants` at whole tables could have."""
    shared = met(rounds)
    return min(sum(shared[frozenset(pair)] for table in tables for pair in itertools.combinations(table, 2))
               for tables in arrangements(entrants, seats))


def swiss_rounds(count: int, seats: int, played_rounds: int, seed: int) -> Iterator[tuple[Pairing, list[Round]]]:
    """Each round of a Swiss of `count` entrants with places drawn at random, and the rounds before it."""
    chance = random.Random(seed)
    entrants = [f"e{number}" for number in range(count)]
    rounds: list[Round] = []
    results: dict[str, Places] = {}
    for number in range(played_rounds):
        rows = standings(entrants, seats, rounds, results)
        pairing = swiss([row.entrant for row in rows], {row.entrant: row.points for row in rows}, seats, rounds)
        yield pairing, list(rounds)
        rounds.append(played(pairing, number))
        for table in rounds[-1].tables:
            order = list(table.entrants)
            chance.shuffle(order)
            results[table.game_id] = tuple((entrant,) for entrant in order)


@pytest.mark.parametrize("seed", range(12))
def test_a_swiss_of_four_seat_tables_repeats_no_pair_a_better_arrangement_avoids(seed: int) -> None:
    entrants = [f"e{number}" for number in range(8)]
    for number, (pairing, rounds) in enumerate(swiss_rounds(8, 4, 3, seed)):
        shared = met(rounds)
        repeats = sum(shared[frozenset(pair)] for table in pairing.tables for pair in itertools.combinations(table, 2))
        if number == 0:
            assert pairing.tables == (tuple(entrants[:4]), tuple(entrants[4:]))
        else:
            assert repeats == fewest_repeats(entrants, 4, rounds)


def pairings(entrants: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair `entrants` (an even number of them)."""
    if not entrants:
        yield []
        return
    for place in range(1, len(entrants)):
        for rest in pairings(entrants[1:place] + entrants[place + 1:]):
            yield [(entrants[0], entrants[place]), *rest]


@pytest.mark.parametrize("seed", [55, *range(6)])
def test_a_two_seat_swiss_repeats_no_pair_where_any_pairing_avoids_it(seed: int) -> None:
    entrants = [f"e{number}" for number in range(12)]
    for number, (pairing, rounds) in enumerate(swiss_rounds(12, 2, 11, seed)):
        shared = met(rounds)
        if any(not any(shared[frozenset(pair)] for pair in each) for each in pairings(entrants)):
            assert not any(shared[frozenset(table)] for table in pairing.tables), number


def test_a_swiss_seats_score_groups_together_when_no_one_met() -> None:
    entrants = [f"e{number}" for number in range(8)]
    points = {"e0": 3, "e1": 0, "e2": 3, "e3": 0, "e4": 3, "e5": 0, "e6": 3, "e7": 0}
    pairing = swiss(entrants, points, 4, [])  # not in standings order: the points alone group them
    assert {frozenset(table) for table in pairing.tables} == {frozenset({"e0", "e2", "e4", "e6"}), frozenset({"e1", "e3", "e5", "e7"})}


def test_a_swiss_gives_byes_to_the_lowest_who_had_none() -> None:
    entrants = [f"e{number}" for number in range(6)]
    first = swiss(entrants, dict.fromkeys(entrants, 0.0), 4, [])
    assert first.byes == ("e4", "e5")
    second = swiss(entrants, dict.fromkeys(entrants, 0.0), 4, [played(first, 0)])
    assert set(second.byes) == {"e2", "e3"}


def test_a_swiss_s_first_round_at_two_seats_meets_the_top_half_with_the_bottom_half() -> None:
    seeds = [f"s{number}" for number in range(1, 10)]  # strongest first
    assert seeded(seeds, 2) == Pairing((("s1", "s5"), ("s2", "s6"), ("s3", "s7"), ("s4", "s8")), ("s9",))


def test_a_swiss_s_first_round_at_more_seats_deals_one_entrant_of_each_band_to_each_table() -> None:
    seeds = [f"s{number}" for number in range(1, 15)]
    pairing = seeded(seeds, 4)
    assert pairing == Pairing((("s1", "s4", "s7", "s10"), ("s2", "s5", "s8", "s11"), ("s3", "s6", "s9", "s12")),
                              ("s13", "s14"))
    strength = {entrant: place for place, entrant in enumerate(seeds)}
    assert all(sorted(strength[each] // 3 for each in table) == [0, 1, 2, 3] for table in pairing.tables)


def test_points_go_by_place_and_ties_share_them() -> None:
    assert place_points((("a",), ("b",), ("c",), ("d",))) == {"a": 3, "b": 2, "c": 1, "d": 0}
    assert place_points((("a", "b"), ("c",), ("d",))) == {"a": 2.5, "b": 2.5, "c": 1, "d": 0}
    assert place_points((("a",), ("b", "c", "d"))) == {"a": 3, "b": 1, "c": 1, "d": 1}
