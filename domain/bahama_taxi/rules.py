"""The Bahama Taxi rulebook: the turn (§6), movement (§7), drop-offs, pickups, replenishment
and the final-phase limits (§8), the end of the game (§9), and the variants that act during
play: passengers from God (§11.2), mandatory pickup (§11.3), dice (§11.10), the four-card hand
(§11.11). The mirror board (§11.4) and unknown destinations (§11.9) live in `state.py`.

`decide` is the one place that applies the rules; `legal_commands` lists what it accepts."""

from __future__ import annotations

from typing import assert_never

from domain.bahama_taxi.board import DISTANCE, NEIGHBOURS, Area, adjacent
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
    CitizenAppeared,
    DestinationDrawn,
    DieRolled,
    DropOffChoice,
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
from domain.bahama_taxi.options import CancelledPassenger, DoubleDropoff, DoublePickup, Movement
from domain.bahama_taxi.state import CAPACITY, Citizen, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng


def _no(reason: str, message: str) -> RuleViolation:
    return RuleViolation(reason, message)


class Table(Recorder[TaxiState, Event]):
    """The city while a command is decided, with the chance it may draw on (dice)."""

    def __init__(self, state: TaxiState, rng: Rng) -> None:
        super().__init__(state, evolve)
        self.rng = rng

    @property
    def over(self) -> bool:
        return self.state.result is not None


