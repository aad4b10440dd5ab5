"""Bahama Contraband (§11.12): two seats, each with a smuggler (pawn 0), which carries
contraband like a cab, and a police (pawn 1), which carries nothing but arrests the opposing
smuggler by driving onto it. Seat 0 is red (3H, 3D), seat 1 black (3S, 3C); each places its
police on one of its 3s and its smuggler on the other."""

from __future__ import annotations

from enum import Enum

from domain.bahama_taxi.board import Area
from domain.bahama_taxi.events import SmugglerArrested
from domain.bahama_taxi.state import TaxiState
from domain.core.game import Seat

SMUGGLER, POLICE = 0, 1
THREES = (("3H", "3D"), ("3S", "3C"))  # red, black: the default police area first


class Entry(Enum):
    OPEN = "open"
    ARREST = "arrest"
    CLOSED = "closed"


def entry(state: TaxiState, seat: Seat, pawn: int, to: Area) -> Entry:
    """Whether a pawn may drive onto `to` (§7.1, §11.12): an empty area is open; a police may
    drive onto the opposing smuggler and a smuggler onto the opposing police (with
    `smuggler_runs_into_police`), both an arrest; every other occupied area is closed."""
    there = state.pawns_on(to)
    if not there:
        return Entry.OPEN
    if len(there) > 1 or not state.options.contraband:
        return Entry.CLOSED
    other_seat, other_pawn = there[0]
    if other_seat == seat:
        return Entry.CLOSED
    if pawn == POLICE and other_pawn == SMUGGLER:
        return Entry.ARREST
    if pawn == SMUGGLER and other_pawn == POLICE and state.options.smuggler_runs_into_police:
        return Entry.ARREST
    return Entry.CLOSED


def arrest(state: TaxiState, area: Area) -> SmugglerArrested:
    """The police and smuggler now sharing `area`: the smuggler's goods go, their fares paid to
    the police's seat."""
    (first_seat, first_pawn), (second_seat, _) = state.pawns_on(area)
    police_seat, smuggler_seat = (first_seat, second_seat) if first_pawn == POLICE else (second_seat, first_seat)
    goods = state.cab(smuggler_seat, SMUGGLER).riders
    reward = sum(state.person(c).fare or 0 for c in goods)
    return SmugglerArrested(police_seat, smuggler_seat, area, goods, reward)


def police_areas(seat: Seat) -> tuple[Area, Area]:
    return THREES[seat]
