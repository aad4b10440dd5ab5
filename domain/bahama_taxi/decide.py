"""What a Bahama Taxi command does, once the rulebook (`rules.violation`) has passed it: the
events of the move, the pickups, the end of the turn and whatever follows (flow.py)."""

from __future__ import annotations

from typing import assert_never

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
from domain.bahama_taxi.contraband import POLICE, SMUGGLER, Entry, arrest, entry, police_areas
from domain.bahama_taxi.events import (
    EndReason,
    Event,
    MovementEnd,
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
)
from domain.bahama_taxi.flow import (
    Table,
    board,
    close_if_done,
    drop_off,
    end_movement,
    end_movement_if_stuck,
    end_phase,
    end_turn,
    finish,
    next_turn,
    skip_next_seat,
)
from domain.bahama_taxi.rules import collector, violation
from domain.bahama_taxi.state import PawnKind, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.rng import Rng


def decide(state: TaxiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or the RuleViolation `rules.violation` finds."""
    if (problem := violation(state, command)) is not None:
        raise problem
    table = Table(state, rng)
    _apply(table, command)
    return tuple(table.events)


def _apply(table: Table, command: Command) -> None:
    state = table.state
    match command:
        case Forfeit(seat):
            _forfeit(table, seat)
        case PlacePolice(seat, area):
            _place_police(table, seat, area)
        case Move(seat, to, pawn, pick_up):
            _switch(table, pawn)
            _move(table, to)
            if pick_up is not None:
                _batch(table, seat, pick_up)
        case Stay(seat, pawn):
            _switch(table, pawn)
            table.emit(PawnStayed(seat, pawn))
            end_phase(table)
        case Step(_, to, pawn, target):
            _step(table, to, target)
        case StopMoving():
            if state.die == 5:
                skip_next_seat(table)
            end_movement(table, MovementEnd.STOPPED)
        case CollectFromGod(_, citizen):
            _switch(table, collector(state, citizen).pawn)
            board(table, citizen, from_god=True)
        case PickUp(_, citizens):
            for citizen in citizens:
                board(table, citizen, from_god=False)
                if table.over:
                    return
            close_if_done(table)
        case DropOff(_, passenger):
            drop_off(table, passenger)
            close_if_done(table)
        case Reroute(seat, passenger, end, card):
            rider = state.person(passenger)
            old = rider.origin if (end is End.FROM) != rider.reverse else rider.destination
            assert old is not None
            table.emit(PassengerRerouted(seat, passenger, end, old, card))
            if state.phase is Phase.END:
                close_if_done(table)
        case Transfer(seat, from_pawn, to_pawn, passengers):
            table.emit(PassengersTransferred(seat, from_pawn, to_pawn, passengers))
        case EndTurn():
            end_turn(table)
        case Skip(seat):  # a deadline ends the seat's whole turn: a cab still to go is skipped too (§11.8)
            if state.phase is Phase.END:
                table.emit(TurnEnded(seat, state.pawn))
            else:
                table.emit(TurnSkipped(seat, state.pawn, SkipReason.TIMEOUT))
            for pawn in table.state.pawns_to_go:
                table.emit(PawnTurnStarted(seat, pawn))
                table.emit(TurnSkipped(seat, pawn, SkipReason.TIMEOUT))
            next_turn(table)
        case _:
            assert_never(command)


def _switch(table: Table, pawn: int) -> None:
    """A seat moving both cabs sends the other one first (§11.8)."""
    if pawn != table.state.pawn:
        table.emit(PawnTurnStarted(table.state.current, pawn))


def _move(table: Table, to: str) -> None:
    """§7.1; in Contraband a move onto the opposing pawn is an arrest (§11.12), and a smuggler
    that ran into the police ends its pawn turn there."""
    state = table.state
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    arrests = entry(state, state.current, state.pawn, to) is Entry.ARREST
    table.emit(PawnMoved(state.current, state.pawn, here, to))
    if arrests:
        table.emit(arrest(table.state, to))
        if state.pawn == SMUGGLER:
            end_turn(table)
            return
    end_phase(table)


def _batch(table: Table, seat: Seat, citizens: tuple[str, ...]) -> None:
    """The rest of `Move(..., pick_up=[…])`: each pickup, then the end of the turn, each as if
    sent on its own — the whole refused if any part is (§13.1)."""
    for citizen in citizens:
        if table.over:
            raise RuleViolation("game_over", "The game ended before this pickup.")
        if table.state.current != seat or table.state.phase is not Phase.END:
            raise RuleViolation("citizen_not_eligible", f"The turn had ended before {citizen} could be picked up.")
        _follow(table, PickUp(seat, (citizen,)))
    if not table.over and table.state.current == seat and table.state.phase is Phase.END:
        _follow(table, EndTurn(seat))


def _follow(table: Table, command: Command) -> None:
    if (problem := violation(table.state, command)) is not None:
        raise problem
    _apply(table, command)


def _step(table: Table, to: str, target: str | None) -> None:
    """§11.10: one step of the roll; a 5 skips the next seat after its one step; a 4 stops on
    its target."""
    state = table.state
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    table.emit(PawnStepped(state.current, state.pawn, here, to, target))
    if state.die == 5:
        skip_next_seat(table)
        end_movement(table, MovementEnd.DONE)
    elif table.state.steps_left == 0 or (state.die == 4 and to == table.state.targets[0]):
        end_movement(table, MovementEnd.DONE)
    else:
        end_movement_if_stuck(table)


def _place_police(table: Table, seat: Seat, area: str) -> None:
    """§11.12: the police on the chosen 3, the smuggler on the other; then the next seat places,
    or the first turn begins."""
    threes = police_areas(seat)
    other = threes[1] if area == threes[0] else threes[0]
    table.emit(PawnPlaced(seat, SMUGGLER, other, None, kind=PawnKind.SMUGGLER),
               PawnPlaced(seat, POLICE, area, None, kind=PawnKind.POLICE))
    if seat + 1 < table.state.seats:
        table.emit(PoliceToPlace(seat + 1))
    else:
        next_turn(table)


def _forfeit(table: Table, seat: Seat) -> None:
    """Meeple's rule for leaving (the rules have none): the cab leaves the board, its
    passengers' cards go to the discard pile, the seat plays no more and ranks after everyone
    still playing. With one seat left the game ends."""
    was_current = seat == table.state.current
    table.emit(PlayerForfeited(seat))
    if len(table.state.playing()) < 2:
        finish(table, EndReason.FORFEIT)
    elif was_current:
        next_turn(table)
