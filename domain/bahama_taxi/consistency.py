"""What an imported log may hold but the rules never write: a missing area, pawn or citizen, another result (§9)."""

from __future__ import annotations

from domain.bahama_taxi.board import AREAS
from domain.bahama_taxi.decide import TaxiRecorder, finish
from domain.bahama_taxi.events import (
    CitizenAppeared,
    DestinationDrawn,
    DropOffChoice,
    Event,
    GameEnded,
    PassengerBoardedAtSetup,
    PassengerDroppedOff,
    PassengerPickedUp,
    PassengerRerouted,
    PassengersTransferred,
    PawnMoved,
    PawnPlaced,
    PawnStepped,
    SmugglerArrested,
)
from domain.bahama_taxi.state import TaxiState
from domain.core.game import places
from domain.core.rng import ScriptedRng

KNOWN_AREAS = frozenset(AREAS)


def inconsistency(state: TaxiState, event: Event) -> str | None:
    """What in `event` the rules would not have written after `state`, or None."""
    if missing := next(((seat, pawn) for seat, pawn in _pawns(event) if not 0 <= pawn < len(state.pawns[seat])), None):
        return f"seat {missing[0]} has no pawn {missing[1]}"
    if unknown := next((area for area in _areas(event) if area not in KNOWN_AREAS), None):
        return f"there is no area {unknown}"
    match event:
        case CitizenAppeared(citizen) | PassengerBoardedAtSetup(citizen=citizen) if citizen != f"c{len(state.citizens) + 1}":
            return f"the next citizen is c{len(state.citizens) + 1}, not {citizen}"
        case GameEnded(incomes, ranking, reason):
            recorder = TaxiRecorder(state, ScriptedRng())  # the result draws on no chance
            finish(recorder, reason)
            if recorder.events != [event]:
                return f"the rules end this game with incomes {list(state.income)} and places " \
                       f"{places(recorder.state.result.ranking if recorder.state.result else ())}, not {list(incomes)} and {places(ranking)}"
    if unknown := next((citizen for citizen in _citizens(event) if state.citizen(citizen) is None), None):
        return f"there is no citizen {unknown}"
    return None


def _pawns(event: Event) -> tuple[tuple[int, int], ...]:
    match event:
        case PawnMoved(seat, pawn) | PawnStepped(seat, pawn) | PassengerDroppedOff(seat, pawn) | PassengerPickedUp(seat, pawn) \
                | DropOffChoice(seat, pawn):
            return ((seat, pawn),)
        case PassengersTransferred(seat, from_pawn, to_pawn):
            return (seat, from_pawn), (seat, to_pawn)
    return ()


def _areas(event: Event) -> tuple[str, ...]:
    match event:
        case PawnMoved(origin=origin, to=to) | PawnStepped(origin=origin, to=to):
            return origin, to
        case PawnPlaced(area=area) | PassengerDroppedOff(area=area) | PassengerPickedUp(area=area) | SmugglerArrested(area=area):
            return (area,)
    return ()


def _citizens(event: Event) -> tuple[str, ...]:
    match event:
        case PassengerDroppedOff(citizen=citizen) | PassengerPickedUp(citizen=citizen) | DestinationDrawn(citizen, _) \
                | PassengerRerouted(passenger=citizen):
            return (citizen,)
        case PassengersTransferred(passengers=passengers) | DropOffChoice(candidates=passengers):
            return passengers
    return ()
