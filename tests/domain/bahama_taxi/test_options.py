"""The options of §14 not already exercised by the scenarios, each value; forfeits and skips."""

from __future__ import annotations

import pytest

from domain.bahama_taxi import BAHAMA_TAXI
from domain.bahama_taxi.commands import EndTurn, Forfeit, Move, PickUp, Skip
from domain.bahama_taxi.events import (
    CitizenAppeared,
    CoinFlipped,
    GameEnded,
    PawnTurnStarted,
    PlayerForfeited,
    SkipReason,
    TurnEnded,
    TurnSkipped,
)
from domain.core.errors import OptionsInvalid
from domain.core.rng import ScriptedRng, SeededRng
from tests.domain.bahama_taxi.city import A, B, C, city, rejected, send

EIGHT = ["6D→8D", "AS→3C", "KH→4D", "7C→JD", "9H→2C", "QS→5H", "10C→8S", "4H→KD"]


@pytest.mark.parametrize("count", [1, 8, 20])
def test_initial_citizens(count: int) -> None:
    options = BAHAMA_TAXI.parse_options({"initial_citizens": count}, 4)
    events = BAHAMA_TAXI.setup(options, 4, SeededRng(0))
    assert sum(isinstance(e, CitizenAppeared) for e in events) == count
    with pytest.raises(OptionsInvalid) as error:
        BAHAMA_TAXI.parse_options({"initial_citizens": 25}, 4)
    assert "initial_citizens" in error.value.errors


@pytest.mark.parametrize(("threshold", "allowed"), [(0, True), (4, True), (5, False)])
def test_second_passenger_threshold(threshold: int, allowed: bool) -> None:
    five = ["9C→2D", *EIGHT[1:5]]
    state = city({A: "9C", B: "JH"}, waiting=five, riders={A: ["9S→JS"]}, moved=True, second_passenger_threshold=threshold)
    if allowed:
        assert len(send(state, PickUp(A, ("c1",)))[1].cab(A).riders) == 2
    else:
        assert rejected(state, PickUp(A, ("c1",))) == "second_passenger_forbidden"


def test_max_rounds_zero_means_no_limit() -> None:
    state = city({A: "5D", B: "KC"}, waiting=EIGHT, max_rounds=0)
    for _ in range(400):
        state = send(state, Move(A, "2S" if state.cab(A).area == "5D" else "5D"))[1]
        state = send(state, EndTurn(A))[1] if state.current == A else state
        state = send(state, Move(B, "QC" if state.cab(B).area == "KC" else "KC"))[1]
        state = send(state, EndTurn(B))[1] if state.current == B else state
    assert state.result is None and state.round_no == 401


def test_a_forfeit_takes_the_cab_off_the_board_and_ranks_last() -> None:
    state = city({A: "2S", B: "KC", C: "AS"}, waiting=EIGHT, riders={B: ["9S→JS"]}, income=(3, 9, 1))
    events, after = send(state, Forfeit(B))
    assert events == [PlayerForfeited(B)] and after.cab(B).area is None and "9S" in after.discard
    assert BAHAMA_TAXI.legal_commands(after, B) == () and rejected(after, Forfeit(B)) == "not_in_game"
    events, after = send(after, Forfeit(A))
    assert events[-1] == GameEnded((3, 9, 1), ((C,), (A,), (B,)), "forfeit")


def test_the_seat_to_move_forfeits_and_play_goes_on() -> None:
    _, after = send(city({A: "2S", B: "KC", C: "AS"}, waiting=EIGHT), Forfeit(A))
    assert after.current == B and after.result is None


def test_a_skipped_turn_does_nothing() -> None:
    state = city({A: "2S", B: "KC"}, waiting=EIGHT)
    events, after = send(state, Skip(A))
    assert events[0] == TurnSkipped(A, 0, SkipReason.TIMEOUT) and after.current == B and after.cab(A).area == "2S"
    moved = send(state, Move(A, "6D"))[1]
    assert send(moved, Skip(A))[1].current == B  # in the end phase: the turn ends without pickups
    assert BAHAMA_TAXI.timeout_command(state, A) == Skip(A) and Skip(A) not in BAHAMA_TAXI.legal_commands(state, A)


def test_a_deadline_ends_the_whole_turn_of_a_seat_with_two_cabs() -> None:
    state = city({A: ("2S", "9S"), B: ("KC", "QH")}, waiting=EIGHT, two_cab_mode="both")
    events, after = send(state, Skip(A))
    assert events[:3] == [TurnSkipped(A, 0, SkipReason.TIMEOUT), PawnTurnStarted(A, 1), TurnSkipped(A, 1, SkipReason.TIMEOUT)]
    assert after.current == B and (after.cab(A, 0).area, after.cab(A, 1).area) == ("2S", "9S")
    in_end_phase = city({A: ("2S", "9S"), B: ("KC", "QH")}, waiting=EIGHT, moved=True, two_cab_mode="both")
    events, after = send(in_end_phase, Skip(A))
    assert events[:3] == [TurnEnded(A, 0), PawnTurnStarted(A, 1), TurnSkipped(A, 1, SkipReason.TIMEOUT)]
    assert after.current == B and after.cab(A, 1).area == "9S"


@pytest.mark.parametrize(("options", "seats", "named"), [
    ({"unknown_destination": True, "mirror_board": True}, 2, "unknown_destination"),
    ({"unknown_destination": True, "setup": "start_as_destination"}, 2, "unknown_destination"),
    ({"cabs_per_player": 2}, 5, "cabs_per_player"),
    ({"contraband": True, "dice": True}, 2, "contraband"),
    ({"contraband": True, "hand_size": 4}, 2, "contraband"),
    ({"contraband": True, "cabs_per_player": 2}, 2, "contraband"),
    ({"contraband": True, "setup": "shift_change"}, 2, "contraband"),
    ({"contraband": True}, 3, "contraband"),
    ({"hand_size": 3}, 2, "hand_size"),
])
def test_the_compatibility_table_refuses_each_clash(options: dict[str, object], seats: int, named: str) -> None:
    with pytest.raises(OptionsInvalid) as error:
        BAHAMA_TAXI.parse_options(options, seats)
    assert list(error.value.errors) == [named]


def test_allowed_combinations() -> None:
    for options, seats in (({"dice": True, "cabs_per_player": 2}, 4), ({"double_pickup": "together"}, 2),
                           ({"cancelled_passenger": "two_point_round_trip"}, 3), ({"contraband": True}, 2)):
        BAHAMA_TAXI.parse_options(options, seats)


@pytest.mark.parametrize(("mode", "die", "expected"), [
    ("coin", 1, "both"), ("coin", 0, "alternate"), ("both", None, "both"), ("alternate", None, "alternate")])
def test_the_coin_decides_how_two_cabs_move(mode: str, die: int | None, expected: str) -> None:
    options = BAHAMA_TAXI.parse_options({"cabs_per_player": 2, "two_cab_mode": mode}, 2)
    events = BAHAMA_TAXI.setup(options, 2, ScriptedRng(orders=[], dice=[] if die is None else [die]))
    flipped = next(e for e in events if isinstance(e, CoinFlipped))
    assert flipped.mode == expected and flipped.result == {1: "heads", 0: "tails", None: "chosen"}[die]
    state = BAHAMA_TAXI.replay(options, 2, events)
    assert state.pawns_to_go == ((1,) if expected == "both" else ()) and len(state.pawns[0]) == 2
