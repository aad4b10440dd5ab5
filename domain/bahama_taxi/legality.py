"""What the rules allow the seat to move now (§7, §8, §11): where a pawn may drive, the
steps of a roll, which citizens a cab may take and what a passenger pays, the reroutes and
transfers open — questions about a state, no events."""

from __future__ import annotations

from domain.bahama_taxi.board import DISTANCE, NEIGHBOURS, Area, adjacent
from domain.bahama_taxi.commands import (
    End,
    Reroute,
    Step,
    Transfer,
)
from domain.bahama_taxi.contraband import Entry, entry
from domain.bahama_taxi.options import CancelledPassenger, DoublePickup
from domain.bahama_taxi.state import CAPACITY, Citizen, Phase, TaxiState
from domain.core.errors import RuleViolation
from domain.core.game import Seat

# §7.1, §11.8: movement

def open_neighbours(state: TaxiState, seat: Seat, pawn: int) -> list[Area]:
    """The adjacent areas a pawn may drive onto: free ones (§7.1), and in Contraband the
    opposing pawn it arrests (§11.12)."""
    area = state.cab(seat, pawn).area
    assert area is not None
    return [neighbour for neighbour in NEIGHBOURS[area] if entry(state, seat, pawn, neighbour) is not Entry.CLOSED]


def can_switch(state: TaxiState) -> bool:
    """Before its first movement, a seat moving both cabs may still send either first; with
    dice the roll already belongs to the first cab, and an arrested smuggler goes first."""
    return (state.two_pawn_mode == "both" and not state.moved_this_turn and state.phase is Phase.START
            and not state.options.dice and not state.arrested(state.current))


# §11.10: the steps of a roll

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


# §8.2, §11.7: who gets out, and what they pay

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


# §8.3, §8.5, §11.7: who may board

def pickup_violation(state: TaxiState, citizen_id: str, from_god: bool = False) -> RuleViolation | None:
    """Why the acting cab may not take `citizen_id` now, or None."""
    return presence_violation(state, citizen_id, from_god) or limit_violation(
        state, len(state.cab(state.current, state.pawn).riders))


def presence_violation(state: TaxiState, citizen_id: str, from_god: bool) -> RuleViolation | None:
    """Whether `citizen_id` waits where the cab is and may board now (§8.3, §11.2)."""
    citizen = state.citizen(citizen_id)
    if citizen is None or citizen_id not in state.waiting:
        return RuleViolation("unknown_citizen", f"No citizen {citizen_id} is waiting.")
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or not citizen.waits_at(cab.area, state.options.mirror_board):
        return RuleViolation("citizen_not_here", f"{citizen_id} waits at {citizen.origin_area}, the cab is on {cab.area}.")
    if from_god and citizen.appeared_at <= cab.last_turn_end:
        return RuleViolation("citizen_not_eligible", f"{citizen_id} was already waiting when this cab's last turn ended (§11.2).")
    if not from_god and citizen.appeared_at > state.end_started:
        return RuleViolation("citizen_not_eligible", f"{citizen_id} appeared during this end phase (§8.3).")
    return None


def together(state: TaxiState) -> list[str]:
    """Under `double_pickup = together`, the citizens that must board together here: all that
    may board in this end phase, when there are two or more and a cab may take a second
    passenger at all (§11.7); otherwise none."""
    if state.options.double_pickup is not DoublePickup.TOGETHER or state.pickup_limit() < 2:
        return []
    area = state.cab(state.current, state.pawn).area
    group = [c.id for c in state.waiting_at(area or "") if c.appeared_at <= state.end_started]
    return group if len(group) > 1 else []


def limit_violation(state: TaxiState, aboard: int) -> RuleViolation | None:
    """§8.5: capacity 3; no third passenger once the pile has run out; no second once few wait."""
    limit = state.pickup_limit()
    if aboard >= CAPACITY:
        return RuleViolation("cab_is_full", "The cab carries three passengers already (§8.5).")
    if aboard + 1 > limit and limit == 2:
        return RuleViolation("third_passenger_forbidden", "The draw pile has run out: no cab may take a third passenger (§8.5).")
    if aboard + 1 > limit:
        return RuleViolation("second_passenger_forbidden",
                   f"{len(state.waiting)} citizens wait: no cab may take a second passenger (§8.5).")
    return None


def legal_pickups(state: TaxiState) -> list[tuple[str, ...]]:
    """The citizens of each pickup the acting cab may make now."""
    if state.phase is not Phase.END or state.result is not None or state.dropoff_choice:
        return []
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or cab.kind == "police":
        return []
    if group := together(state):
        return [tuple(group)] if len(cab.riders) + len(group) <= state.pickup_limit() else []
    return [(c.id,) for c in state.waiting_at(cab.area) if pickup_violation(state, c.id) is None]


# §11.2: passengers from God

def legal_collections(state: TaxiState) -> list[Citizen]:
    if not state.options.passengers_from_god or state.phase is not Phase.START or state.result is not None:
        return []
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or cab.kind == "police":
        return []
    return [c for c in state.waiting_at(cab.area) if pickup_violation(state, c.id, from_god=True) is None]


# §11.11: the four-card hand

def legal_reroutes(state: TaxiState) -> list[Reroute]:
    if not state.options.hand_size or state.result is not None or not state.hands[state.current]:
        return []
    riders = state.cab(state.current, state.pawn).riders
    return [Reroute(state.current, rider, end, card) for rider in riders for end in End for card in state.hands[state.current]]


# §11.8: two cabs pass passengers

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
