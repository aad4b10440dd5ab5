"""The Bahama Taxi rulebook (§6–§13): why a command is refused now, and what a seat may send.

Each rule is checked in one function that `violation` and `legal_commands` share; `decide`
(decide.py) raises what `violation` returns before it applies a command."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import assert_never

from domain.bahama_taxi.board import DISTANCE, NEIGHBOURS, adjacent
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
from domain.bahama_taxi.options import DoubleDropoff, Movement
from domain.bahama_taxi.passengers import (
    carrier_violation,
    group_violation,
    pickup_violation,
    presence_violation,
    together,
)
from domain.bahama_taxi.pawns import Entry, acting, can_switch, collector, entry, must_drive_off, police_areas
from domain.bahama_taxi.state import CAPACITY, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat


def violation(state: TaxiState, command: Command) -> RuleViolation | None:  # noqa: C901 - one case per command
    """Why `command` is refused now, or None. `decide` and `legal_commands` both ask."""
    if state.result is not None:
        return RuleViolation("game_over", "The game is over.")
    if isinstance(command, Forfeit):
        return None if command.seat in state.playing() else RuleViolation("not_in_game", "This seat does not play (any more).")
    if command.seat != state.current:
        return RuleViolation("not_your_turn", f"It is seat {state.current}'s turn.")
    if state.phase is Phase.PLACING and not isinstance(command, PlacePolice):
        return RuleViolation("wrong_phase", "Each seat places its police before the first turn (§11.12).")
    match command:
        case PlacePolice():
            return _placing(state, command)
        case Move(_, to, pawn):
            return _drive_phase(state, "A cab moves") or _pawn(state, pawn) or _drive(acting(state, pawn), to)
        case Stay(_, pawn):
            return _drive_phase(state, "A cab stays") or _pawn(state, pawn) or _staying(acting(state, pawn))
        case Step():
            return _dice_phase(state) or _pawn(state, command.pawn) or _stepping(state, command)
        case StopMoving():
            return _dice_phase(state) or _stopping(state)
        case CollectFromGod(_, citizen):
            return _collecting(state, citizen)
        case PickUp(_, citizens):
            return _picking(state, citizens)
        case DropOff(_, passenger):
            return _dropping(state, passenger)
        case EndTurn():
            return _ending(state)
        case Reroute():
            return _rerouting(state, command)
        case Transfer():
            return _transferring(state, command)
        case Skip():  # a deadline passed: the turn goes as it stands
            return None
        case _:
            assert_never(command)


# §7: movement

def _drive_phase(state: TaxiState, what: str) -> RuleViolation | None:
    """§6, §11.10: a cab moves or stays once, before it has moved, and not by dice."""
    if state.phase is not Phase.START:
        return RuleViolation("wrong_phase", f"{what} only before it has moved.")
    if state.options.dice:
        return RuleViolation("wrong_phase", "With dice a cab moves by `step` (§11.10).")
    return None


def _drive(state: TaxiState, to: str) -> RuleViolation | None:
    """§7.1 after §11.3: a pending collection first, then one area along a road."""
    return _collection_pending(state) or _road(state, to)


def _road(state: TaxiState, to: str) -> RuleViolation | None:
    """§7.1: one area, to a free neighbour (§11.12: or onto the pawn it arrests)."""
    here = state.cab(state.current, state.pawn).area
    if here is None or to not in NEIGHBOURS or not adjacent(here, to):
        return RuleViolation("not_adjacent", f"{to} is not an area next to {here}; the cab moves one area (§7.1).")
    if entry(state, state.current, state.pawn, to) is Entry.CLOSED:
        return RuleViolation("area_occupied", f"Another pawn stands on {to} (§7.1).")
    return None


def can_drive(state: TaxiState) -> bool:
    """§7.3: whether the acting pawn has somewhere to go."""
    here = state.cab(state.current, state.pawn).area
    return here is not None and any(_road(state, to) is None for to in NEIGHBOURS[here])


def must_keep_moving(state: TaxiState) -> bool:
    """§7.2, §11.10: a cab moves under mandatory movement, and takes every step of a 4."""
    return state.options.movement is Movement.MANDATORY or state.die == 4


def _staying(state: TaxiState) -> RuleViolation | None:
    """§7.2: only under optional movement; §11.12: never the arrested smuggler."""
    if must_drive_off(state):
        return RuleViolation("must_move_arrested_smuggler", "The arrested smuggler must drive off this area (§11.12).")
    if state.options.movement is Movement.MANDATORY:
        return RuleViolation("stay_not_allowed", "Every cab must move one area each turn (movement = mandatory, §7.2).")
    return _collection_pending(state)


# §8.2, §8.3, §8.5, §11.3, §11.7: the end phase, who gets out and who boards

def _end_phase(state: TaxiState, what: str) -> RuleViolation | None:
    """§6, §11.7: pickups and the end of the turn come after the move and a chosen drop-off."""
    if state.phase is not Phase.END:
        return RuleViolation("wrong_phase", f"{what} only after the cab has moved.")
    if state.dropoff_choice:
        return RuleViolation("dropoff_choice_pending", f"Choose the passenger who gets out: {', '.join(state.dropoff_choice)} (§11.7).")
    return None


def _dropping(state: TaxiState, passenger: str) -> RuleViolation | None:
    """§11.7 separately: the seat names the one passenger bound here that gets out."""
    if state.options.double_dropoff is DoubleDropoff.TOGETHER:
        return RuleViolation("variant_not_enabled", "Every passenger bound here gets out by itself (§8.2).")
    if not state.dropoff_choice:
        return RuleViolation("wrong_phase", "No drop-off waits for a choice.")
    if passenger not in state.dropoff_choice:
        return RuleViolation("not_your_passenger", f"{passenger} is not one of the passengers bound here: "
                                                   f"{', '.join(state.dropoff_choice)}.")
    return None


def _picking(state: TaxiState, citizens: tuple[str, ...]) -> RuleViolation | None:
    """§8.3: one citizen at a time; under `double_pickup = together` a group at once (§11.7)."""
    if problem := _end_phase(state, "Citizens are picked up") or carrier_violation(state):
        return problem
    if not citizens:
        return RuleViolation("unknown_citizen", "Name the citizens to pick up.")
    if len(set(citizens)) < len(citizens):
        return RuleViolation("duplicate_citizen", "Each citizen is named once.")
    for citizen in citizens:
        if problem := presence_violation(state, citizen, from_god=False):
            return problem
    if together(state):
        return group_violation(state, citizens)
    if len(citizens) > 1:
        return RuleViolation("one_citizen_at_a_time", "Citizens board one at a time here (§8.3, §11.7).")
    return pickup_violation(state, citizens[0], from_god=False)


def pickups(state: TaxiState) -> list[PickUp]:
    """Every pickup the acting cab may make now."""
    cab = state.cab(state.current, state.pawn)
    candidates = [PickUp(state.current, (c.id,)) for c in state.waiting_at(cab.area or "")]
    if group := together(state):
        candidates.append(PickUp(state.current, group))
    return [pickup for pickup in candidates if _picking(state, pickup.citizens) is None]


def _ending(state: TaxiState) -> RuleViolation | None:
    """§11.3: a cab with room must take a citizen waiting where it stops."""
    if problem := _end_phase(state, "The turn ends"):
        return problem
    if state.options.mandatory_pickup and pickups(state):
        return RuleViolation("mandatory_pickup_pending", "A cab with room must take a citizen waiting where it stops (§11.3).")
    return None


# §11.2, §11.3: passengers from God

def _collecting(state: TaxiState, citizen: str) -> RuleViolation | None:
    """§11.2: a citizen that appeared under the cab boards before it moves."""
    if not state.options.passengers_from_god:
        return RuleViolation("variant_not_enabled", "Passengers from God are off in this game (§11.2).")
    if state.phase is not Phase.START:
        return RuleViolation("wrong_phase", "A passenger from God is collected only before the cab moves.")
    return _target_fixed(state) or pickup_violation(collector(state, citizen), citizen, from_god=True)


def collections(state: TaxiState) -> list[str]:
    """The citizens the acting cab may collect from God now."""
    area = state.cab(state.current, state.pawn).area
    return [c.id for c in state.waiting_at(area or "") if _collecting(state, c.id) is None]


def _collection_pending(state: TaxiState) -> RuleViolation | None:
    """§11.3 with §11.2: a mandatory collection comes before any movement."""
    if state.options.mandatory_pickup and collections(state):
        return RuleViolation("mandatory_pickup_pending", "A passenger from God waits under the cab: it must be collected (§11.3).")
    return None


# §11.8, §11.12: which cab acts, and two cabs passing passengers

def _pawn(state: TaxiState, pawn: int) -> RuleViolation | None:
    """§11.8: the cab whose pawn turn it is, or the seat's other one if it may go first."""
    if pawn == state.pawn:
        return None
    if must_drive_off(state):
        return RuleViolation("must_move_arrested_smuggler", "The arrested smuggler moves first, off its area (§11.12).")
    if not can_switch(state) or pawn not in state.pawns_to_go:
        return RuleViolation("wrong_pawn", f"It is cab {state.pawn}'s pawn turn.")
    return None


