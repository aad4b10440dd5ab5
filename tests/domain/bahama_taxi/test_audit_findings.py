"""Defects outside audits found where a command was accepted but not listed, or listed but
wrong; each test is named after its defect and checks both sides: what `decide` does and what
`legal_commands` lists."""

from __future__ import annotations

from dataclasses import replace

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.commands import DropOff, End, EndTurn, Forfeit, Move, PickUp, Reroute, Skip, Step, Transfer
from domain.bahama_taxi.events import DieRolled, PassengerDroppedOff, SkipReason, TurnSkipped
from domain.bahama_taxi.state import Phase, TaxiState
from domain.core.rng import ScriptedRng
from tests.domain.bahama_taxi.city import A, B, C, city, rejected, send
from tests.domain.bahama_taxi.test_scenarios import EIGHT, rolled


def rolled_for_two_cabs(state: TaxiState, value: int) -> TaxiState:
    """A's turn, B's second cab having just ended its pawn turn, the die showing `value`."""
    return send(replace(state, current=B, pawn=1, pawns_to_go=(), phase=Phase.END), EndTurn(B), rng=ScriptedRng(dice=[value]))[1]


def listed(state: TaxiState, kind: type) -> list[object]:
    return [command for command in BAHAMA_TAXI.legal_commands(state, state.current) if isinstance(command, kind)]


def test_a_target_named_on_a_four_with_one_farthest_destination_is_refused() -> None:
    state = rolled(city({A: "KH", B: "5C"}, waiting=EIGHT, riders={A: ["5S→2D", "9S→10H"]}, dice=True), 4)[1]
    assert state.targets == ("2D",) and Step(A, "QH") in listed(state, Step)
    assert rejected(state, Step(A, "QH", target="2D")) == "target_not_needed"


def test_a_target_named_on_a_roll_other_than_four_is_refused() -> None:
    state = rolled(city({A: "KH", B: "5C"}, waiting=EIGHT, riders={A: ["5S→2D"]}, dice=True), 2)[1]
    assert Step(A, "QH") in listed(state, Step) and all(step.target is None for step in listed(state, Step))  # type: ignore[attr-defined]
    assert rejected(state, Step(A, "QH", target="2D")) == "target_not_needed"


def test_a_target_named_again_after_the_first_step_is_refused() -> None:
    state = rolled(city({A: "KH", B: "5C"}, waiting=EIGHT, riders={A: ["5S→2D", "5H→3D"]}, dice=True), 4)[1]
    assert state.targets == ("2D", "3D") and Step(A, "QH", target="2D") in listed(state, Step)
    state = send(state, Step(A, "QH", target="2D"))[1]
    assert Step(A, "KC") in listed(state, Step) and rejected(state, Step(A, "KC", target="2D")) == "target_not_needed"
    assert all(step.target is None for step in listed(state, Step))  # type: ignore[attr-defined]


def test_a_transfer_of_two_passengers_is_listed() -> None:
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], riders={(A, 0): ["5D→2S", "8S→8H"]}, two_cab_mode="both")
    assert Transfer(A, 0, 1, ("c6", "c7")) in listed(state, Transfer)
    assert send(state, Transfer(A, 0, 1, ("c6", "c7")))[1].cab(A, 1).riders == ("c6", "c7")


def test_a_transfer_naming_passengers_out_of_their_order_is_refused() -> None:
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], riders={(A, 0): ["5D→2S", "8S→8H"]}, two_cab_mode="both")
    assert Transfer(A, 0, 1, ("c7", "c6")) not in listed(state, Transfer)
    assert rejected(state, Transfer(A, 0, 1, ("c7", "c6"))) == "wrong_order"


def test_transfers_are_listed_after_the_roll_with_dice() -> None:
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], riders={(A, 0): ["5D→2S"]}, two_cab_mode="both", dice=True)
    state = rolled_for_two_cabs(state, 2)
    assert state.current == A and state.die == 2 and state.phase is Phase.START
    assert Transfer(A, 0, 1, ("c6",)) in listed(state, Transfer)
    moved = send(state, Step(A, "10S"))[1]
    assert rejected(moved, Transfer(A, 0, 1, ("c6",))) == "wrong_phase" and not listed(moved, Transfer)


def test_the_smuggler_cannot_hand_its_goods_to_the_police() -> None:
    state = city({A: ("4H", "5H"), B: ("3S", "3C")}, waiting=EIGHT, riders={(A, 0): ["9S→JS"]}, contraband=True,
                 two_cab_mode="both")
    assert not listed(state, Transfer)
    assert rejected(state, Transfer(A, 0, 1, ("c9",))) == "variant_not_enabled"


def test_no_reroute_while_a_drop_off_choice_waits() -> None:
    riders = {A: ["4C.1→JS.1", "8H.1→JS.2"]}
    state = city({A: "9S", B: "KC"}, waiting=EIGHT, riders=riders, double_dropoff="separately", hand_size=4,
                 hands={A: ["5H", "9D", "JD", "4D"]})
    state = send(state, Move(A, "JS"))[1]
    assert state.dropoff_choice == ("c9", "c10") and not listed(state, Reroute)
    assert rejected(state, Reroute(A, "c9", End.TO, "5H")) == "dropoff_choice_pending"
    assert any(isinstance(e, PassengerDroppedOff) and e.citizen == "c9" for e in send(state, DropOff(A, "c9"))[0])


def test_a_reroute_making_both_ends_one_area_pays_a_fare_of_zero() -> None:
    state = city({A: "8S", B: "KC"}, waiting=EIGHT[1:], riders={A: ["5D→2S"]}, hands={A: ["2S", "9S", "JD", "4C"]}, hand_size=4)
    state = send(state, Reroute(A, "c8", End.FROM, "2S"))[1]
    rider = state.person("c8")
    assert rider.origin == rider.destination == "2S" and not rider.cancelled and rider.fare == 0
    events, state = send(state, Move(A, "2S"))
    assert PassengerDroppedOff(A, 0, "c8", "2S", 0) in events and state.income[A] == 0


