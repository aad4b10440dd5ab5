"""The Bahama Taxi rulebook: what each command may do and when (§6, §7, §8, §11, §13).
The turn's own course is `flow.py`; the questions of what is allowed now, `legality.py`; the
mirror board (§11.4) and unknown destinations (§11.9) live in `state.py`, Contraband's
arrests in `contraband.py`.

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
    TurnSkipped,
)
from domain.bahama_taxi.evolve import evolve
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
from domain.bahama_taxi.legality import (
    can_switch,
    legal_collections,
    legal_pickups,
    legal_reroutes,
    legal_steps,
    legal_transfers,
    open_neighbours,
    presence_violation,
    together,
)
from domain.bahama_taxi.options import Movement
from domain.bahama_taxi.state import CAPACITY, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.rng import Rng


def decide(state: TaxiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or RuleViolation."""
    if state.result is not None:
        raise RuleViolation("game_over", "The game is over.")
    table = Table(state, rng)
    if isinstance(command, Forfeit):
        forfeit(table, command.seat)
        return tuple(table.events)
    if command.seat != state.current:
        raise RuleViolation("not_your_turn", f"It is seat {state.current}'s turn.")
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
                end_turn(table)
            else:
                table.emit(TurnSkipped(state.current, state.pawn, SkipReason.TIMEOUT))
                next_turn(table)
        case _:
            assert_never(command)
    return tuple(table.events)


# §7: movement