def _transferring(state: TaxiState, transfer: Transfer) -> RuleViolation | None:
    """§11.8: at the start of the turn, between the seat's two cabs on adjacent areas, within capacity."""
    if state.options.cabs_per_player != 2:
        return RuleViolation("variant_not_enabled", "Passengers change cabs only in the two-cab game (§11.8).")
    if not state.options.cab_transfer:
        return RuleViolation("transfer_not_allowed", "Cabs may not pass passengers in this game (§11.8).")
    if state.phase is not Phase.START or state.moved_this_turn:
        return RuleViolation("wrong_phase", "Passengers change cabs only at the start of the turn, before any move (§11.8).")
    if problem := _target_fixed(state):
        return problem
    if {transfer.from_pawn, transfer.to_pawn} != {0, 1}:
        return RuleViolation("wrong_pawn", "Name one cab to give and the other to take.")
    giver, taker = state.cab(state.current, transfer.from_pawn), state.cab(state.current, transfer.to_pawn)
    if giver.area is None or taker.area is None or not adjacent(giver.area, taker.area):
        return RuleViolation("transfer_not_adjacent", "The two cabs must stand on adjacent areas (§11.8).")
    named = transfer.passengers
    if not named or len(set(named)) < len(named) or not set(named) <= set(giver.riders):
        return RuleViolation("not_your_passenger", f"Cab {transfer.from_pawn} carries {', '.join(giver.riders) or 'nobody'}.")
    if named != tuple(rider for rider in giver.riders if rider in named):
        return RuleViolation("wrong_order", f"Name the passengers in the order they ride: {', '.join(giver.riders)}.")
    if len(taker.riders) + len(named) > CAPACITY:
        return RuleViolation("transfer_over_capacity", f"Cab {transfer.to_pawn} would carry more than {CAPACITY} (§11.8).")
    return None


