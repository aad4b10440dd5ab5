"""The four armies of nine pieces (§4) and where they start."""

from __future__ import annotations

from enum import StrEnum

from domain.djambi.board import NAMES, Square

Piece = int  # 0..35: army * 9 + slot


class Color(StrEnum):
    """The armies, in play order (§4)."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"


COLORS = tuple(Color)


class Kind(StrEnum):
    CHIEF = "chief"
    ASSASSIN = "assassin"
    REPORTER = "reporter"
    DIPLOMAT = "diplomat"
    NECROMOBILE = "necromobile"
    MILITANT = "militant"


LETTERS = {Kind.CHIEF: "C", Kind.ASSASSIN: "A", Kind.REPORTER: "R", Kind.DIPLOMAT: "D", Kind.NECROMOBILE: "N",
           Kind.MILITANT: "M"}
SLOTS = (Kind.CHIEF, Kind.ASSASSIN, Kind.REPORTER, Kind.DIPLOMAT, Kind.NECROMOBILE, *[Kind.MILITANT] * 4)
PIECES = range(len(COLORS) * len(SLOTS))


def piece(color: Color, slot: int) -> Piece:
    return COLORS.index(color) * len(SLOTS) + slot


def army_of(which: Piece) -> Color:
    return COLORS[which // len(SLOTS)]


def kind_of(which: Piece) -> Kind:
    return _KINDS[which]


_KINDS = tuple(SLOTS[which % len(SLOTS)] for which in PIECES)  # the rules ask a piece's kind often: looked up, not computed
NECROMOBILES = tuple(which for which in PIECES if kind_of(which) is Kind.NECROMOBILE)


def chief_of(color: Color) -> Piece:
    return piece(color, 0)


def piece_id(which: Piece) -> str:
    """Stable ids (§4): `red.chief`, `blue.assassin`, …, `green.militant4`."""
    return _PIECE_IDS[which]


def _piece_id(which: Piece) -> str:
    slot = which % len(SLOTS)
    suffix = str(slot - 4) if slot >= 5 else ""
    return f"{army_of(which)}.{kind_of(which)}{suffix}"


_PIECE_IDS = tuple(_piece_id(which) for which in PIECES)  # every event names its pieces: looked up, not written out
IDS = {piece_id(which): which for which in PIECES}

# §4: chief, assassin, reporter, diplomat, necromobile, militants — per army
_START = {
    Color.RED: "A9 B9 A8 B8 C7 A7 B7 C8 C9",
    Color.BLUE: "I9 H9 I8 H8 G7 G8 G9 H7 I7",
    Color.YELLOW: "I1 H1 I2 H2 G3 G1 G2 H3 I3",
    Color.GREEN: "A1 B1 A2 B2 C3 A3 B3 C1 C2",
}
START: dict[Piece, Square] = {
    piece(color, slot): NAMES[at] for color, squares in _START.items() for slot, at in enumerate(squares.split())
}