def decide(state: TaxiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or RuleViolation."""
    if state.result is not None:
        raise _no("game_over", "The game is over.")
    table = Table(state, rng)
    if isinstance(command, Forfeit):
        forfeit(table, command.seat)
        return tuple(table.events)
    if command.seat != state.current:
        raise _no("not_your_turn", f"It is seat {state.current}'s turn.")
    match command:
        case PlacePolice(_, area):
            _place_police(table, area)
        case Move(_, to, pawn, pick_up):
            _move(table, pawn, to)
            if pick_up is not None:
                _batch(table, command.seat, pick_up)
        case Stay(_, pawn):
            _stay(table, pawn)
        case Step(_, to, pawn, target):
            _step(table, pawn, to, target)
        case StopMoving():
            _stop_moving(table)
        case CollectFromGod(_, citizen):
            _collect_from_god(table, citizen)
        case Reroute(_, passenger, end, card):
            _reroute(table, passenger, end, card)
        case Transfer():
            _transfer(table, command)
        case PickUp(_, citizens):
            _pick_up(table, citizens)
        case DropOff(_, passenger):
            _drop_off_chosen(table, passenger)
        case EndTurn():
            _close_end_phase(table)
        case Skip():
            if state.phase is Phase.END:
                _end_turn(table)
            else:
                table.emit(TurnSkipped(state.current, state.pawn, SkipReason.TIMEOUT))
                next_turn(table)
        case _:
            assert_never(command)
    return tuple(table.events)


# §7: movement

def open_neighbours(state: TaxiState, seat: Seat, pawn: int) -> list[Area]:
    """The adjacent areas a pawn may drive onto: free ones (§7.1), and in Contraband the
    opposing pawn it arrests (§11.12)."""
    area = state.cab(seat, pawn).area
    assert area is not None
    return [neighbour for neighbour in NEIGHBOURS[area] if entry(state, seat, pawn, neighbour) is not Entry.CLOSED]


def _require_phase(state: TaxiState, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        when = "before the cab moves" if phase is Phase.START else "after the cab has moved"
        raise _no("wrong_phase", f"{what} only {when}.")


def _require_pawn(table: Table, pawn: int) -> None:
    """The command's cab must be the one whose pawn turn it is — or, when a seat moves both
    cabs, the other one, which then goes first (§11.8)."""
    state = table.state
    if pawn == state.pawn:
        return
    if state.arrested(state.current) and state.pawn == SMUGGLER:
        raise _no("must_move_arrested_smuggler", "The arrested smuggler moves first, off its area (§11.12).")
    if not can_switch(state) or pawn not in state.pawns_to_go:
        raise _no("wrong_pawn", f"It is cab {state.pawn}'s pawn turn.")
    table.emit(PawnTurnStarted(state.current, pawn))


def can_switch(state: TaxiState) -> bool:
    """Before its first movement, a seat moving both cabs may still send either first; with
    dice the roll already belongs to the first cab, and an arrested smuggler goes first."""
    return (state.two_pawn_mode == "both" and not state.moved_this_turn and state.phase is Phase.START
            and not state.options.dice and not state.arrested(state.current))


def _move(table: Table, pawn: int, to: str) -> None:
    _require_phase(table.state, Phase.START, "A cab moves")
    _no_dice(table.state)
    _require_pawn(table, pawn)
    state = table.state
    _no_collection_pending(state)
    here = _check_step(state, to)
    arrests = entry(state, state.current, pawn, to) is Entry.ARREST
    table.emit(PawnMoved(state.current, pawn, here, to))
    if arrests:
        table.emit(arrest(table.state, to))
        if pawn == SMUGGLER:  # it ran into the police: its pawn turn ends there (§11.12)
            _end_turn(table)
            return
    _end_phase(table)


def _batch(table: Table, seat: Seat, citizens: tuple[str, ...]) -> None:
    """The rest of `Move(..., pick_up=[…])`: each pickup, then the end of the turn (§13.1)."""
    for citizen in citizens:
        if table.over:
            raise _no("game_over", "The game ended before this pickup.")
        if table.state.current != seat or table.state.phase is not Phase.END:
            raise _no("citizen_not_eligible", f"The turn had ended before {citizen} could be picked up.")
        _pick_up(table, (citizen,))
    if not table.over and table.state.current == seat and table.state.phase is Phase.END:
        _close_end_phase(table)


def _check_step(state: TaxiState, to: str) -> Area:
    """The acting cab's area, once `to` is checked to be a free area next to it (§7.1)."""
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    if to not in NEIGHBOURS or not adjacent(here, to):
        raise _no("not_adjacent", f"{to} is not an area next to {here}; the cab moves one area (§7.1).")
    if entry(state, state.current, state.pawn, to) is Entry.CLOSED:
        raise _no("area_occupied", f"Another pawn stands on {to} (§7.1).")
    return here


def _no_dice(state: TaxiState) -> None:
    if state.options.dice:
        raise _no("wrong_phase", "With dice a cab moves by `step` (§11.10).")


def _stay(table: Table, pawn: int) -> None:
    _require_phase(table.state, Phase.START, "A cab stays")
    _no_dice(table.state)
    _require_pawn(table, pawn)
    state = table.state
    if state.arrested(state.current) and state.pawn == SMUGGLER:
        raise _no("must_move_arrested_smuggler", "The arrested smuggler must drive off this area (§11.12).")
    if state.options.movement is Movement.MANDATORY:
        raise _no("stay_not_allowed", "Every cab must move one area each turn (movement = mandatory, §7.2).")
    _no_collection_pending(state)
    table.emit(PawnStayed(state.current, pawn))
    _end_phase(table)


# §11.10: dice

def roll(table: Table, seat: Seat) -> bool:
    """Roll for the pawn turn that starts; False if the roll skips it (a 6, or a 4 with an
    empty cab). On a 4 the target is the farthest destination aboard."""
    value = table.rng.randint(1, 6)
    cab = table.state.cab(seat, table.state.pawn)
    assert cab.area is not None
    targets: tuple[Area, ...] = ()
    if value == 4 and cab.riders:
        ends = {area for c in cab.riders if (area := table.state.citizens[c].to_area) is not None}
        farthest = max(DISTANCE[cab.area][end] for end in ends)
        targets = tuple(sorted(end for end in ends if DISTANCE[cab.area][end] == farthest))
    table.emit(DieRolled(seat, table.state.pawn, value, targets))
    if value == 6 or (value == 4 and not cab.riders):
        reason = SkipReason.DIE_SIX if value == 6 else SkipReason.EMPTY_CAB_ON_FOUR
        table.emit(TurnSkipped(seat, table.state.pawn, reason))
        return False
    _end_movement_if_stuck(table)
    return True


def legal_steps(state: TaxiState) -> list[Step]:
    """The steps the roll allows now: to a free neighbour, on a 4 one nearer the target."""
    if not state.options.dice or state.phase not in (Phase.START, Phase.MOVE) or state.steps_left <= 0:
        return []
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    steps = []
    for to in open_neighbours(state, state.current, state.pawn):
        if state.die != 4:
            steps.append(Step(state.current, to, state.pawn))
            continue
        for target in state.targets:
            if DISTANCE[to][target] == DISTANCE[here][target] - 1:
                steps.append(Step(state.current, to, state.pawn, target if len(state.targets) > 1 else None))
    return steps


def _step(table: Table, pawn: int, to: str, target: str | None) -> None:
    state = table.state
    if not state.options.dice:
        raise _no("variant_not_enabled", "This game is played without dice (§11.10).")
    if state.phase not in (Phase.START, Phase.MOVE):
        raise _no("wrong_phase", "The cab has finished moving.")
    _require_pawn(table, pawn)
    _no_collection_pending(state)
    if state.steps_left <= 0:
        raise _no("no_steps_left", "The roll allows no more steps.")
    here = _check_step(state, to)
    if state.die == 4:
        if len(state.targets) > 1 and target not in state.targets:
            raise _no("not_farthest_target", f"Name the target: one of {', '.join(state.targets)} (§11.10).")
        if len(state.targets) == 1 and target not in (None, state.targets[0]):
            raise _no("not_farthest_target", f"The target of this 4 is {state.targets[0]} (§11.10).")
        aim = target or state.targets[0]
        if DISTANCE[to][aim] != DISTANCE[here][aim] - 1:
            raise _no("not_toward_target", f"On a 4 every step brings the cab one area nearer {aim} (§11.10).")
    table.emit(PawnStepped(state.current, pawn, here, to, target if len(state.targets) > 1 else None))
    if state.die == 5:
        _skip_next_seat(table)
        _stop(table, MovementEnd.DONE)
    elif table.state.steps_left == 0 or (state.die == 4 and to == table.state.targets[0]):
        _stop(table, MovementEnd.DONE)
    else:
        _end_movement_if_stuck(table)


def _stop_moving(table: Table) -> None:
    state = table.state
    if not state.options.dice:
        raise _no("variant_not_enabled", "This game is played without dice (§11.10).")
    if state.phase not in (Phase.START, Phase.MOVE):
        raise _no("wrong_phase", "The cab has finished moving.")
    if state.options.movement is Movement.MANDATORY or state.die == 4:
        raise _no("must_keep_moving", "The cab must take every step of the roll (§11.10).")
    _no_collection_pending(state)
    if state.die == 5:
        _skip_next_seat(table)
    _stop(table, MovementEnd.STOPPED)


def _skip_next_seat(table: Table) -> None:
    """A 5 skips the next seat's turn, once: skips do not stack."""
    following = _seat_after(table.state)
    if following not in table.state.skip_pending:
        table.emit(TurnSkipPending(following))


def _end_movement_if_stuck(table: Table) -> None:
    """Under mandatory movement, or on a 4, the cab that can take no allowed step stops."""
    state = table.state
    compulsory = state.options.movement is Movement.MANDATORY or state.die == 4
    if compulsory and not legal_steps(state):
        _stop(table, MovementEnd.BLOCKED)


def _stop(table: Table, reason: MovementEnd) -> None:
    state = table.state
    table.emit(MovementEnded(state.current, state.pawn, reason))
    _end_phase(table)


# §8.2: drop-off, then the end phase

def _end_phase(table: Table) -> None:
    """Every passenger bound for the cab's area gets out and pays (automatic, §8.2) — one of
    them, of the seat's choosing, under `double_dropoff = separately` (§11.7); then the seat may
    pick up, and the phase closes by itself when nothing is left to choose (§6)."""
    state = table.state
    cab = state.cab(state.current, state.pawn)
    bound = [rider for rider in cab.riders if _arrived(state.citizens[rider], cab.area)]
    if len(bound) > 1 and state.options.double_dropoff is DoubleDropoff.SEPARATELY:
        table.emit(DropOffChoice(state.current, state.pawn, tuple(bound)))
        return
    for rider in bound:
        _drop_off(table, rider)
    _close_if_done(table)


def _arrived(citizen: Citizen, area: Area | None) -> bool:
    """Bound for `area`; a cancelled passenger on a round trip only once it has been away."""
    return citizen.to_area == area and (citizen.left_pickup_area or not citizen.cancelled)


def payout(state: TaxiState, citizen: Citizen) -> int:
    """The fare (§2.4); a cancelled passenger pays what `cancelled_passenger` says (§11.7)."""
    if citizen.cancelled:
        return {CancelledPassenger.ONE_POINT_INSTANT: 1, CancelledPassenger.ZERO_POINT_INSTANT: 0,
                CancelledPassenger.TWO_POINT_ROUND_TRIP: 2}[state.options.cancelled_passenger]
    assert citizen.fare is not None
    return citizen.fare


def _drop_off(table: Table, rider: str) -> None:
    state = table.state
    area = state.cab(state.current, state.pawn).area
    assert area is not None
    table.emit(PassengerDroppedOff(state.current, state.pawn, rider, area, payout(state, state.citizens[rider])))


def _drop_off_chosen(table: Table, passenger: str) -> None:
    if passenger not in table.state.dropoff_choice:
        raise _no("not_your_passenger", f"{passenger} is not one of the passengers bound here: "
                                        f"{', '.join(table.state.dropoff_choice) or 'none'}.")
    _drop_off(table, passenger)
    _close_if_done(table)


def _no_dropoff_pending(state: TaxiState) -> None:
    if state.dropoff_choice:
        raise _no("dropoff_choice_pending", f"Choose the passenger who gets out: {', '.join(state.dropoff_choice)} (§11.7).")


def _close_if_done(table: Table) -> None:
    """The end phase closes by itself once no pickup and no reroute is left to choose (§6)."""
    state = table.state
    if not table.over and not state.dropoff_choice and not legal_pickups(state) and not legal_reroutes(state):
        _end_turn(table)


# §8.3, §8.5: pickups and their limits

def pickup_violation(state: TaxiState, citizen_id: str, from_god: bool = False) -> RuleViolation | None:
    """Why the acting cab may not take `citizen_id` now, or None."""
    return _presence_violation(state, citizen_id, from_god) or _limit_violation(
        state, len(state.cab(state.current, state.pawn).riders))


def _presence_violation(state: TaxiState, citizen_id: str, from_god: bool) -> RuleViolation | None:
    """Whether `citizen_id` waits where the cab is and may board now (§8.3, §11.2)."""
    citizen = state.citizen(citizen_id)
    if citizen is None or citizen_id not in state.waiting:
        return _no("unknown_citizen", f"No citizen {citizen_id} is waiting.")
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or not citizen.waits_at(cab.area, state.options.mirror_board):
        return _no("citizen_not_here", f"{citizen_id} waits at {citizen.origin_area}, the cab is on {cab.area}.")
    if from_god and citizen.appeared_at <= cab.last_turn_end:
        return _no("citizen_not_eligible", f"{citizen_id} was already waiting when this cab's last turn ended (§11.2).")
    if not from_god and citizen.appeared_at > state.end_started:
        return _no("citizen_not_eligible", f"{citizen_id} appeared during this end phase (§8.3).")
    return None


def _together(state: TaxiState) -> list[str]:
    """Under `double_pickup = together`, the citizens that must board together here: all that
    may board in this end phase, when there are two or more and a cab may take a second
    passenger at all (§11.7); otherwise none."""
    if state.options.double_pickup is not DoublePickup.TOGETHER or state.pickup_limit() < 2:
        return []
    area = state.cab(state.current, state.pawn).area
    group = [c.id for c in state.waiting_at(area or "") if c.appeared_at <= state.end_started]
    return group if len(group) > 1 else []


def _limit_violation(state: TaxiState, aboard: int) -> RuleViolation | None:
    """§8.5: capacity 3; no third passenger once the pile has run out; no second once few wait."""
    limit = state.pickup_limit()
    if aboard >= CAPACITY:
        return _no("cab_is_full", "The cab carries three passengers already (§8.5).")
    if aboard + 1 > limit and limit == 2:
        return _no("third_passenger_forbidden", "The draw pile has run out: no cab may take a third passenger (§8.5).")
    if aboard + 1 > limit:
        return _no("second_passenger_forbidden",
                   f"{len(state.waiting)} citizens wait: no cab may take a second passenger (§8.5).")
    return None


def _board(table: Table, citizen_id: str, from_god: bool, limits_checked: bool = False) -> None:
    """One pickup, its replenishment (§8.4), and the end of the game when the street is empty
    (§9). A cancelled passenger in an instant mode gets out at once (§11.7)."""
    state = table.state
    problem = _presence_violation(state, citizen_id, from_god)
    if problem is None and not limits_checked:
        problem = _limit_violation(state, len(state.cab(state.current, state.pawn).riders))
    if problem is not None:
        raise problem
    cab = state.cab(state.current, state.pawn)
    assert cab.area is not None
    table.emit(PassengerPickedUp(state.current, state.pawn, citizen_id, cab.area, from_god))
    if table.state.citizens[citizen_id].destination is None:  # §11.9: now we learn where it goes
        table.emit(DestinationDrawn(citizen_id, table.state.draw_pile[0]))
    instant = state.options.cancelled_passenger is not CancelledPassenger.TWO_POINT_ROUND_TRIP
    if table.state.citizens[citizen_id].cancelled and instant:
        _drop_off(table, citizen_id)
    _replenish(table)
    if not table.state.waiting:
        _finish(table, "no_citizens_waiting")


def _replenish(table: Table) -> None:
    state = table.state
    if not state.supply_exhausted:
        table.emit(new_citizen(state))


def new_citizen(state: TaxiState) -> CitizenAppeared:
    """The next citizen from the pile: origin first, then destination — or, with unknown
    destinations, its origin alone (§4, §8.4, §11.9)."""
    number, pile = len(state.citizens) + 1, state.draw_pile
    return CitizenAppeared(f"c{number}", pile[0], None if state.options.unknown_destination else pile[1])


def _pick_up(table: Table, citizens: tuple[str, ...]) -> None:
    state = table.state
    _require_phase(state, Phase.END, "Citizens are picked up")
    _no_police(state)
    _no_dropoff_pending(state)
    if not citizens:
        raise _no("unknown_citizen", "Name the citizens to pick up.")
    group = _together(state)
    if group:
        for citizen in citizens:
            if (problem := _presence_violation(state, citizen, from_god=False)) is not None:
                raise problem
        aboard = len(state.cab(state.current, state.pawn).riders)
        if sorted(citizens) != sorted(group) or aboard + len(group) > state.pickup_limit():
            raise _no("pickup_both_required", f"{', '.join(group)} wait together: take them all, with room for all, "
                                              "or none (§11.7).")
    for citizen in citizens:
        _board(table, citizen, from_god=False, limits_checked=bool(group))
        if table.over:
            return
    _close_if_done(table)


def _close_end_phase(table: Table) -> None:
    state = table.state
    _require_phase(state, Phase.END, "The turn ends")
    _no_dropoff_pending(state)
    if state.options.mandatory_pickup and legal_pickups(state):
        raise _no("mandatory_pickup_pending", "A cab with room must take a citizen waiting where it stops (§11.3).")
    _end_turn(table)


def _no_police(state: TaxiState) -> None:
    if state.cab(state.current, state.pawn).kind == "police":
        raise _no("police_cannot_carry", "Police never carry contraband (§11.12).")


def legal_pickups(state: TaxiState) -> list[tuple[str, ...]]:
    """The citizens of each pickup the acting cab may make now."""
    if state.phase is not Phase.END or state.result is not None or state.dropoff_choice:
        return []
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or cab.kind == "police":
        return []
    if group := _together(state):
        return [tuple(group)] if len(cab.riders) + len(group) <= state.pickup_limit() else []
    return [(c.id,) for c in state.waiting_at(cab.area) if pickup_violation(state, c.id) is None]


# §11.2: passengers from God

def _collect_from_god(table: Table, citizen: str) -> None:
    state = table.state
    if not state.options.passengers_from_god:
        raise _no("variant_not_enabled", "Passengers from God are off in this game (§11.2).")
    _require_phase(state, Phase.START, "A passenger from God is collected")
    _no_police(state)
    found = state.citizen(citizen)
    for pawn in state.pawns_to_go if can_switch(state) and found else ():  # it waits under the other cab
        if found is not None and state.cab(state.current, pawn).area in (found.origin_area, found.destination_area):
            _require_pawn(table, pawn)
    _board(table, citizen, from_god=True)


# §11.12: Bahama Contraband's setup

def _place_police(table: Table, area: str) -> None:
    state = table.state
    if not state.options.contraband:
        raise _no("variant_not_enabled", "This is no game of Bahama Contraband (§11.12).")
    if state.phase is not Phase.PLACING:
        raise _no("wrong_phase", "The police are placed before the first turn.")
    threes = police_areas(state.current)
    if area not in threes:
        raise _no("not_your_start_area", f"Your police starts on {threes[0]} or {threes[1]} (§11.12).")
    other = threes[1] if area == threes[0] else threes[0]
    table.emit(PawnPlaced(state.current, SMUGGLER, other, None, kind="smuggler"),
               PawnPlaced(state.current, POLICE, area, None, kind="police"))
    if state.current + 1 < state.seats:
        table.emit(PoliceToPlace(state.current + 1))
    else:
        next_turn(table)


# §11.8: two cabs pass passengers

def _transfer(table: Table, command: Transfer) -> None:
    state = table.state
    if len(state.pawns[state.current]) < 2:
        raise _no("variant_not_enabled", "Seats drive one cab in this game (§11.8).")
    if not state.options.cab_transfer:
        raise _no("transfer_not_allowed", "Cabs may not pass passengers in this game (§11.8).")
    if state.phase is not Phase.START or state.moved_this_turn:
        raise _no("wrong_phase", "Passengers change cabs only at the start of the turn, before any move (§11.8).")
    if {command.from_pawn, command.to_pawn} != {0, 1}:
        raise _no("wrong_pawn", "Name one cab to give and the other to take.")
    giver, taker = state.cab(state.current, command.from_pawn), state.cab(state.current, command.to_pawn)
    if giver.area is None or taker.area is None or not adjacent(giver.area, taker.area):
        raise _no("transfer_not_adjacent", "The two cabs must stand on adjacent areas (§11.8).")
    if not command.passengers or len(set(command.passengers)) != len(command.passengers) or not set(command.passengers) <= set(giver.riders):
        raise _no("not_your_passenger", f"Cab {command.from_pawn} carries {', '.join(giver.riders) or 'nobody'}.")
    if len(taker.riders) + len(command.passengers) > CAPACITY:
        raise _no("transfer_over_capacity", f"Cab {command.to_pawn} would carry more than {CAPACITY} (§11.8).")
    table.emit(PassengersTransferred(state.current, command.from_pawn, command.to_pawn, command.passengers))


def legal_transfers(state: TaxiState) -> list[Transfer]:
    """One passenger at a time, either way."""
    if len(state.pawns[state.current]) < 2 or not state.options.cab_transfer or state.result is not None:
        return []
    if state.phase is not Phase.START or state.moved_this_turn:
        return []
    cabs = state.pawns[state.current]
    if cabs[0].area is None or cabs[1].area is None or not adjacent(cabs[0].area, cabs[1].area):
        return []
    return [Transfer(state.current, giver, 1 - giver, (rider,)) for giver in (0, 1) for rider in cabs[giver].riders
            if len(cabs[1 - giver].riders) < CAPACITY]


def legal_collections(state: TaxiState) -> list[Citizen]:
    if not state.options.passengers_from_god or state.phase is not Phase.START or state.result is not None:
        return []
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or cab.kind == "police":
        return []
    return [c for c in state.waiting_at(cab.area) if pickup_violation(state, c.id, from_god=True) is None]


def _no_collection_pending(state: TaxiState) -> None:
    if state.options.mandatory_pickup and legal_collections(state):
        raise _no("mandatory_pickup_pending", "A passenger from God waits under the cab: it must be collected (§11.3).")


# §11.11: the four-card hand

def _reroute(table: Table, passenger: str, end: End, card: str) -> None:
    state = table.state
    if not state.options.hand_size:
        raise _no("variant_not_enabled", "This game deals no hands (§11.11).")
    if passenger not in state.cab(state.current, state.pawn).riders:
        raise _no("not_your_passenger", f"{passenger} does not ride in the cab whose turn it is.")
    if card not in state.hands[state.current]:
        raise _no("card_not_in_hand", f"{card} is not in your hand.")
    rider = state.citizens[passenger]
    old = rider.origin if (end is End.FROM) != rider.reverse else rider.destination
    assert old is not None
    table.emit(PassengerRerouted(state.current, passenger, end.value, old, card))
    if table.state.phase is Phase.END and not table.state.dropoff_choice:
        _close_if_done(table)


def legal_reroutes(state: TaxiState) -> list[Reroute]:
    if not state.options.hand_size or state.result is not None or not state.hands[state.current]:
        return []
    riders = state.cab(state.current, state.pawn).riders
    return [Reroute(state.current, rider, end, card) for rider in riders for end in End for card in state.hands[state.current]]


# §6, §9: the turn passes; the end of the game

def _end_turn(table: Table) -> None:
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
            following = state.playing()[0] if first else _seat_after(state)
            round_no = state.round_no
            if first or following <= state.current:
                if state.options.max_rounds and round_no >= state.options.max_rounds:
                    _finish(table, "round_limit")
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
    if state.two_pawn_mode == "both":
        return (0, 1)
    if state.arrested(seat):
        return (SMUGGLER,)
    return (state.alternation[seat] if state.alternation else 0,)


def _pawn_turn_goes_on(table: Table) -> bool:
    """Whether the pawn turn that starts is played: a cab that cannot move under mandatory
    movement (§7.3), a 6 or a 4 with an empty cab (§11.10) skip it."""
    state = table.state
    seat, pawn = state.current, state.pawn
    area = state.cab(seat, pawn).area
    assert area is not None
    stuck = not open_neighbours(state, seat, pawn)
    if stuck and (state.options.movement is Movement.MANDATORY or (pawn == SMUGGLER and state.arrested(seat))):
        if state.options.dice:
            table.emit(DieRolled(seat, pawn, table.rng.randint(1, 6)))  # rolled, then found blocked
        table.emit(TurnSkipped(seat, pawn, SkipReason.BLOCKED))
        return False
    return not state.options.dice or roll(table, seat)


def _seat_after(state: TaxiState) -> Seat:
    playing = state.playing()
    return next((seat for seat in playing if seat > state.current), playing[0])


def _finish(table: Table, reason: str) -> None:
    """Score = income; equal incomes share a place; seats that forfeited rank last (§9)."""
    state = table.state
    playing = state.playing()
    places: list[tuple[Seat, ...]] = []
    for income in sorted({state.income[seat] for seat in playing}, reverse=True):
        places.append(tuple(seat for seat in playing if state.income[seat] == income))
    places += [(seat,) for seat in reversed(state.forfeited)]
    table.emit(GameEnded(state.income, tuple(places), reason))


def forfeit(table: Table, seat: Seat) -> None:
    """Meeple's rule for leaving (the rules have none): the cab leaves the board, its
    passengers' cards go to the discard pile, the seat plays no more and ranks after everyone
    still playing. With one seat left the game ends."""
    state = table.state
    if seat in state.forfeited:
        raise _no("not_in_game", "This seat has left the game.")
    table.emit(PlayerForfeited(seat))
    if len(table.state.playing()) < 2:
        _finish(table, "forfeit")
    elif seat == state.current:
        next_turn(table)


# what a seat may send now

def legal_commands(state: TaxiState, seat: Seat) -> tuple[Command, ...]:
    if state.result is not None or seat != state.current or seat in state.forfeited:
        return ()
    if state.phase is Phase.PLACING:
        return tuple(PlacePolice(seat, area) for area in police_areas(seat))
    reroutes: list[Command] = list(legal_reroutes(state))
    if state.dropoff_choice:
        return tuple([DropOff(seat, rider) for rider in state.dropoff_choice] + reroutes)
    if state.phase is Phase.END:
        pickups: list[Command] = [PickUp(seat, citizens) for citizens in legal_pickups(state)]
        if not (state.options.mandatory_pickup and pickups):
            pickups.append(EndTurn(seat))
        return tuple(pickups + reroutes)
    if state.options.dice:
        steps: list[Command] = [CollectFromGod(seat, c.id) for c in legal_collections(state)]
        if not (state.options.mandatory_pickup and steps):
            steps += legal_steps(state)
            if state.options.movement is Movement.OPTIONAL and state.die != 4:
                steps.append(StopMoving(seat))
        return tuple(steps + reroutes)
    moves: list[Command] = []
    switches = [evolve(state, PawnTurnStarted(seat, pawn)) for pawn in state.pawns_to_go] if can_switch(state) else []
    for each in (state, *switches):  # the cab whose turn it is, and the one that may go first instead
        collections = [CollectFromGod(seat, c.id) for c in legal_collections(each)]
        moves += collections
        if state.options.mandatory_pickup and collections:
            continue
        moves += [Move(seat, to, each.pawn) for to in open_neighbours(each, seat, each.pawn)]
        if state.options.movement is Movement.OPTIONAL and not (each.pawn == SMUGGLER and each.arrested(seat)):
            moves.append(Stay(seat, each.pawn))
    transfers: list[Command] = list(legal_transfers(state))
    return tuple(moves + reroutes + transfers)


def timeout_command(state: TaxiState, seat: Seat) -> Command:
    """A turn deadline under `skip`: the turn passes as it stands; a police not yet placed
    goes on its seat's first 3 (§11.12)."""
    if state.phase is Phase.PLACING:
        return PlacePolice(seat, police_areas(seat)[0])
    return Skip(seat)


def response_seconds(state: TaxiState) -> int | None:
    """Bahama Taxi sets no deadline of its own."""
    return None