# §11.10: dice

def _dice_phase(state: TaxiState) -> RuleViolation | None:
    """§11.10: steps and stops only with dice, until the cab has finished moving."""
    if not state.options.dice:
        return RuleViolation("variant_not_enabled", "This game is played without dice (§11.10).")
    if state.phase not in (Phase.START, Phase.MOVE):
        return RuleViolation("wrong_phase", "The cab has finished moving.")
    return None


def _stepping(state: TaxiState, step: Step) -> RuleViolation | None:
    """§11.10: a step the roll still allows, along a road (§7.1), toward a 4's target."""
    if problem := _collection_pending(state):
        return problem
    if state.steps_left <= 0:
        return RuleViolation("no_steps_left", "The roll allows no more steps.")
    return _road(state, step.to) or _aim(state, step)


def _aim(state: TaxiState, step: Step) -> RuleViolation | None:
    """§11.10: on a 4 every step nears the farthest destination, named on the first step if several tie."""
    choosing = state.die == 4 and len(state.targets) > 1
    if choosing and step.target not in state.targets:
        return RuleViolation("not_farthest_target", f"Name the target: one of {', '.join(state.targets)} (§11.10).")
    if not choosing and step.target is not None:
        return RuleViolation("target_not_needed", "A target is named only on the first step of a 4 with several "
                                                  "farthest destinations (§11.10).")
    if state.die != 4:
        return None
    aim, here = step.target or state.targets[0], state.cab(state.current, state.pawn).area
    assert here is not None
    if DISTANCE[step.to][aim] != DISTANCE[here][aim] - 1:
        return RuleViolation("not_toward_target", f"On a 4 every step brings the cab one area nearer {aim} (§11.10).")
    return None


def _target_fixed(state: TaxiState) -> RuleViolation | None:
    """§11.10: until a 4's cab stops, no passenger boards, changes cab or changes where it goes."""
    if state.die == 4 and state.phase in (Phase.START, Phase.MOVE):
        return RuleViolation("target_fixed", "On a 4 the cab's passengers and where they go stay as at the roll until it "
                                             "stops (§11.10).")
    return None


def can_step(state: TaxiState) -> bool:
    """Whether the roll still allows a step somewhere."""
    here = state.cab(state.current, state.pawn).area
    return state.steps_left > 0 and here is not None and any(
        _road(state, to) is None and _aim(state, Step(state.current, to, state.pawn, target)) is None
        for to in NEIGHBOURS[here] for target in _targets(state))


def _targets(state: TaxiState) -> tuple[str | None, ...]:
    return tuple(state.targets) if state.die == 4 and len(state.targets) > 1 else (None,)


def _stopping(state: TaxiState) -> RuleViolation | None:
    """§11.10: under optional movement the cab may stop early, except on a 4."""
    if must_keep_moving(state):
        return RuleViolation("must_keep_moving", "The cab must take every step of the roll (§11.10).")
    return _collection_pending(state)


# §11.11: the four-card hand