def _require_phase(state: TaxiState, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        when = "before the cab moves" if phase is Phase.START else "after the cab has moved"
        raise RuleViolation("wrong_phase", f"{what} only {when}.")


def _require_pawn(table: Table, pawn: int) -> None:
    """The command's cab must be the one whose pawn turn it is — or, when a seat moves both
    cabs, the other one, which then goes first (§11.8)."""
    state = table.state
    if pawn == state.pawn:
        return
    if state.arrested(state.current) and state.pawn == SMUGGLER:
        raise RuleViolation("must_move_arrested_smuggler", "The arrested smuggler moves first, off its area (§11.12).")
    if not can_switch(state) or pawn not in state.pawns_to_go:
        raise RuleViolation("wrong_pawn", f"It is cab {state.pawn}'s pawn turn.")
    table.emit(PawnTurnStarted(state.current, pawn))


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
            end_turn(table)
            return
    end_phase(table)


def _batch(table: Table, seat: Seat, citizens: tuple[str, ...]) -> None:
    """The rest of `Move(..., pick_up=[…])`: each pickup, then the end of the turn (§13.1)."""
    for citizen in citizens:
        if table.over:
            raise RuleViolation("game_over", "The game ended before this pickup.")
        if table.state.current != seat or table.state.phase is not Phase.END:
            raise RuleViolation("citizen_not_eligible", f"The turn had ended before {citizen} could be picked up.")
        _pick_up(table, (citizen,))
    if not table.over and table.state.current == seat and table.state.phase is Phase.END:
        _close_end_phase(table)


def _check_step(state: TaxiState, to: str) -> Area:
    """The acting cab's area, once `to` is checked to be a free area next to it (§7.1)."""
    here = state.cab(state.current, state.pawn).area
    assert here is not None
    if to not in NEIGHBOURS or not adjacent(here, to):
        raise RuleViolation("not_adjacent", f"{to} is not an area next to {here}; the cab moves one area (§7.1).")
    if entry(state, state.current, state.pawn, to) is Entry.CLOSED:
        raise RuleViolation("area_occupied", f"Another pawn stands on {to} (§7.1).")
    return here


def _no_dice(state: TaxiState) -> None:
    if state.options.dice:
        raise RuleViolation("wrong_phase", "With dice a cab moves by `step` (§11.10).")


def _stay(table: Table, pawn: int) -> None:
    _require_phase(table.state, Phase.START, "A cab stays")
    _no_dice(table.state)
    _require_pawn(table, pawn)
    state = table.state
    if state.arrested(state.current) and state.pawn == SMUGGLER:
        raise RuleViolation("must_move_arrested_smuggler", "The arrested smuggler must drive off this area (§11.12).")
    if state.options.movement is Movement.MANDATORY:
        raise RuleViolation("stay_not_allowed", "Every cab must move one area each turn (movement = mandatory, §7.2).")
    _no_collection_pending(state)
    table.emit(PawnStayed(state.current, pawn))
    end_phase(table)


# §11.10: dice

def _step(table: Table, pawn: int, to: str, target: str | None) -> None:
    state = table.state
    if not state.options.dice:
        raise RuleViolation("variant_not_enabled", "This game is played without dice (§11.10).")
    if state.phase not in (Phase.START, Phase.MOVE):
        raise RuleViolation("wrong_phase", "The cab has finished moving.")
    _require_pawn(table, pawn)
    _no_collection_pending(state)
    if state.steps_left <= 0:
        raise RuleViolation("no_steps_left", "The roll allows no more steps.")
    here = _check_step(state, to)
    if state.die == 4:
        if len(state.targets) > 1 and target not in state.targets:
            raise RuleViolation("not_farthest_target", f"Name the target: one of {', '.join(state.targets)} (§11.10).")
        if len(state.targets) == 1 and target not in (None, state.targets[0]):
            raise RuleViolation("not_farthest_target", f"The target of this 4 is {state.targets[0]} (§11.10).")
        aim = target or state.targets[0]
        if DISTANCE[to][aim] != DISTANCE[here][aim] - 1:
            raise RuleViolation("not_toward_target", f"On a 4 every step brings the cab one area nearer {aim} (§11.10).")
    table.emit(PawnStepped(state.current, pawn, here, to, target if len(state.targets) > 1 else None))
    if state.die == 5:
        skip_next_seat(table)
        end_movement(table, MovementEnd.DONE)
    elif table.state.steps_left == 0 or (state.die == 4 and to == table.state.targets[0]):
        end_movement(table, MovementEnd.DONE)
    else:
        end_movement_if_stuck(table)


def _stop_moving(table: Table) -> None:
    state = table.state
    if not state.options.dice:
        raise RuleViolation("variant_not_enabled", "This game is played without dice (§11.10).")
    if state.phase not in (Phase.START, Phase.MOVE):
        raise RuleViolation("wrong_phase", "The cab has finished moving.")
    if state.options.movement is Movement.MANDATORY or state.die == 4:
        raise RuleViolation("must_keep_moving", "The cab must take every step of the roll (§11.10).")
    _no_collection_pending(state)
    if state.die == 5:
        skip_next_seat(table)
    end_movement(table, MovementEnd.STOPPED)


# §8.2, §8.3: the end phase — drop-off choices and pickups

def _drop_off_chosen(table: Table, passenger: str) -> None:
    if passenger not in table.state.dropoff_choice:
        raise RuleViolation("not_your_passenger", f"{passenger} is not one of the passengers bound here: "
                                        f"{', '.join(table.state.dropoff_choice) or 'none'}.")
    drop_off(table, passenger)
    close_if_done(table)


def _no_dropoff_pending(state: TaxiState) -> None:
    if state.dropoff_choice:
        raise RuleViolation("dropoff_choice_pending", f"Choose the passenger who gets out: {', '.join(state.dropoff_choice)} (§11.7).")


def _pick_up(table: Table, citizens: tuple[str, ...]) -> None:
    state = table.state
    _require_phase(state, Phase.END, "Citizens are picked up")
    _no_police(state)
    _no_dropoff_pending(state)
    if not citizens:
        raise RuleViolation("unknown_citizen", "Name the citizens to pick up.")
    group = together(state)
    if group:
        for citizen in citizens:
            if (problem := presence_violation(state, citizen, from_god=False)) is not None:
                raise problem
        aboard = len(state.cab(state.current, state.pawn).riders)
        if sorted(citizens) != sorted(group) or aboard + len(group) > state.pickup_limit():
            raise RuleViolation("pickup_both_required", f"{', '.join(group)} wait together: take them all, with room for all, "
                                              "or none (§11.7).")
    for citizen in citizens:
        board(table, citizen, from_god=False, limits_checked=bool(group))
        if table.over:
            return
    close_if_done(table)


def _close_end_phase(table: Table) -> None:
    state = table.state
    _require_phase(state, Phase.END, "The turn ends")
    _no_dropoff_pending(state)
    if state.options.mandatory_pickup and legal_pickups(state):
        raise RuleViolation("mandatory_pickup_pending", "A cab with room must take a citizen waiting where it stops (§11.3).")
    end_turn(table)


def _no_police(state: TaxiState) -> None:
    if state.cab(state.current, state.pawn).kind == "police":
        raise RuleViolation("police_cannot_carry", "Police never carry contraband (§11.12).")


# §11.2: passengers from God

def _collect_from_god(table: Table, citizen: str) -> None:
    state = table.state
    if not state.options.passengers_from_god:
        raise RuleViolation("variant_not_enabled", "Passengers from God are off in this game (§11.2).")
    _require_phase(state, Phase.START, "A passenger from God is collected")
    _no_police(state)
    found = state.citizen(citizen)
    for pawn in state.pawns_to_go if can_switch(state) and found else ():  # it waits under the other cab
        if found is not None and state.cab(state.current, pawn).area in (found.origin_area, found.destination_area):
            _require_pawn(table, pawn)
    board(table, citizen, from_god=True)


# §11.12: Bahama Contraband's setup

def _place_police(table: Table, area: str) -> None:
    state = table.state
    if not state.options.contraband:
        raise RuleViolation("variant_not_enabled", "This is no game of Bahama Contraband (§11.12).")
    if state.phase is not Phase.PLACING:
        raise RuleViolation("wrong_phase", "The police are placed before the first turn.")
    threes = police_areas(state.current)
    if area not in threes:
        raise RuleViolation("not_your_start_area", f"Your police starts on {threes[0]} or {threes[1]} (§11.12).")
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
        raise RuleViolation("variant_not_enabled", "Seats drive one cab in this game (§11.8).")
    if not state.options.cab_transfer:
        raise RuleViolation("transfer_not_allowed", "Cabs may not pass passengers in this game (§11.8).")
    if state.phase is not Phase.START or state.moved_this_turn:
        raise RuleViolation("wrong_phase", "Passengers change cabs only at the start of the turn, before any move (§11.8).")
    if {command.from_pawn, command.to_pawn} != {0, 1}:
        raise RuleViolation("wrong_pawn", "Name one cab to give and the other to take.")
    giver, taker = state.cab(state.current, command.from_pawn), state.cab(state.current, command.to_pawn)
    if giver.area is None or taker.area is None or not adjacent(giver.area, taker.area):
        raise RuleViolation("transfer_not_adjacent", "The two cabs must stand on adjacent areas (§11.8).")
    if not command.passengers or len(set(command.passengers)) != len(command.passengers) or not set(command.passengers) <= set(giver.riders):
        raise RuleViolation("not_your_passenger", f"Cab {command.from_pawn} carries {', '.join(giver.riders) or 'nobody'}.")
    if len(taker.riders) + len(command.passengers) > CAPACITY:
        raise RuleViolation("transfer_over_capacity", f"Cab {command.to_pawn} would carry more than {CAPACITY} (§11.8).")
    table.emit(PassengersTransferred(state.current, command.from_pawn, command.to_pawn, command.passengers))


def _no_collection_pending(state: TaxiState) -> None:
    if state.options.mandatory_pickup and legal_collections(state):
        raise RuleViolation("mandatory_pickup_pending", "A passenger from God waits under the cab: it must be collected (§11.3).")


# §11.11: the four-card hand

def _reroute(table: Table, passenger: str, end: End, card: str) -> None:
    state = table.state
    if not state.options.hand_size:
        raise RuleViolation("variant_not_enabled", "This game deals no hands (§11.11).")
    if passenger not in state.cab(state.current, state.pawn).riders:
        raise RuleViolation("not_your_passenger", f"{passenger} does not ride in the cab whose turn it is.")
    if card not in state.hands[state.current]:
        raise RuleViolation("card_not_in_hand", f"{card} is not in your hand.")
    rider = state.citizens[passenger]
    old = rider.origin if (end is End.FROM) != rider.reverse else rider.destination
    assert old is not None
    table.emit(PassengerRerouted(state.current, passenger, end.value, old, card))
    if table.state.phase is Phase.END and not table.state.dropoff_choice:
        close_if_done(table)


# leaving the game

def forfeit(table: Table, seat: Seat) -> None:
    """Meeple's rule for leaving (the rules have none): the cab leaves the board, its
    passengers' cards go to the discard pile, the seat plays no more and ranks after everyone
    still playing. With one seat left the game ends."""
    state = table.state
    if seat not in state.playing():
        raise RuleViolation("not_in_game", "This seat has left the game." if seat in state.forfeited else f"No seat {seat} plays.")
    table.emit(PlayerForfeited(seat))
    if len(table.state.playing()) < 2:
        finish(table, "forfeit")
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


def listed_form(state: TaxiState, command: Command) -> Command | None:
    """A move with its pickups is a batch (§13.1); every other command is listed as it is."""
    return None if isinstance(command, Move) and command.pick_up is not None else command


def timeout_command(state: TaxiState, seat: Seat) -> Command:
    """A turn deadline under `skip`: the turn passes as it stands; a police not yet placed
    goes on its seat's first 3 (§11.12)."""
    if state.phase is Phase.PLACING:
        return PlacePolice(seat, police_areas(seat)[0])
    return Skip(seat)


def response_seconds(state: TaxiState) -> int | None:
    """Bahama Taxi sets no deadline of its own."""
    return None
