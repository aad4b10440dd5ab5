"""Pairing: the tables of a tournament's next round, round robin or Swiss, at tables of any size.

Entrants are named by opaque ids; everything here is a pure function of the rounds played."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

STARTS = 6  # the most arrangements a round's search starts from
PASSES = 12  # the most rounds of swaps a search makes from one arrangement
MET = 20  # what a pair that met before costs a round robin's round, besides the square of its meetings
ROBIN_MOST = 3  # a round robin of larger tables plays at most this many times the fewest rounds that could meet every pair
MATCHING = 200_000  # the most steps a two-seat Swiss spends looking for a pairing with no pair that met
REPEAT = 100_000  # what two entrants meeting again costs a Swiss round: more than any gap in scores could


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a round: its id, and its entrants by seat."""

    game_id: str
    entrants: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """A round's tables, and the entrants who sit it out (a bye)."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pairing:
    """The tables of a round to come (entrants by seat), and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def met(rounds: Sequence[Round]) -> Counter[frozenset[str]]:
    """How many tables each pair of entrants has shared."""
    return Counter(frozenset(pair) for played in rounds for table in played.tables
                   for pair in itertools.combinations(table.entrants, 2))


def byes_taken(rounds: Sequence[Round]) -> Counter[str]:
    """How many rounds each entrant has sat out."""
    return Counter(entrant for played in rounds for entrant in played.byes)