def _rerouting(state: TaxiState, reroute: Reroute) -> RuleViolation | None:
    """§11.11: a hand card replaces an end of a rider's trip, before the move or after the drop-offs."""
    if not state.options.hand_size:
        return RuleViolation("variant_not_enabled", "This game deals no hands (§11.11).")
    if state.phase is Phase.MOVE:
        return RuleViolation("wrong_phase", "A passenger is rerouted before the cab moves or after it has moved (§11.11).")
    if state.dropoff_choice:
        return RuleViolation("dropoff_choice_pending", f"Choose the passenger who gets out first: {', '.join(state.dropoff_choice)} (§11.11).")
    if reroute.end is End.TO and (problem := _target_fixed(state)):
        return problem
    if reroute.passenger not in state.cab(state.current, state.pawn).riders:
        return RuleViolation("not_your_passenger", f"{reroute.passenger} does not ride in the cab whose turn it is.")
    if reroute.card not in state.hands[state.current]:
        return RuleViolation("card_not_in_hand", f"{reroute.card} is not in your hand.")
    return None


def can_reroute(state: TaxiState) -> bool:
    return any(violation(state, reroute) is None for reroute in _reroutes(state))


def _reroutes(state: TaxiState) -> Iterator[Reroute]:
    hand = state.hands[state.current] if state.hands else ()
    for rider in state.cab(state.current, state.pawn).riders:
        yield from (Reroute(state.current, rider, end, card) for end in End for card in hand)


# §11.12: Bahama Contraband's setup

def _placing(state: TaxiState, place: PlacePolice) -> RuleViolation | None:
    """§11.12: before the first turn, each seat's police on one of its two 3s."""
    if not state.options.contraband:
        return RuleViolation("variant_not_enabled", "This is no game of Bahama Contraband (§11.12).")
    if state.phase is not Phase.PLACING:
        return RuleViolation("wrong_phase", "The police are placed before the first turn.")
    threes = police_areas(place.seat)
    if place.area not in threes:
        return RuleViolation("not_your_start_area", f"Your police starts on {threes[0]} or {threes[1]} (§11.12).")
    return None


# §13.1: what a seat may send now

def legal_commands(state: TaxiState, seat: Seat) -> tuple[Command, ...]:
    """Every command `seat` may send now, in a stable order."""
    if state.result is not None or seat != state.current:
        return ()
    return tuple(command for command in _candidates(state, seat) if violation(state, command) is None)


def _candidates(state: TaxiState, seat: Seat) -> Iterator[Command]:
    """Every command that names something in play: neighbours, citizens around, passengers, hand cards."""
    if state.phase is Phase.PLACING:
        yield from (PlacePolice(seat, area) for area in police_areas(seat))
        return
    yield from (DropOff(seat, rider) for rider in state.dropoff_choice)
    pawns = (state.pawn, *state.pawns_to_go)
    areas = [area for pawn in pawns if (area := state.cab(seat, pawn).area) is not None]
    yield from (CollectFromGod(seat, c) for c in state.waiting if any(state.person(c).waits_at(a, state.options.mirror_board)
                                                                      for a in areas))
    yield from pickups(state) if state.phase is Phase.END else ()
    for pawn in pawns:
        area = state.cab(seat, pawn).area
        for to in NEIGHBOURS[area] if area is not None else ():
            yield Move(seat, to, pawn)
            yield from (Step(seat, to, pawn, target) for target in _targets(state))
    yield from (Stay(seat, pawn) for pawn in pawns)  # after every cab's moves: each kind of command listed together
    yield StopMoving(seat)
    yield from _transfers(state, seat)
    yield from _reroutes(state)
    yield EndTurn(seat)


def _transfers(state: TaxiState, seat: Seat) -> Iterator[Transfer]:
    """Each group of a cab's passengers, in the order they ride, to the other cab."""
    cabs = state.pawns[seat]
    for giver in range(len(cabs)) if len(cabs) == 2 else ():
        riders = cabs[giver].riders
        for size in range(1, len(riders) + 1):
            yield from (Transfer(seat, giver, 1 - giver, group) for group in combinations(riders, size))


def listed_form(state: TaxiState, command: Command) -> Command | None:
    """A move with its pickups is a batch (§13.1); every other command is listed as it is."""
    return None if isinstance(command, Move) and command.pick_up is not None else command


def timeout_command(state: TaxiState, seat: Seat) -> Command:
    """§11.12: a turn deadline skips the turn; a police not yet placed goes on its seat's first 3."""
    if state.phase is Phase.PLACING:
        return PlacePolice(seat, police_areas(seat)[0])
    return Skip(seat)


def response_seconds(state: TaxiState) -> int | None:
    """Bahama Taxi sets no deadline of its own."""
    return None
