"""The pawns (§7.1, §11.8, §11.12): which cab a turn moves and which acts now, where a pawn may drive, arrests."""

from __future__ import annotations

from enum import Enum

from domain.bahama_taxi.board import Area
from domain.bahama_taxi.events import PawnTurnStarted, SmugglerArrested
from domain.bahama_taxi.evolve import evolve
from domain.bahama_taxi.options import TwoPawnMode
from domain.bahama_taxi.state import Phase, TaxiState
from domain.core.game import Seat

# Bahama Contraband: the smuggler carries goods like a cab; the police carries nothing and arrests
# the opposing smuggler by driving onto it
SMUGGLER, POLICE = 0, 1
THREES = (("3H", "3D"), ("3S", "3C"))  # seat 0 red, seat 1 black: the default police area first


def police_areas(seat: Seat) -> tuple[Area, Area]:
    """§11.12: the two 3s on which a seat places its police and its smuggler."""
    return THREES[seat]


def pawn_turns(state: TaxiState, seat: Seat) -> tuple[int, ...]:
    """§11.8, §11.12: the pawns a seat's turn moves, in order (alternating, the arrested smuggler first)."""
    if len(state.pawns[seat]) == 1:
        return (0,)
    if state.two_pawn_mode is TwoPawnMode.BOTH:
        return (0, 1)
    if state.arrested(seat):
        return (SMUGGLER,)
    return (state.alternation[seat] if state.alternation else 0,)


def can_switch(state: TaxiState) -> bool:
    """§11.8: before its first movement a seat moving both cabs may send either (not with dice or an arrest)."""
    return (state.two_pawn_mode is TwoPawnMode.BOTH and not state.moved_this_turn and state.phase is Phase.START
            and not state.options.dice and not state.arrested(state.current))


def acting(state: TaxiState, pawn: int) -> TaxiState:
    """§11.8: the city as the named cab's pawn turn sees it: its turn, if it goes first instead."""
    return state if pawn == state.pawn else evolve(state, PawnTurnStarted(state.current, pawn))


def collector(state: TaxiState, citizen_id: str) -> TaxiState:
    """§11.2, §11.8: the city as the cab that would collect `citizen_id` sees it (the other cab may go first)."""
    found = state.citizen(citizen_id)
    if found is None or not can_switch(state):
        return state
    for pawn in (state.pawn, *state.pawns_to_go):
        area = state.cab(state.current, pawn).area
        if area is not None and found.waits_at(area, state.options.mirror_board):
            return acting(state, pawn)
    return state


def must_drive_off(state: TaxiState) -> bool:
    """§11.12: the arrested smuggler's pawn turn drives it off the police's area."""
    return state.pawn == SMUGGLER and state.arrested(state.current)


class Entry(Enum):
    OPEN = "open"
    ARREST = "arrest"
    CLOSED = "closed"


def entry(state: TaxiState, seat: Seat, pawn: int, to: Area) -> Entry:
    """§7.1, §11.12: an empty area is open; driving onto the opposing smuggler (or police) arrests."""
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
    """§11.12: the police and smuggler now sharing `area`; the goods' fares go to the police's seat."""
    (first_seat, first_pawn), (second_seat, _) = state.pawns_on(area)
    police_seat, smuggler_seat = (first_seat, second_seat) if first_pawn == POLICE else (second_seat, first_seat)
    goods = state.cab(smuggler_seat, SMUGGLER).riders
    reward = sum(state.person(c).fare or 0 for c in goods)
    return SmugglerArrested(police_seat, smuggler_seat, area, goods, reward)
