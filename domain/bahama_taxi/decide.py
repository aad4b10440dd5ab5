"""The events a legal Bahama Taxi command causes, and the course of the turn it sets going (§6–§9, §11.10)."""

from __future__ import annotations

from typing import assert_never

from domain.bahama_taxi.board import DISTANCE, Area
from domain.bahama_taxi.commands import (
    CollectFromGod,
    Command,
    DropOff,
    End,
    EndTurn,
    Forfeit,
    Move,
    PickUp,
    PlacePolice,
    Reroute,
    Skip,
    Stay,
    Step,
    StopMoving,
    Transfer,
)
from domain.bahama_taxi.events import (
    DestinationDrawn,
    DieRolled,
    DropOffChoice,
    EndReason,
    Event,
    GameEnded,
    MovementEnd,
    MovementEnded,
    PassengerDroppedOff,
    PassengerPickedUp,
    PassengerRerouted,
    PassengersTransferred,
    PawnMoved,
    PawnPlaced,
    PawnStayed,
    PawnStepped,
    PawnTurnStarted,
    PlayerForfeited,
    PoliceToPlace,
    SkipReason,
    TurnEnded,
    TurnSkipped,
    TurnSkipPending,
    TurnStarted,
)
from domain.bahama_taxi.evolve import evolve
from domain.bahama_taxi.options import CancelledPassenger, DoubleDropoff, Movement
from domain.bahama_taxi.passengers import arrived, new_citizen, payout
from domain.bahama_taxi.pawns import (
    POLICE,
    SMUGGLER,
    Entry,
    arrest,
    collector,
    entry,
    must_drive_off,
    pawn_turns,
    police_areas,
)
from domain.bahama_taxi.rules import can_drive, can_reroute, can_step, must_keep_moving, pickups, violation
from domain.bahama_taxi.state import PawnKind, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng


