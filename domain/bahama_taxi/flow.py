"""How a Bahama Taxi turn runs (§6): the end phase with its drop-offs (§8.2), each pickup and
its replenishment (§8.3, §8.4), the end of the game (§9), the next pawn turn or seat with the
skips of §7.3 and the dice of §11.10. `decide` calls into this flow once the rules passed a command."""

from __future__ import annotations

from domain.bahama_taxi.board import DISTANCE, Area
from domain.bahama_taxi.contraband import SMUGGLER
from domain.bahama_taxi.events import (
    CitizenAppeared,
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
    PawnTurnStarted,
    SkipReason,
    TurnEnded,
    TurnSkipped,
    TurnSkipPending,
    TurnStarted,
)
from domain.bahama_taxi.evolve import evolve
from domain.bahama_taxi.options import CancelledPassenger, DoubleDropoff, Movement, TwoPawnMode
from domain.bahama_taxi.rules import can_drive, can_reroute, can_step, must_drive_off, must_keep_moving, pickups
from domain.bahama_taxi.state import Citizen, TaxiState
from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng


class Table(Recorder[TaxiState, Event]):
    """The city while a command is decided, with the chance it may draw on (dice)."""

    def __init__(self, state: TaxiState, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng

    @property
    def over(self) -> bool:
        return self.state.result is not None


# §11.10: dice

def roll(table: Table, seat: Seat) -> bool:
    """Roll for the pawn turn that starts; False if the roll skips it (a 6, or a 4 with an
    empty cab). On a 4 the target is the farthest destination aboard."""
    value = table.rng.randint(1, 6)
    cab = table.state.cab(seat, table.state.pawn)
    assert cab.area is not None
    targets: tuple[Area, ...] = ()
    if value == 4 and cab.riders:
        ends = {area for c in cab.riders if (area := table.state.person(c).to_area) is not None}
        farthest = max(DISTANCE[cab.area][end] for end in ends)
        targets = tuple(sorted(end for end in ends if DISTANCE[cab.area][end] == farthest))
    table.emit(DieRolled(seat, table.state.pawn, value, targets))
    if value == 6 or (value == 4 and not cab.riders):
        reason = SkipReason.DIE_SIX if value == 6 else SkipReason.EMPTY_CAB_ON_FOUR
        table.emit(TurnSkipped(seat, table.state.pawn, reason))
        return False
    end_movement_if_stuck(table)
    return True


def skip_next_seat(table: Table) -> None:
    """A 5 skips the next seat's turn, once: skips do not stack."""
    following = seat_after(table.state)
    if following not in table.state.skip_pending:
        table.emit(TurnSkipPending(following))


def end_movement_if_stuck(table: Table) -> None:
    """Under mandatory movement, or on a 4, the cab that can take no allowed step stops."""
    state = table.state
    if must_keep_moving(state) and not can_step(state):
        end_movement(table, MovementEnd.BLOCKED)


def end_movement(table: Table, reason: MovementEnd) -> None:
    state = table.state
    table.emit(MovementEnded(state.current, state.pawn, reason))
    end_phase(table)


# §8.2: drop-off, then the end phase

def end_phase(table: Table) -> None:
    """Every passenger bound for the cab's area gets out and pays (automatic, §8.2) — one of
    them, of the seat's choosing, under `double_dropoff = separately` (§11.7); then the seat may
    pick up, and the phase closes by itself when nothing is left to choose (§6)."""
    state = table.state
    cab = state.cab(state.current, state.pawn)
    bound = [rider for rider in cab.riders if arrived(state.person(rider), cab.area)]
    if len(bound) > 1 and state.options.double_dropoff is DoubleDropoff.SEPARATELY:
        table.emit(DropOffChoice(state.current, state.pawn, tuple(bound)))
        return
    for rider in bound:
        drop_off(table, rider)
    close_if_done(table)


def arrived(citizen: Citizen, area: Area | None) -> bool:
    """Bound for `area`; a cancelled passenger on a round trip only once it has been away."""
    return citizen.to_area == area and (citizen.left_pickup_area or not citizen.cancelled)


def payout(state: TaxiState, citizen: Citizen) -> int:
    """The fare (§2.4); a cancelled passenger pays what `cancelled_passenger` says (§11.7)."""
    if citizen.cancelled:
        return {CancelledPassenger.ONE_POINT_INSTANT: 1, CancelledPassenger.ZERO_POINT_INSTANT: 0,
                CancelledPassenger.TWO_POINT_ROUND_TRIP: 2}[state.options.cancelled_passenger]
    assert citizen.fare is not None
    return citizen.fare


def drop_off(table: Table, rider: str) -> None:
    state = table.state
    area = state.cab(state.current, state.pawn).area
    assert area is not None
    table.emit(PassengerDroppedOff(state.current, state.pawn, rider, area, payout(state, state.person(rider))))


def close_if_done(table: Table) -> None:
    """The end phase closes by itself once no pickup and no reroute is left to choose (§6)."""
    state = table.state
    if not table.over and not state.dropoff_choice and not pickups(state) and not can_reroute(state):
        end_turn(table)


# §8.3, §8.4: a pickup and its replenishment

def board(table: Table, citizen_id: str, from_god: bool) -> None:
    """One pickup the rules allowed, its replenishment (§8.4), and the end of the game when the
    street is empty (§9). A cancelled passenger in an instant mode gets out at once (§11.7)."""
    state = table.state
    cab = state.cab(state.current, state.pawn)
    assert cab.area is not None
    table.emit(PassengerPickedUp(state.current, state.pawn, citizen_id, cab.area, from_god))
    if table.state.person(citizen_id).destination is None:  # §11.9: now we learn where it goes
        table.emit(DestinationDrawn(citizen_id, table.state.draw_pile[0]))
    instant = state.options.cancelled_passenger is not CancelledPassenger.TWO_POINT_ROUND_TRIP
    if table.state.person(citizen_id).cancelled and instant:
        drop_off(table, citizen_id)
    _replenish(table)
    if not table.state.waiting:
        finish(table, EndReason.NO_CITIZENS_WAITING)


def _replenish(table: Table) -> None:
    state = table.state
    if not state.supply_exhausted:
        table.emit(new_citizen(state))


def new_citizen(state: TaxiState) -> CitizenAppeared:
    """The next citizen from the pile: origin first, then destination — or, with unknown
    destinations, its origin alone (§4, §8.4, §11.9)."""
    number, pile = len(state.citizens) + 1, state.draw_pile
    return CitizenAppeared(f"c{number}", pile[0], None if state.options.unknown_destination else pile[1])


# §6, §9: the turn passes; the end of the game

def end_turn(table: Table) -> None:
    """The pawn turn ends; the seat's other cab plays next, or the next seat."""
    table.emit(TurnEnded(table.state.current, table.state.pawn))
    next_turn(table)


def next_turn(table: Table) -> None:
    """The seat's next pawn turn, or the next playing seat's turn (§3, §6); a seat a 5 skipped
    loses its turn, a cab hemmed in under mandatory movement or rolling a 6 its pawn turn (§7.3,
    §11.10); the stall guard ends the game after `max_rounds` rounds (§9)."""
    while True:
        state = table.state
        if state.pawns_to_go and state.turn_no:
            table.emit(PawnTurnStarted(state.current, state.pawns_to_go[0]))
        else:
            first = state.turn_no == 0
            following = state.playing()[0] if first else seat_after(state)
            round_no = state.round_no
            if first or following <= state.current:
                if state.options.max_rounds and round_no >= state.options.max_rounds:
                    finish(table, EndReason.ROUND_LIMIT)
                    return
                round_no += 1
            table.emit(TurnStarted(following, state.turn_no + 1, round_no, _pawn_turns(state, following)))
            if following in table.state.skip_pending:
                table.emit(TurnSkipped(following, table.state.pawn, SkipReason.SKIPPED_BY_FIVE))
                continue
        if _pawn_turn_goes_on(table):
            return


def _pawn_turns(state: TaxiState, seat: Seat) -> tuple[int, ...]:
    """The pawns a seat's turn moves, in order (§11.8): its one cab; both cabs; or, alternating,
    the one whose turn it is — in Contraband the arrested smuggler first (§11.12)."""
    if len(state.pawns[seat]) == 1:
        return (0,)
    if state.two_pawn_mode is TwoPawnMode.BOTH:
        return (0, 1)
    if state.arrested(seat):
        return (SMUGGLER,)
    return (state.alternation[seat] if state.alternation else 0,)


def _pawn_turn_goes_on(table: Table) -> bool:
    """Whether the pawn turn that starts is played: a cab that cannot move under mandatory
    movement (§7.3), a 6 or a 4 with an empty cab (§11.10) skip it."""
    state = table.state
    seat, pawn = state.current, state.pawn
    if not can_drive(state) and (state.options.movement is Movement.MANDATORY or must_drive_off(state)):
        if state.options.dice:
            table.emit(DieRolled(seat, pawn, table.rng.randint(1, 6)))  # rolled, then found blocked
        table.emit(TurnSkipped(seat, pawn, SkipReason.BLOCKED))
        return False
    return not state.options.dice or roll(table, seat)


def seat_after(state: TaxiState) -> Seat:
    playing = state.playing()
    return next((seat for seat in playing if seat > state.current), playing[0])


def finish(table: Table, reason: EndReason) -> None:
    """Score = income; equal incomes share a place; seats that forfeited rank last (§9)."""
    state = table.state
    playing = state.playing()
    places: list[tuple[Seat, ...]] = []
    for income in sorted({state.income[seat] for seat in playing}, reverse=True):
        places.append(tuple(seat for seat in playing if state.income[seat] == income))
    places += [(seat,) for seat in reversed(state.forfeited)]
    table.emit(GameEnded(state.income, tuple(places), reason))
