"""Standings: points by finishing place, byes, and the tiebreaks that order entrants with equal points."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.tournaments.pairing import Round

Places = tuple[tuple[str, ...], ...]  # a finished table's entrants by place, best first; those sharing a place tie


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's place in the standings: points, the tiebreaks, games played and byes."""

    entrant: str
    points: float
    buchholz: float  # the points of every opponent, summed over each table the entrant sat at
    firsts: int  # tables finished first (alone or tied)
    played: int
    byes: int


def place_points(places: Places) -> dict[str, float]:
    """Each entrant's points at a finished table: one for each entrant placed below, half for each tied with."""
    below = sum(map(len, places))
    points: dict[str, float] = {}
    for tied in places:
        below -= len(tied)
        points |= dict.fromkeys(tied, below + (len(tied) - 1) / 2)
    return points


def bye_points(seats: int) -> float:
    """What sitting a round out scores: half of first place's points at a full table."""
    return (seats - 1) / 2


def standings(entrants: Sequence[str], seats: int, rounds: Sequence[Round], results: Mapping[str, Places]) -> list[Standing]:
    """Every entrant, best first: by points, then Buchholz, then first places, then sign-up order (`entrants`' order).

    `results` holds each finished table's places by its game id; a table still playing counts nothing yet."""
    points: defaultdict[str, float] = defaultdict(float)
    firsts: Counter[str] = Counter()
    played: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    opponents: defaultdict[str, list[str]] = defaultdict(list)
    for each in rounds:
        for entrant in each.byes:
            points[entrant] += bye_points(seats)
            byes[entrant] += 1
        for table in each.tables:
            if (places := results.get(table.game_id)) is None:
                continue
            for entrant, scored in place_points(places).items():
                points[entrant] += scored
                played[entrant] += 1
                opponents[entrant] += [other for other in table.entrants if other != entrant]
            firsts.update(places[0])
    rows = [Standing(entrant, points[entrant], sum(points[other] for other in opponents[entrant]), firsts[entrant],
                     played[entrant], byes[entrant]) for entrant in entrants]
    order = {entrant: place for place, entrant in enumerate(entrants)}
    return sorted(rows, key=lambda row: (-row.points, -row.buchholz, -row.firsts, order[row.entrant]))