def decide(state: TaxiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or the RuleViolation `rules.violation` finds."""
    if (problem := violation(state, command)) is not None:
        raise problem
    recorder = TaxiRecorder(state, rng)
    _apply(recorder, command)
    return tuple(recorder.events)


class TaxiRecorder(Recorder[TaxiState, Event]):
    """The city while a command is decided, with the chance it may draw on (dice)."""

    def __init__(self, state: TaxiState, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng

    @property
    def over(self) -> bool:
        return self.state.result is not None


def _apply(recorder: TaxiRecorder, command: Command) -> None:  # noqa: C901 - one case per command
    state = recorder.state
    match command:
        case Forfeit(seat):
            _forfeit(recorder, seat)
        case PlacePolice(seat, area):
            _place_police(recorder, seat, area)
        case Move(seat, to, pawn, pick_up):
            _switch(recorder, pawn)
            _move(recorder, to)
            if pick_up is not None:
                _batch(recorder, seat, pick_up)
        case Stay(seat, pawn):
            _switch(recorder, pawn)
            recorder.emit(PawnStayed(seat, pawn))
            _open_end_phase(recorder)
        case Step(_, to, pawn, target):
            _step(recorder, to, target)
        case StopMoving():
            if state.die == 5:
                _skip_next_seat(recorder)
            _end_movement(recorder, MovementEnd.STOPPED)
        case CollectFromGod(_, citizen):
            _switch(recorder, collector(state, citizen).pawn)
            _board(recorder, citizen, from_god=True)
        case PickUp(_, citizens):
            for citizen in citizens:
                _board(recorder, citizen, from_god=False)
                if recorder.over:
                    return
            _close_if_done(recorder)
        case DropOff(_, passenger):
            _drop_off(recorder, passenger)
            _close_if_done(recorder)
        case Reroute(seat, passenger, end, card):
            rider = state.person(passenger)
            old = rider.origin if (end is End.FROM) != rider.reverse else rider.destination
            assert old is not None
            recorder.emit(PassengerRerouted(seat, passenger, end, old, card))
            if state.phase is Phase.END:
                _close_if_done(recorder)
        case Transfer(seat, from_pawn, to_pawn, passengers):
            recorder.emit(PassengersTransferred(seat, from_pawn, to_pawn, passengers))
        case EndTurn():
            _end_turn(recorder)
        case Skip(seat):  # a deadline ends the seat's whole turn: a cab still to go is skipped too (§11.8)
            if state.phase is Phase.END:
                recorder.emit(TurnEnded(seat, state.pawn))
            else:
                recorder.emit(TurnSkipped(seat, state.pawn, SkipReason.TIMEOUT))
            for pawn in recorder.state.pawns_to_go:
                recorder.emit(PawnTurnStarted(seat, pawn))
                recorder.emit(TurnSkipped(seat, pawn, SkipReason.TIMEOUT))
            next_turn(recorder)
        case _:
            assert_never(command)


# what a command does

def _switch(recorder: TaxiRecorder, pawn: int) -> None:
    """§11.8: a seat moving both cabs sends the other one first."""
    if pawn != recorder.state.pawn:
        recorder.emit(PawnTurnStarted(recorder.state.current, pawn))


def _move(recorder: TaxiRecorder, to: str) -> None:
    """§7.1; §11.12: a move onto the opposing pawn arrests, and ends a smuggler's pawn turn there."""
    state = recorder.state
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    arrests = entry(state, state.current, state.pawn, to) is Entry.ARREST
    recorder.emit(PawnMoved(state.current, state.pawn, here, to))
    if arrests:
        recorder.emit(arrest(recorder.state, to))
        if state.pawn == SMUGGLER:
            _end_turn(recorder)
            return
    _open_end_phase(recorder)


def _batch(recorder: TaxiRecorder, seat: Seat, citizens: tuple[str, ...]) -> None:
    """§13.1: the rest of `Move(..., pick_up=[…])`, each pickup then the end of the turn as if sent alone.

    Any part refused refuses the whole: the RuleViolation propagates out of `decide`."""
    for citizen in citizens:
        if recorder.over:
            raise RuleViolation("game_over", "The game ended before this pickup.")
        if recorder.state.current != seat or recorder.state.phase is not Phase.END:
            raise RuleViolation("citizen_not_eligible", f"The turn had ended before {citizen} could be picked up.")
        _follow(recorder, PickUp(seat, (citizen,)))
    if not recorder.over and recorder.state.current == seat and recorder.state.phase is Phase.END:
        _follow(recorder, EndTurn(seat))


def _follow(recorder: TaxiRecorder, command: Command) -> None:
    if (problem := violation(recorder.state, command)) is not None:
        raise problem
    _apply(recorder, command)


def _step(recorder: TaxiRecorder, to: str, target: str | None) -> None:
    """§11.10: one step of the roll; a 5 skips the next seat after its one step; a 4 stops on its target."""
    state = recorder.state
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    recorder.emit(PawnStepped(state.current, state.pawn, here, to, target))
    if state.die == 5:
        _skip_next_seat(recorder)
        _end_movement(recorder, MovementEnd.DONE)
    elif recorder.state.steps_left == 0 or (state.die == 4 and to == recorder.state.targets[0]):
        _end_movement(recorder, MovementEnd.DONE)
    else:
        _end_movement_if_stuck(recorder)


def _place_police(recorder: TaxiRecorder, seat: Seat, area: str) -> None:
    """§11.12: the police on the chosen 3, the smuggler on the other; then the next seat places, or play begins."""
    threes = police_areas(seat)
    other = threes[1] if area == threes[0] else threes[0]
    recorder.emit(PawnPlaced(seat, SMUGGLER, other, None, kind=PawnKind.SMUGGLER),
                  PawnPlaced(seat, POLICE, area, None, kind=PawnKind.POLICE))
    if seat + 1 < recorder.state.seats:
        recorder.emit(PoliceToPlace(seat + 1))
    else:
        next_turn(recorder)


def _forfeit(recorder: TaxiRecorder, seat: Seat) -> None:
    """Meeple's rule for leaving: the seat's cabs and passengers leave, it ranks last; one seat left ends the game."""
    was_current = seat == recorder.state.current
    recorder.emit(PlayerForfeited(seat))
    if len(recorder.state.playing()) < 2:
        finish(recorder, EndReason.FORFEIT)
    elif was_current:
        next_turn(recorder)


# §11.10: dice

def _roll(recorder: TaxiRecorder, seat: Seat) -> bool:
    """§11.10: the roll for the pawn turn that starts; False if it skips the turn (a 6, or a 4 with an empty cab)."""
    value = recorder.rng.randint(1, 6)
    cab = recorder.state.cab(seat, recorder.state.pawn)
    assert cab.area is not None
    targets: tuple[Area, ...] = ()
    if value == 4 and cab.riders:  # the target: the farthest destination aboard
        ends = {area for c in cab.riders if (area := recorder.state.person(c).to_area) is not None}
        farthest = max(DISTANCE[cab.area][end] for end in ends)
        targets = tuple(sorted(end for end in ends if DISTANCE[cab.area][end] == farthest))
    recorder.emit(DieRolled(seat, recorder.state.pawn, value, targets))
    if value == 6 or (value == 4 and not cab.riders):
        reason = SkipReason.DIE_SIX if value == 6 else SkipReason.EMPTY_CAB_ON_FOUR
        recorder.emit(TurnSkipped(seat, recorder.state.pawn, reason))
        return False
    _end_movement_if_stuck(recorder)
    return True


def _skip_next_seat(recorder: TaxiRecorder) -> None:
    """§11.10: a 5 skips the next seat's turn, once: skips do not stack."""
    following = _seat_after(recorder.state)
    if following not in recorder.state.skip_pending:
        recorder.emit(TurnSkipPending(following))


def _end_movement_if_stuck(recorder: TaxiRecorder) -> None:
    """§7.2, §11.10: under mandatory movement, or on a 4, the cab that can take no allowed step stops."""
    state = recorder.state
    if must_keep_moving(state) and not can_step(state):
        _end_movement(recorder, MovementEnd.BLOCKED)


def _end_movement(recorder: TaxiRecorder, reason: MovementEnd) -> None:
    state = recorder.state
    recorder.emit(MovementEnded(state.current, state.pawn, reason))
    _open_end_phase(recorder)


# §8.2 - §8.4: drop-offs, pickups, replenishment

def _open_end_phase(recorder: TaxiRecorder) -> None:
    """§8.2: once the cab has moved, passengers bound here get out and pay (§11.7: one the seat chooses)."""
    state = recorder.state
    cab = state.cab(state.current, state.pawn)
    bound = [rider for rider in cab.riders if arrived(state.person(rider), cab.area)]
    if len(bound) > 1 and state.options.double_dropoff is DoubleDropoff.SEPARATELY:
        recorder.emit(DropOffChoice(state.current, state.pawn, tuple(bound)))
        return
    for rider in bound:
        _drop_off(recorder, rider)
    _close_if_done(recorder)


def _drop_off(recorder: TaxiRecorder, rider: str) -> None:
    state = recorder.state
    area = state.cab(state.current, state.pawn).area
    assert area is not None
    recorder.emit(PassengerDroppedOff(state.current, state.pawn, rider, area, payout(state, state.person(rider))))


def _close_if_done(recorder: TaxiRecorder) -> None:
    """§6: the end phase closes by itself once no pickup and no reroute is left to choose."""
    state = recorder.state
    if not recorder.over and not state.dropoff_choice and not pickups(state) and not can_reroute(state):
        _end_turn(recorder)


def _board(recorder: TaxiRecorder, citizen_id: str, from_god: bool) -> None:
    """§8.3, §8.4, §9: one pickup, its replenishment, and the end of the game when the street is empty."""
    state = recorder.state
    cab = state.cab(state.current, state.pawn)
    assert cab.area is not None
    recorder.emit(PassengerPickedUp(state.current, state.pawn, citizen_id, cab.area, from_god))
    if recorder.state.person(citizen_id).destination is None:  # §11.9: now we learn where it goes
        recorder.emit(DestinationDrawn(citizen_id, recorder.state.draw_pile[0]))
    instant = state.options.cancelled_passenger is not CancelledPassenger.TWO_POINT_ROUND_TRIP
    if recorder.state.person(citizen_id).cancelled and instant:  # §11.7: it gets out at once
        _drop_off(recorder, citizen_id)
    if not recorder.state.supply_exhausted:
        recorder.emit(new_citizen(recorder.state))
    if not recorder.state.waiting:
        finish(recorder, EndReason.NO_CITIZENS_WAITING)


# §3, §6, §9: the turn passes; the end of the game

def _end_turn(recorder: TaxiRecorder) -> None:
    """§6: the pawn turn ends; the seat's other cab plays next, or the next seat."""
    recorder.emit(TurnEnded(recorder.state.current, recorder.state.pawn))
    next_turn(recorder)


def next_turn(recorder: TaxiRecorder) -> None:
    """§3, §6: the seat's next pawn turn or the next seat's turn, past skips; `max_rounds` ends the game (§9)."""
    while True:
        state = recorder.state
        if state.pawns_to_go and state.turn_no:
            recorder.emit(PawnTurnStarted(state.current, state.pawns_to_go[0]))
        else:
            first = state.turn_no == 0
            following = state.playing()[0] if first else _seat_after(state)
            round_no = state.round_no
            if first or following <= state.current:
                if state.options.max_rounds and round_no >= state.options.max_rounds:
                    finish(recorder, EndReason.ROUND_LIMIT)
                    return
                round_no += 1
            recorder.emit(TurnStarted(following, state.turn_no + 1, round_no, pawn_turns(state, following)))
            if following in recorder.state.skip_pending:  # §11.10: a 5 skipped this seat
                recorder.emit(TurnSkipped(following, recorder.state.pawn, SkipReason.SKIPPED_BY_FIVE))
                continue
        if _pawn_turn_goes_on(recorder):
            return


def _pawn_turn_goes_on(recorder: TaxiRecorder) -> bool:
    """§7.3, §11.10: whether the pawn turn that starts is played, not skipped as blocked or by the roll."""
    state = recorder.state
    seat, pawn = state.current, state.pawn
    if not can_drive(state) and (state.options.movement is Movement.MANDATORY or must_drive_off(state)):
        if state.options.dice:
            recorder.emit(DieRolled(seat, pawn, recorder.rng.randint(1, 6)))  # rolled, then found blocked
        recorder.emit(TurnSkipped(seat, pawn, SkipReason.BLOCKED))
        return False
    return not state.options.dice or _roll(recorder, seat)


def _seat_after(state: TaxiState) -> Seat:
    playing = state.playing()
    return next((seat for seat in playing if seat > state.current), playing[0])


def finish(recorder: TaxiRecorder, reason: EndReason) -> None:
    """§9: score = income; equal incomes share a place; seats that forfeited rank last."""
    state = recorder.state
    playing = state.playing()
    places: list[tuple[Seat, ...]] = []
    for income in sorted({state.income[seat] for seat in playing}, reverse=True):
        places.append(tuple(seat for seat in playing if state.income[seat] == income))
    places += [(seat,) for seat in reversed(state.forfeited)]
    recorder.emit(GameEnded(state.income, tuple(places), reason))
