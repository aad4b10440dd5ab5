"""Squares, pieces and actions in a notation that round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.djambi.board import NAMES, SQUARES, name, parse
from domain.djambi.notation import Move, Placed, format_move, parse_move, parse_position, piece_notation
from domain.djambi.pieces import IDS, PIECES, Color, Kind, piece_id

SQUARE_NAMES = st.sampled_from(sorted(NAMES))
OPTIONAL = st.none() | SQUARE_NAMES


def test_squares_are_a1_to_i9() -> None:
    assert [name(s) for s in SQUARES][:10] == ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1", "A2"]
    assert parse("e5") == NAMES["E5"] == 40 and all(parse(name(s)) == s for s in SQUARES)
    for bad in ("J1", "A0", "A10", "", "E 5", "55"):
        with pytest.raises(ValueError):
            parse(bad)


def test_piece_ids_are_stable_and_unique() -> None:
    assert [piece_id(p) for p in PIECES[:9]] == [
        "red.chief", "red.assassin", "red.reporter", "red.diplomat", "red.necromobile",
        "red.militant1", "red.militant2", "red.militant3", "red.militant4"]
    assert len(IDS) == 36 and all(IDS[piece_id(p)] == p for p in PIECES)


def test_positions_read_and_write_the_same_notation() -> None:
    assert parse_position("rC@A9 X@F4 gM@c3") == [
        Placed(Color.RED, Kind.CHIEF, 80 - 8), Placed(None, None, NAMES["F4"]), Placed(Color.GREEN, Kind.MILITANT, NAMES["C3"])]
    assert piece_notation(IDS["blue.diplomat"], NAMES["H8"], True) == "bD@H8"
    assert piece_notation(IDS["blue.diplomat"], NAMES["H8"], False) == "X@H8"
    for bad in ("rQ@A1", "A1", "zC@A1", "rC@J9"):
        with pytest.raises(ValueError):
            parse_position(bad)


@given(SQUARE_NAMES, SQUARE_NAMES, OPTIONAL, OPTIONAL, OPTIONAL)
def test_actions_round_trip(piece: str, to: str, place: str | None, exit: str | None, report: str | None) -> None:
    move = Move(piece, to, place, exit, report)
    assert parse_move(format_move(move)) == move


def test_action_notation() -> None:
    assert format_move(Move("H5", "E5", place="G7", exit="H8")) == "H5-E5 exit H8 place G7"
    assert parse_move("D2-D6 report C6") == Move("D2", "D6", report="C6")
    for bad in ("D2", "D2-D6 report", "D2-D6 shoot C6", "D2-D6 place A1 place A2", "D2-Z6"):
        with pytest.raises(ValueError):
            parse_move(bad)