def round_robin_rounds(entrants: int, seats: int) -> int:
    """The rounds of a round robin: at two seats one per opponent (one more for a bye each when odd),
    at more as many as its pairing takes until every pair has met (played out ahead among stand-ins,
    as the pairing depends on the rounds alone), at most ROBIN_MOST times the fewest that could."""
    if seats == 2:
        return entrants if entrants % 2 else entrants - 1
    if entrants < seats:
        return 0
    field = [str(number) for number in range(entrants)]
    pairs = entrants * (entrants - 1) // 2
    fewest = math.ceil(pairs / (entrants // seats * seats * (seats - 1) // 2))
    rounds: list[Round] = []
    while len(met(rounds)) < pairs and len(rounds) < ROBIN_MOST * fewest:
        pairing = round_robin(field, field, seats, rounds)
        rounds.append(Round(tuple(Table("", table) for table in pairing.tables), pairing.byes))
    return len(rounds)


def round_robin(entrants: Sequence[str], active: Sequence[str], seats: int, rounds: Sequence[Round]) -> Pairing:
    """The next round of a round robin of `entrants` (in sign-up order) among those still `active`.

    Two seats: the circle method over every entrant, so each pair meets exactly once; a table
    whose other entrant withdrew is a bye. More seats: tables formed so that as many pairs as can
    meet for the first time, and then so that pairs who met least sit together (a pair that met
    costs MET and the square of its meetings), the byes going to those who had fewest, last in a
    rotation of sign-up order."""
    if seats == 2:
        return _circle(entrants, set(active), len(rounds))
    shift = len(rounds) % max(len(active), 1)
    order = [*active[shift:], *active[:shift]]
    shared = met(rounds)

    def cost(one: str, other: str) -> int:
        meetings = shared[frozenset((one, other))]
        return MET + meetings ** 2 if meetings else 0

    return _tables(order, seats, byes_taken(rounds), cost)


def swiss(standing: Sequence[str], points: Mapping[str, float], seats: int, rounds: Sequence[Round]) -> Pairing:
    """The next round of a Swiss among `standing` (the active entrants, best first): tables taken
    in standings order (score groups), then rearranged so that nobody meets an entrant again where
    that can be avoided, and then so that the points at each table lie as close as can be. At two
    seats the first arrangement is the first pairing in standings order with no pair that met, if
    one is found within MATCHING steps, so that no pair meets again where any pairing avoids it; at
    more seats the search does what it can. The byes go to those who had fewest, the lowest in the
    standings first."""
    shared = met(rounds)

    def cost(one: str, other: str) -> int:
        return REPEAT * shared[frozenset((one, other))] + round(2 * abs(points[one] - points[other]))

    def unrepeated(playing: list[str]) -> list[list[str]] | None:
        return _unrepeated(playing, shared) if seats == 2 else None

    return _tables(standing, seats, byes_taken(rounds), cost, unrepeated)


def seeded(order: Sequence[str], seats: int) -> Pairing:
    """A Swiss's first round from `order` (the entrants by strength, strongest first): the last in it sit
    out whatever fills no table, and the rest are cut into `seats` bands of one entrant a table, table i
    taking the i-th of each band, so that each table has one of the strongest, one of the next band, and so
    on down to one of the weakest; at two seats, the top half meets the bottom half (first against the
    first of the bottom half)."""
    sitting_out = _sitting_out(order, {}, len(order) % seats)
    playing = [entrant for entrant in order if entrant not in sitting_out]
    tables = len(playing) // seats
    return Pairing(tuple(tuple(playing[band * tables + index] for band in range(seats)) for index in range(tables)),
                   tuple(entrant for entrant in order if entrant in sitting_out))


def _unrepeated(playing: list[str], shared: Counter[frozenset[str]]) -> list[list[str]] | None:
    """Pairs of `playing`, none of whom met, the first left paired with the first free after it
    that it has not met (backtracking); None if there are none, or none found within MATCHING steps."""
    steps = 0

    def paired(left: list[str]) -> list[list[str]] | None:
        nonlocal steps
        if not left:
            return []
        first, rest = left[0], left[1:]
        for place, other in enumerate(rest):
            steps += 1
            if steps > MATCHING:
                return None
            if not shared[frozenset((first, other))] and (found := paired(rest[:place] + rest[place + 1:])) is not None:
                return [[first, other], *found]
        return None

    return paired(playing)


def _circle(entrants: Sequence[str], active: set[str], index: int) -> Pairing:
    """Round `index` (from 0) of the circle method: the first entrant stays, the others turn one place a round."""
    field: list[str | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)  # None: nobody, a bye
    rest = field[1:]
    shift = index % len(rest)
    turned = [field[0], *rest[len(rest) - shift:], *rest[:len(rest) - shift]]
    pairs = [(turned[i], turned[-1 - i]) for i in range(len(turned) // 2)]
    tables = tuple((one, other) for one, other in pairs if one in active and other in active)
    byes = tuple(entrant for pair in pairs for entrant in pair
                 if entrant in active and not all(each in active for each in pair))
    return Pairing(tuple((str(one), str(other)) for one, other in tables), tuple(str(each) for each in byes))


def _tables(order: Sequence[str], seats: int, byes: Mapping[str, int], cost: Callable[[str, str], int],
            first: Callable[[list[str]], list[list[str]] | None] = lambda playing: None) -> Pairing:
    """Whole tables of `order` (byes for the rest), rearranged by `cost` from `first` of those
    playing if it gives an arrangement, else from a few (_starts)."""
    sitting_out = _sitting_out(order, byes, len(order) % seats)
    playing = [entrant for entrant in order if entrant not in sitting_out]
    found = first(playing)
    starts = [found] if found is not None else [
        [playing[start:start + seats] for start in range(0, len(playing), seats)] for playing in _starts(playing, seats)]
    tried = [_rearranged(tables, cost) for tables in starts]
    tables = min(tried, key=lambda tables: sum(_cost(table, cost) for table in tables))  # the first of the cheapest
    return Pairing(tuple(tuple(table) for table in tables), tuple(entrant for entrant in order if entrant in sitting_out))


def _starts(playing: list[str], seats: int) -> list[list[str]]:
    """The arrangements a search starts from: `playing` in order, then dealt round the tables in
    turn, and so on by a step of one more each time (a few, so that a search stuck in one finds
    a cheaper way from another)."""
    tables = len(playing) // seats
    return [playing, *([playing[place] for offset in range(step) for place in range(offset, len(playing), step)]
                       for step in range(2, min(tables, STARTS) + 1))]


def _sitting_out(order: Sequence[str], byes: Mapping[str, int], count: int) -> set[str]:
    """The `count` entrants who sit the round out: fewest byes so far first, then the last in `order`."""
    last_first = sorted(reversed(range(len(order))), key=lambda place: byes.get(order[place], 0))
    return {order[place] for place in last_first[:count]}


def _rearranged(tables: list[list[str]], cost: Callable[[str, str], int]) -> list[list[str]]:
    """`tables`, entrants swapped between two while a swap lowers their cost (a pair's cost summed over
    each table), for at most PASSES passes over every swap."""
    for _ in range(PASSES):
        improved = False
        for one, other in itertools.combinations(tables, 2):
            for here, there in itertools.product(range(len(one)), range(len(other))):
                if _change(one, here, other[there], cost) + _change(other, there, one[here], cost) < 0:
                    one[here], other[there] = other[there], one[here]
                    improved = True
        if not improved:
            break
    return tables


def _change(table: list[str], place: int, coming: str, cost: Callable[[str, str], int]) -> int:
    """How the table's cost changes when `coming` takes the entrant at `place`."""
    going = table[place]
    return sum(cost(coming, each) - cost(going, each) for index, each in enumerate(table) if index != place)


def _cost(table: list[str], cost: Callable[[str, str], int]) -> int:
    return sum(cost(one, other) for one, other in itertools.combinations(table, 2))
