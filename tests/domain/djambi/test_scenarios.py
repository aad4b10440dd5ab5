"""Every test scenario of rules/djambi.md §20, named by its number, in the spec's notation."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.commands import AcceptDraw, Command, ProposeDraw, Resign, Skip
from domain.djambi.events import (
    ArmyControlChanged,
    DrawOfferLapsed,
    Elimination,
    Event,
    GameEnded,
    PassReason,
    PlayerEliminated,
    TurnKind,
    TurnPassed,
    TurnStarted,
)
from domain.djambi.moves import actions
from domain.djambi.options import DjambiOptions
from domain.djambi.pieces import START, piece_id
from domain.djambi.rules import legal_plays
from domain.djambi.state import DjambiState
from tests.domain.djambi.positions import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    controller,
    dest,
    pieces,
    play,
    plays,
    position,
    rejected,
    squares,
    to_move,
    turns,
)

REGULAR, BONUS = TurnKind.REGULAR, TurnKind.BONUS


def new_game(seats: int = 4, **options: object):  # type: ignore[no-untyped-def]
    chosen = DJAMBI.parse_options(options, seats)
    return DJAMBI.replay(chosen, seats, DJAMBI.setup(chosen, seats, SeededRng(0)))


# Start position and basic movement

def test_1_start_layout() -> None:
    state = new_game()
    assert pieces(state) == squares(
        "rC@A9 rA@B9 rR@A8 rD@B8 rN@C7 rM@A7 rM@B7 rM@C8 rM@C9 "
        "bC@I9 bA@H9 bR@I8 bD@H8 bN@G7 bM@G8 bM@G9 bM@H7 bM@I7 "
        "yC@I1 yA@H1 yR@I2 yD@H2 yN@G3 yM@G1 yM@G2 yM@H3 yM@I3 "
        "gC@A1 gA@B1 gR@A2 gD@B2 gN@C3 gM@A3 gM@B3 gM@C1 gM@C2"
    )
    assert len(START) == 36 and piece_id(35) == "green.militant4"
    assert state.board[40] is None and state.in_power() is None
    assert to_move(state) == (RED, REGULAR)


def test_2_reds_opening_options() -> None:
    state = new_game()
    assert dest(state, "A9") == squares("A8 B8 B9")
    assert dest(state, "B9") == squares("A8 B8 C8 C9")
    assert dest(state, "A8") == set() and dest(state, "B8") == set()
    assert dest(state, "C9") == squares("B8 B9 C8 D8 D9 E7 E9")
    assert dest(state, "C8") == squares("B7 B8 B9 C7 C9 D7 D8 D9 E6 E8")
    assert dest(state, "A7") == squares("A5 A6 A8 B6 B7 B8 C5")
    assert dest(state, "B7") == squares("A6 A7 A8 B5 B6 B8 C6 C7 C8 D5")
    assert dest(state, "C7") == squares("A5 B6 C4 C5 C6 D6 D7 D8 E7 E9 F4 F7")
    assert len(list(actions(state, 0))) == 53 and len(list(legal_plays(state, 0))) == 889
    peaceful = new_game(self_kill=False)
    assert len(list(actions(peaceful, 0))) == 30 and len(list(legal_plays(peaceful, 0))) == 30


def test_3_first_move_passes_the_turn() -> None:
    state = new_game()
    _, after = play(state, "C9-D9")
    assert pieces(after) == pieces(state) - {"rM@C9"} | {"rM@D9"}
    assert to_move(after) == (BLUE, REGULAR)


def test_4_militant_range_and_blocking() -> None:
    state = position("rC@A9 rM@D4 bM@D6 X@F4 bC@I1 gC@A1", RED)
    assert dest(state, "D4") == squares("B2 B4 B6 C3 C4 C5 D2 D3 D5 D6 E3 E4 F2 F6")


def test_5_militant_vs_the_chief_in_power() -> None:
    state = position("rC@A9 rM@D4 bC@E5 yC@I1 gC@A1", RED)
    assert dest(state, "D4") == squares("B2 B4 B6 C3 C4 C5 D2 D3 D5 D6 E3 E4 F2 F4")
    assert rejected(state, "D4-E5 place A5") == "illegal_destination"


def test_6_corpses_block_and_cannot_be_captured() -> None:
    state = position("rC@A9 rA@A5 X@D5 bC@I9 yC@I1 gC@A1", RED)
    assert dest(state, "A5") == squares("A1 A2 A3 A4 A6 A7 A8 B4 B5 B6 C3 C5 C7 D2 D8 E1 E9")


def test_7_passing_over_the_empty_maze() -> None:
    state = position("rC@A9 rD@A5 bC@I9 yC@I1", RED)
    assert dest(state, "A5") >= squares("B5 C5 D5 F5 G5 H5 I5") and "E5" not in dest(state, "A5")


def test_8_chief_corpses_and_the_maze() -> None:
    state = position("rC@C3 X@C6 bM@F3 bC@I9 yC@I1 gC@A1", RED)
    assert dest(state, "C3") == squares("A1 A3 A5 B2 B3 B4 C1 C2 C4 C5 D2 D3 D4 E1 E3 E5 F3 F6 G7 H8 I9")


# Kills and relocations

def test_9_militant_kill_and_corpse_placement() -> None:
    state = position("rC@A9 rM@E3 bM@F2 bC@I9 yC@I1 gC@A1", RED)
    _, after = play(state, "E3-F2 place E3")
    assert {"rM@F2", "X@E3"} <= pieces(after) and to_move(after) == (BLUE, REGULAR)
    assert rejected(state, "E3-F2 place E5") == "illegal_place"
    assert rejected(state, "E3-F2 place A1") == "illegal_place"
    assert rejected(state, "E3-F2") == "place_required"


def test_10_assassin_kill_across_the_empty_maze() -> None:
    state = position("rC@A9 rA@B5 bM@F5 bC@I9 yC@I1 gC@A1", RED)
    _, after = play(state, "B5-F5")
    assert {"rA@F5", "X@B5"} <= pieces(after)
    assert rejected(state, "B5-F5 place C4") == "place_forbidden"


def test_11_reporter_options_and_army_capture() -> None:
    state = position("rC@A9 rR@D2 bC@C6 bM@D7 yM@E7 yC@I1 gC@A1", RED)
    assert plays(state, "D2", "D6") == {"D2-D6", "D2-D6 report C6", "D2-D6 report D7"}
    assert rejected(state, "D2-D6 report E7") == "illegal_report"
    events, after = play(state, "D2-D6 report C6")
    assert "X@C6" in pieces(after) and PlayerEliminated(1, Elimination.KILLED, by=0) in events
    assert controller(after, BLUE) is RED and to_move(after) == (YELLOW, REGULAR)
    after = position("rC@A9 rR@D6 X@C6 bM@D7 yM@E7 yC@I1 gC@A1", RED, controllers={BLUE: RED})
    assert "D7" in {p.piece for p in legal_plays(after, 0)}  # red moves the blue militant


def test_12_reporter_movement_limits() -> None:
    state = position("rC@A9 rR@B5 bM@H5 bC@I9 yC@I1 gC@A1", RED)
    assert dest(state, "B5") == squares("A4 A5 A6 B1 B2 B3 B4 B6 B7 B8 B9 C4 C5 C6 D3 D5 D7 E2 E8 F1 F5 F9 G5")


def test_13_a_relocated_reporter_does_not_kill() -> None:
    state = position("rC@A9 rD@B5 bR@F5 rM@D8 bC@I9 yC@I1 gC@A1", RED)
    events, after = play(state, "B5-F5 place D7")
    assert {"bR@D7", "rM@D8", "rD@F5"} <= pieces(after) and not any(e for e in events if getattr(e, "kills", ()))


def test_14_reporter_kills_the_chief_in_power() -> None:
    state = position("rC@A9 rR@F8 bC@E5 bM@G5 yC@I1 gC@A1", RED)
    assert plays(state, "F8", "F5") == {"F8-F5", "F8-F5 report G5", "F8-F5 report E5"}
    _, after = play(state, "F8-F5 report E5")
    assert "X@E5" in pieces(after) and 1 not in after.remaining and controller(after, BLUE) is RED
    assert after.in_power() is None and to_move(after) == (YELLOW, REGULAR)
    # the corpse on E5 shuts the maze: no chief may enter, nothing passes through
    later = position("rC@C5 rR@F5 X@E5 bM@G5 yC@I1 yA@D5 gC@A1", RED)
    assert "E5" not in dest(later, "C5") and "F5" not in dest(later, "D5")


def test_15_diplomat_basics() -> None:
    state = position("rC@A9 rD@C5 rM@C7 X@E7 bA@G5 bC@I9 yC@I1 gC@A1", RED)
    assert dest(state, "C5") == squares("A3 A5 A7 B4 B5 B6 C1 C2 C3 C4 C6 D4 D5 D6 E3 F2 F5 G1 G5")
    _, after = play(state, "C5-G5 place C5")
    assert {"rD@G5", "bA@C5"} <= pieces(after)
    assert rejected(state, "C5-G5 place E5") == "illegal_place"


def test_16_diplomat_drops_an_enemy_chief_into_the_maze() -> None:
    state = position("rC@A9 rD@B5 bC@H5 bM@I1 yC@I3 gC@A1", RED)
    _, after = play(state, "B5-H5 place E5")
    assert "bC@E5" in pieces(after) and after.in_power() == 1 and to_move(after) == (BLUE, BONUS)
    _, later = play(after, "I1-H1")
    assert to_move(later) == (YELLOW, REGULAR)


def test_17_necromobile_basics() -> None:
    state = position("rC@A9 rN@C3 bM@C6 X@G7 X@F3 bC@I9 yC@I1 gC@A1", RED)
    assert dest(state, "C3") == squares("A3 A5 B2 B3 B4 C1 C2 C4 C5 D2 D3 D4 E1 E3 F3 F6 G7")
    assert rejected(state, "C3-F3 place E5") == "illegal_place"
    assert rejected(state, "C3-G7 place E5") == "illegal_place"


def test_18_self_kill() -> None:
    text = "rC@A9 rM@E3 rM@E4 rD@F3 bC@I9 yC@I1 gC@A1"
    assert dest(position(text, RED), "E3") == squares("C1 C3 C5 D2 D3 D4 E1 E2 E4 F2 F3 F4 G1 G5")
    assert "B9" not in dest(position("rC@B9 rM@B7 bC@I9 yC@I1 gC@A1", RED), "B7")
    assert dest(position(text, RED, self_kill=False), "E3") == squares("C1 C3 C5 D2 D3 D4 E1 E2 F2 F4 G1 G5")


# Maze actions

def test_19_assassin_kills_the_chief_in_power() -> None:
    state = position("rC@A9 rA@B5 bC@E5 bM@H5 yC@I1 gC@A1", RED)
    assert rejected(state, "B5-E5") == "exit_required"
    assert rejected(state, "B5-E5 exit B5") == "illegal_exit"
    assert rejected(state, "B5-E5 exit H5") == "illegal_exit"
    assert {"B5-E5 exit A5", "B5-E5 exit A1", "B5-E5 exit I1"} <= plays(state, "B5", "E5")
    _, after = play(state, "B5-E5 exit E8")
    assert {"rA@E8", "X@B5"} <= pieces(after) and after.board[40] is None
    assert 1 not in after.remaining and controller(after, BLUE) is RED and to_move(after) == (YELLOW, REGULAR)


def test_20_assassin_master_move() -> None:
    state = position("rC@A9 rA@B5 bC@E5 yC@E2 gC@A1", RED)
    _, after = play(state, "B5-E5 exit E2")
    assert {"rA@E2", "X@B5", "X@E5"} <= pieces(after)
    assert after.remaining == (0, 3) and controller(after, BLUE) is RED and controller(after, YELLOW) is RED
    assert to_move(after) == (GREEN, REGULAR)
    assert rejected(position("rC@A9 rA@B5 bC@E5 yC@E2 gC@A1", RED, master_moves=False), "B5-E5 exit E2") == "illegal_exit"


def test_21_diplomat_evicts_the_chief_in_power() -> None:
    state = position("rC@A9 rD@H5 bC@E5 yC@I1 gC@A1", RED)
    _, after = play(state, "H5-E5 exit H8 place G7")
    assert {"rD@H8", "bC@G7"} <= pieces(after) and after.board[40] is None and after.in_power() is None
    assert to_move(after) == (BLUE, REGULAR)
    assert rejected(state, "H5-E5 exit H8 place E5") == "illegal_place"
    assert rejected(state, "H5-E5 exit H8 place H8") == "illegal_place"
    assert "H5-E5 exit H5 place G7" in plays(state, "H5", "E5")


def test_22_diplomat_master_move() -> None:
    state = position("rC@A9 rD@H5 bC@E5 yC@E8 gC@A1", RED)
    _, after = play(state, "H5-E5 exit E8 place A5")
    assert {"rD@E8", "yC@E5", "bC@A5"} <= pieces(after)
    assert after.in_power() == 2 and to_move(after) == (YELLOW, BONUS)


def test_23_necromobile_clears_the_maze() -> None:
    state = position("rC@A9 rN@A1 X@E5 bC@I9 yC@I1 gC@C9", RED)
    _, after = play(state, "A1-E5 exit F6 place A1")
    assert {"rN@F6", "X@A1"} <= pieces(after) and after.board[40] is None
    assert rejected(state, "A1-E5 exit F6 place E5") == "illegal_place"


def test_24_no_exit_no_entry() -> None:
    walls = "X@C3 X@D5 X@D6 X@E4 X@E6 X@F4 X@F5 X@F6"
    assassin = position(f"{walls} rC@A9 rA@D4 bC@E5 yC@I1 gC@A1", RED)
    assert "E5" not in dest(assassin, "D4")
    assert rejected(assassin, "D4-E5 exit D4") == "illegal_destination"  # no exit at all: the entry is refused
    diplomat = position(f"{walls} rC@A9 rD@D4 bC@E5 yC@I1 gC@A1", RED)
    assert {p.split()[2] for p in plays(diplomat, "D4", "E5")} == {"D4"}


def test_25_chief_kills_the_chief_in_power() -> None:
    state = position("rC@A1 bC@E5 yC@I1 gC@A9", RED)
    _, after = play(state, "A1-E5 place B2")
    assert {"rC@E5", "X@B2"} <= pieces(after) and after.in_power() == 0
    assert 1 not in after.remaining and controller(after, BLUE) is RED
    assert to_move(after) == (YELLOW, REGULAR)
    assert turns(after, 5) == ["red*", "green", "red*", "yellow", "red*"]


def test_26_militant_next_to_the_chief_in_power() -> None:
    state = position("rC@A9 rM@D4 bC@E5 yC@I1 gC@A1", RED)
    assert not plays(state, "D4", "E5")


# Turn order

def test_27_four_players_power_taken_on_a_regular_turn() -> None:
    state = position("rC@A9 bC@G7 yC@I1 gC@A1", BLUE)
    _, after = play(state, "G7-E5")
    assert to_move(after) == (YELLOW, REGULAR)
    assert ["yellow", *turns(after, 7)] == ["yellow", "blue*", "green", "blue*", "red", "blue*", "yellow", "blue*"]


def test_28_two_players() -> None:
    state = position("rC@C3 bC@I9", RED)
    _, after = play(state, "C3-E5")
    assert to_move(after) == (BLUE, REGULAR)
    assert ["blue", *turns(after, 6)] == ["blue", "red*", "red", "blue", "red*", "red", "blue"]


def test_29_leaving_power_during_a_bonus_turn() -> None:
    state = position("rC@A9 bC@E5 yC@I1 gC@A1", BLUE, bonus_after=RED)
    _, after = play(state, "E5-F5")
    assert [to_move(after)[0], *turns(after, 4)] == ["yellow", "green", "red", "blue", "yellow"]
    duel = position("rC@A9 bC@E5", BLUE, bonus_after=RED)
    _, after = play(duel, "E5-F5")
    assert [to_move(after)[0], *turns(after, 3)] == ["red", "blue", "red", "blue"]


def test_30_three_players_one_in_power() -> None:
    state = position("rC@A9 yC@E5 gC@A1", RED)
    assert ["red", *turns(state, 5)] == ["red", "yellow*", "green", "yellow*", "red", "yellow*"]


# Encirclement and orphans

ENCIRCLE = "rC@A9 X@A8 X@B8 rA@B9 {piece}@C5 bC@I9 bR@F9 {yellow} gC@A1"


def test_31_encirclement_completed_by_a_report() -> None:
    state = position(ENCIRCLE.format(piece="rM", yellow="yC@I1"), BLUE)
    events, after = play(state, "F9-C9 report B9")
    assert {"X@B9", "X@A9", "rM@C5"} <= pieces(after)
    assert PlayerEliminated(0, Elimination.ENCIRCLED) in events
    assert controller(after, RED) is None and after.is_orphaned(after.board[38] or 0)  # C5
    assert after.in_power() is None and to_move(after) == (YELLOW, REGULAR)


def test_32_necromobile_prevents_it() -> None:
    state = position(ENCIRCLE.format(piece="rN", yellow="yC@I1"), BLUE)
    _, after = play(state, "F9-C9 report B9")
    assert 0 in after.remaining and "rC@A9" in pieces(after)


def test_33_chief_in_the_maze_is_immune() -> None:
    walls = " ".join(f"X@{s}" for s in "D4 D5 D6 E4 E6 F4 F5 F6".split())
    state = position(f"{walls} rC@E5 bC@I9 bM@I5 yC@I1 gC@A1", BLUE)
    _, after = play(state, "I5-H5")
    assert 0 in after.remaining and after.in_power() == 0


def test_34_orphans_are_inert_then_devolve() -> None:
    text = "X@A9 X@A8 X@B8 X@B9 rM@C5 rN@H1 bC@I9 bD@C8 yC@G7 gC@A1 gM@C3"
    green = position(text, GREEN)
    assert dest(green, "C3") == squares("A3 A5 B2 B3 B4 C1 C2 C4 D2 D3 D4 E1 E3")
    blue = position(text, BLUE)
    assert {"C6", "C7"} <= dest(blue, "C8") and "C5" not in dest(blue, "C8")
    yellow = position(text, YELLOW)
    _, after = play(yellow, "G7-E5")
    assert after.in_power() == 2 and controller(after, RED) is YELLOW
    assert to_move(after) == (GREEN, REGULAR) and turns(after, 1) == ["yellow*"]
    _, green_played = play(after, "C3-D3")
    assert to_move(green_played) == (YELLOW, BONUS)
    _, left = play(green_played, "E5-F5")
    assert controller(left, RED) is YELLOW and left.in_power() is None and to_move(left) == (BLUE, REGULAR)
    back_to_yellow = position("X@A9 X@A8 X@B8 X@B9 rM@C5 rN@H1 bC@I9 bD@C8 yC@F5 gC@A1 gM@D3", YELLOW,
                              controllers={RED: YELLOW})
    assert "H1" in {p.piece for p in legal_plays(back_to_yellow, 2)}  # the red necromobile is yellow's


def test_35_encirclement_while_someone_is_in_power() -> None:
    state = position(ENCIRCLE.format(piece="rM", yellow="yC@E5"), BLUE)
    _, after = play(state, "F9-C9 report B9")
    assert 0 not in after.remaining and controller(after, RED) is YELLOW
    assert to_move(after) == (YELLOW, BONUS)


def test_36_not_encircled() -> None:
    walls = " ".join(f"X@{s}" for s in "C3 C4 C5 D3 D5 E3 E4".split())
    open_maze = position(f"{walls} rC@D4 bC@I9 bM@I5 yC@I1 gC@A1", BLUE)
    for command in legal_plays(open_maze, 1):  # blue may kill red's chief, but never encircles it
        events = DJAMBI.decide(open_maze, command, SeededRng(0))
        assert PlayerEliminated(0, Elimination.ENCIRCLED) not in events
    living = position("rC@A9 X@A8 X@B8 rM@B9 X@C8 X@C9 bC@I9 bM@I5 yC@I1 gC@A1", BLUE)
    events, after = play(living, "I5-H5")
    assert 0 in after.remaining and not dest(position("rC@A9 X@A8 X@B8 rM@B9 X@C8 X@C9 bC@I9 yC@I1 gC@A1", RED), "B9")


def test_37_encirclement_by_manipulation() -> None:
    state = position("rC@I1 rD@E7 bC@G7 bM@H8 X@A8 X@B8 X@B9 yC@I9 gC@A1", RED)
    events, after = play(state, "E7-G7 place A9")
    assert "X@A9" in pieces(after) and PlayerEliminated(1, Elimination.ENCIRCLED) in events
    assert controller(after, BLUE) is None and after.is_orphaned(after.board[70] or 0)  # H8
    assert to_move(after) == (YELLOW, REGULAR)


# Chief death and game end

def test_38_killer_takes_all_armies_of_the_victim() -> None:
    state = position("rC@C5 rM@D6 bM@H8 yC@I1 yA@I5 gC@A1", YELLOW, controllers={BLUE: RED})
    _, after = play(state, "I5-C5")
    assert "X@I5" in pieces(after) and 0 not in after.remaining
    assert controller(after, RED) is YELLOW and controller(after, BLUE) is YELLOW


def test_39_last_chief_killed() -> None:
    state = position("rC@A9 rM@D4 bC@D5", RED)
    events, after = play(state, "D4-D5 place H1")
    assert events[-1] == GameEnded("win", (0,), "won")
    assert DJAMBI.status(after).finished and DJAMBI.status(after).ranking[0] == (0,)


# Three players (hostage = green)

def test_40_rotation() -> None:
    state = new_game(3)
    assert state.players == (RED, BLUE, YELLOW) and state.hostage is GREEN
    assert ["red", *turns(state, 5)] == ["red", "blue", "yellow", "red", "blue", "yellow"]
    assert all(state.controller(p) is None and not state.is_orphaned(p) for p in range(27, 36))


def test_41_killing_the_hostage_chief() -> None:
    state = position("rC@A9 rM@B4 gC@B2 gM@C1 bC@I9 yC@I1", RED, hostage=GREEN)
    _, after = play(state, "B4-B2 place F5")
    assert "X@F5" in pieces(after) and controller(after, GREEN) is RED
    assert after.remaining == (0, 1, 2) and to_move(after) == (BLUE, REGULAR)
    assert "C1" in {p.piece for p in legal_plays(position("rC@A9 rM@B2 X@F5 gM@C1 bC@I9 yC@I1", RED, hostage=GREEN,
                                                         controllers={GREEN: RED}), 0)}


def test_42_hostage_chief_dropped_into_the_maze() -> None:
    state = position("rC@A9 rD@B5 gC@C5 bC@I9 bA@E1 yC@I1", RED, hostage=GREEN)
    _, after = play(state, "B5-C5 place E5")
    assert "gC@E5" in pieces(after) and after.in_power() is None and to_move(after) == (BLUE, REGULAR)
    assert {"E2", "E3", "E4", "E5"} <= dest(after, "E1") and not {"E6", "E7", "E8", "E9"} & dest(after, "E1")


# Passing

def test_43_no_legal_action_pass() -> None:
    state = position("rM@I8 X@A9 bC@I9 X@H9 X@H8 yC@I1 gC@E1", GREEN)
    events, after = play(state, "E1-D1")
    assert events[-3:] == (TurnStarted(1, REGULAR, 2), TurnPassed(1, PassReason.NO_LEGAL_ACTION), TurnStarted(2, REGULAR, 3))
    assert 1 in after.remaining and to_move(after) == (YELLOW, REGULAR)


# Leaving: timeouts, draw offers and resignations

def test_44_four_timeouts_in_a_row_abandon_the_game() -> None:
    state = position("rC@A9 bC@I9 yC@I1 gC@A1", RED)
    for seat in range(4):
        events, state = send(state, Skip(seat))
    assert events[-2:] == (TurnPassed(3, PassReason.TIMEOUT), GameEnded("draw", (0, 1, 2, 3), "abandoned"))


def test_45_a_draw_offer_ends_with_its_proposer() -> None:
    state = position("rC@A9 bC@I9 yC@I1 gC@A1", RED)
    _, offered = send(state, ProposeDraw(2))
    _, accepted = send(offered, AcceptDraw(0))
    events, after = send(accepted, Resign(2))
    assert events[-1] == DrawOfferLapsed() and after.draw_offer is None
    assert ProposeDraw(0) in DJAMBI.legal_commands(after, 0) and AcceptDraw(1) not in DJAMBI.legal_commands(after, 1)
    assert refused(after, AcceptDraw(1)) == "no_draw_offered"
    _, still = send(accepted, Resign(1))  # an acceptor or a bystander leaving leaves the offer open
    assert still.draw_offer == {0, 2}


def test_46_a_resigned_chiefs_corpse_completes_an_encirclement() -> None:
    text = "bC@A9 X@A8 X@B8 rC@B9 rN@E3 yC@I1 gC@A1"
    for to_move_ in (RED, BLUE, YELLOW):
        events, after = send(position(text, to_move_), Resign(0))
        assert events[:4] == (PlayerEliminated(0, Elimination.RESIGNED), ArmyControlChanged(RED, 0, None),
                              PlayerEliminated(1, Elimination.ENCIRCLED), ArmyControlChanged(BLUE, 1, None))
        assert "X@B9" in pieces(after) and to_move(after) == (YELLOW, REGULAR)
    events, after = send(position(text.replace(" gC@A1", ""), BLUE), Resign(0))
    assert events[-1] == GameEnded("win", (2,), "won") and DJAMBI.status(after).ranking == ((2,), (0, 1), (3,))
    rescued = position(text + " bN@E7", YELLOW)
    assert 1 in send(rescued, Resign(0))[1].remaining
    in_power = position(text.replace("yC@I1", "yC@E5"), YELLOW, bonus_after=GREEN)
    _, after = send(in_power, Resign(0))
    assert 1 not in after.remaining and controller(after, RED) is YELLOW and controller(after, BLUE) is YELLOW


def send(state: DjambiState, command: Command) -> tuple[tuple[Event, ...], DjambiState]:
    events = DJAMBI.decide(state, command, SeededRng(0))
    for event in events:
        state = DJAMBI.evolve(state, event)
    return events, state


def refused(state: DjambiState, command: Command) -> str:
    with pytest.raises(RuleViolation) as refusal:
        DJAMBI.decide(state, command, SeededRng(0))
    return refusal.value.reason


def test_options_are_the_defaults_of_section_3() -> None:
    assert DjambiOptions() == DJAMBI.parse_options({}, 4)