def test_no_reroute_between_the_steps_of_a_roll() -> None:
    state = city({A: "KH", B: "5C"}, waiting=EIGHT, riders={A: ["5S→2D"]}, dice=True, hand_size=4,
                 hands={A: ["5H", "9D", "JD", "4D"]})
    state = rolled(state, 2)[1]
    assert listed(state, Reroute)  # before the first step: the start phase
    state = send(state, Step(A, "QH"))[1]
    assert state.phase is Phase.MOVE and not listed(state, Reroute)
    assert rejected(state, Reroute(A, "c9", End.TO, "5H")) == "wrong_phase"


def test_a_citizen_named_twice_in_a_pickup_is_refused() -> None:
    state = city({A: "6D", B: "KC"}, waiting=["6D→8D"], pile=0, moved=True)
    assert listed(state, PickUp) == [PickUp(A, ("c1",))]
    assert rejected(state, PickUp(A, ("c1", "c1"))) == "duplicate_citizen"


def test_several_citizens_at_once_only_as_a_group_that_waits_together() -> None:
    two = ["AS.1→3C.1", "AS.2→KH.1", *EIGHT[2:]]
    state = city({A: "AS", B: "KC"}, waiting=two, moved=True, seats=2)
    assert listed(state, PickUp) == [PickUp(A, ("c1",)), PickUp(A, ("c2",))]
    assert rejected(state, PickUp(A, ("c1", "c2"))) == "one_citizen_at_a_time"


def test_a_group_that_waits_together_is_named_in_the_order_it_waits() -> None:
    two = ["AS.1→3C.1", "AS.2→KH.1", *EIGHT[2:]]
    state = city({A: "AS", B: "KC"}, waiting=two, moved=True, double_pickup="together")
    assert listed(state, PickUp) == [PickUp(A, ("c1", "c2"))]
    assert rejected(state, PickUp(A, ("c2", "c1"))) == "wrong_order"
    assert send(state, PickUp(A, ("c1", "c2")))[1].cab(A).riders == ("c1", "c2")


def test_with_dice_a_seat_moving_both_cabs_moves_cab_0_first() -> None:
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], two_cab_mode="both", dice=True)
    state = rolled_for_two_cabs(state, 2)
    assert state.pawn == 0 and {step.pawn for step in listed(state, Step)} == {0}  # type: ignore[attr-defined]
    assert rejected(state, Step(A, "QS", 1)) == "wrong_pawn"


def test_a_seat_leaving_in_its_first_cabs_pawn_turn_hands_the_turn_to_the_next_seat() -> None:
    for dice in (False, True):
        state = city({A: ("9S", "JS"), B: ("KC", "QH"), C: ("5C", "7C")}, waiting=EIGHT[3:], two_cab_mode="both",
                     movement="optional", dice=dice)
        after = send(state, Forfeit(A), rng=ScriptedRng(dice=[2]))[1]
        assert after.current == B and not BAHAMA_TAXI.legal_commands(after, A) and BAHAMA_TAXI.legal_commands(after, B)


def test_a_timeout_during_a_drop_off_choice_leaves_no_choice_to_the_next_seat() -> None:
    riders = {A: ["4C.1→JS.1", "8H.1→JS.2"]}
    state = send(city({A: "9S", B: "KC"}, waiting=EIGHT, riders=riders, double_dropoff="separately"), Move(A, "JS"))[1]
    assert state.dropoff_choice == ("c9", "c10")
    after = send(state, Skip(A))[1]
    assert after.current == B and after.dropoff_choice == () and not listed(after, DropOff)
    assert after.cab(A).riders == ("c9", "c10") and after.income == state.income


def test_on_a_four_the_cabs_passengers_stay_as_at_the_roll() -> None:
    state = city({A: ("KH", "AH"), B: ("5C", "7C")}, waiting=EIGHT[3:], riders={(A, 0): ["5S→2D"]}, two_cab_mode="both",
                 dice=True, hand_size=4, hands={A: ["JD", "9D", "4C", "6H"]})
    state = rolled_for_two_cabs(state, 4)
    assert state.die == 4 and state.targets == ("2D",)
    assert not listed(state, Transfer) and rejected(state, Transfer(A, 0, 1, ("c6",))) == "target_fixed"
    assert rejected(state, Reroute(A, "c6", End.TO, "JD")) == "target_fixed"
    assert Reroute(A, "c6", End.FROM, "JD") in listed(state, Reroute)  # the fare only: the target stands


def test_a_cab_whose_pawn_turn_was_skipped_does_not_get_it_back() -> None:
    state = city({A: ("9S", "JS"), B: ("KC", "QH")}, waiting=EIGHT[3:], two_cab_mode="both", dice=True)
    events, state = send(replace(state, current=B, pawn=1, pawns_to_go=(), phase=Phase.END), EndTurn(B),
                         rng=ScriptedRng(dice=[6, 1]))
    assert TurnSkipped(A, 0, SkipReason.DIE_SIX) in events and state.current == A and state.pawn == 1
    events, state = send(state, Step(A, next(s.to for s in listed(state, Step)), 1), rng=ScriptedRng(dice=[3]))  # type: ignore[attr-defined]
    if state.current == A:  # a citizen waits where it stopped
        more, state = send(state, EndTurn(A), rng=ScriptedRng(dice=[3]))
        events += more
    assert state.current == B and not any(isinstance(e, DieRolled) and e.seat == A for e in events)
