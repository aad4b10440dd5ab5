"""Citizens and passengers (§8, §11.2, §11.7): who may board the acting cab, who gets out, what a ride pays."""

from __future__ import annotations

from domain.bahama_taxi.board import Area
from domain.bahama_taxi.events import CitizenAppeared
from domain.bahama_taxi.options import CancelledPassenger, DoublePickup
from domain.bahama_taxi.state import CAPACITY, Citizen, PawnKind, TaxiState
from domain.core.errors import RuleViolation


def pickup_violation(state: TaxiState, citizen_id: str, from_god: bool) -> RuleViolation | None:
    """§8.3, §8.5, §11.2: why the acting cab may not take `citizen_id` now, or None."""
    return carrier_violation(state) or presence_violation(state, citizen_id, from_god) or limit_violation(
        state, len(state.cab(state.current, state.pawn).riders))


def carrier_violation(state: TaxiState) -> RuleViolation | None:
    """§11.12: police never carry contraband."""
    if state.cab(state.current, state.pawn).kind is PawnKind.POLICE:
        return RuleViolation("police_cannot_carry", "Police never carry contraband (§11.12).")
    return None


def presence_violation(state: TaxiState, citizen_id: str, from_god: bool) -> RuleViolation | None:
    """§8.3, §11.2: the citizen waits under the cab and may board in this phase."""
    citizen = state.citizen(citizen_id)
    if citizen is None or citizen_id not in state.waiting:
        return RuleViolation("unknown_citizen", f"No citizen {citizen_id} is waiting.")
    cab = state.cab(state.current, state.pawn)
    if cab.area is None or not citizen.waits_at(cab.area, state.options.mirror_board):
        return RuleViolation("citizen_not_here", f"{citizen_id} waits at {citizen.origin_area}, the cab is on {cab.area}.")
    # from God, one that appeared since the cab's last pawn turn; in the end phase, one waiting when it began
    if from_god and citizen.appeared_at <= cab.last_turn_end:
        return RuleViolation("citizen_not_eligible", f"{citizen_id} was already waiting when this cab's last turn ended (§11.2).")
    if not from_god and citizen.appeared_at > state.end_started:
        return RuleViolation("citizen_not_eligible", f"{citizen_id} appeared during this end phase (§8.3).")
    return None


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


def together(state: TaxiState) -> tuple[str, ...]:
    """§11.7 together: the citizens here that must board at once, in waiting order (two or more, room for two), or none."""
    if state.options.double_pickup is not DoublePickup.TOGETHER or state.pickup_limit() < 2:
        return ()
    area = state.cab(state.current, state.pawn).area
    group = tuple(c.id for c in state.waiting_at(area or "") if c.appeared_at <= state.end_started)
    return group if len(group) > 1 else ()


def group_violation(state: TaxiState, citizens: tuple[str, ...]) -> RuleViolation | None:
    """§11.7 together: the whole group at once, in the order it waits, with room for all."""
    group = together(state)
    aboard = len(state.cab(state.current, state.pawn).riders)
    if set(citizens) != set(group) or aboard + len(group) > state.pickup_limit():
        return RuleViolation("pickup_both_required", f"{', '.join(group)} wait together: take them all, with room for all, "
                                                     "or none (§11.7).")
    if citizens != group:
        return RuleViolation("wrong_order", f"Name them in the order they wait: {', '.join(group)}.")
    return None


def arrived(citizen: Citizen, area: Area | None) -> bool:
    """§8.2, §11.7: bound for `area`; a cancelled passenger on a round trip only once it has been away."""
    return citizen.to_area == area and (citizen.left_pickup_area or not citizen.cancelled)


def payout(state: TaxiState, citizen: Citizen) -> int:
    """§2.4: the fare; a cancelled passenger pays what `cancelled_passenger` says (§11.7)."""
    if citizen.cancelled:
        return {CancelledPassenger.ONE_POINT_INSTANT: 1, CancelledPassenger.ZERO_POINT_INSTANT: 0,
                CancelledPassenger.TWO_POINT_ROUND_TRIP: 2}[state.options.cancelled_passenger]
    assert citizen.fare is not None
    return citizen.fare


def new_citizen(state: TaxiState) -> CitizenAppeared:
    """§4, §8.4, §11.9: the next citizen from the pile, origin then destination (or its origin alone)."""
    number, pile = len(state.citizens) + 1, state.draw_pile
    return CitizenAppeared(f"c{number}", pile[0], None if state.options.unknown_destination else pile[1])
