"""Readable notation that round-trips: pieces as `rM@D4` (a corpse: `X@F4`), actions as
`E3-F2 place E3`, `D2-D6 report C6`, `B5-E5 exit E8`, `H5-E5 exit H8 place G7`."""

from __future__ import annotations

from dataclasses import dataclass

from domain.djambi.board import name, parse
from domain.djambi.pieces import COLORS, LETTERS, Color, Kind, army_of, kind_of

KINDS = {letter: kind for kind, letter in LETTERS.items()}
COLOR_LETTERS = {color.value[0]: color for color in COLORS}
CORPSE = "X"


@dataclass(frozen=True, slots=True)
class Placed:
    """One entry of a position: a living piece of a colour and kind, or a corpse (both None)."""

    color: Color | None
    kind: Kind | None
    square: int


def piece_code(piece: int, alive: bool) -> str:
    """`rM`, or `X` for a corpse."""
    return f"{army_of(piece).value[0]}{LETTERS[kind_of(piece)]}" if alive else CORPSE


def piece_notation(piece: int, square: int, alive: bool) -> str:
    return f"{piece_code(piece, alive)}@{name(square)}"


def parse_position(text: str) -> list[Placed]:
    """`rC@A9 rM@D4 X@F4` → the pieces it lists; ValueError on anything else."""
    placed = []
    for token in text.split():
        what, _, where = token.partition("@")
        if what == CORPSE:
            placed.append(Placed(None, None, parse(where)))
        elif len(what) == 2 and what[0] in COLOR_LETTERS and what[1] in KINDS:
            placed.append(Placed(COLOR_LETTERS[what[0]], KINDS[what[1]], parse(where)))
        else:
            raise ValueError(f"{token!r} is not a piece such as rM@D4 or X@F4")
    return placed


@dataclass(frozen=True, slots=True)
class Move:
    """An action as squares (§18.1): what moves where, and its choices."""

    piece: str
    to: str
    place: str | None = None
    exit: str | None = None
    report: str | None = None


FIELDS = ("exit", "place", "report")


def format_move(move: Move) -> str:
    text = f"{move.piece}-{move.to}"
    for field in FIELDS:
        if (value := getattr(move, field)) is not None:
            text += f" {field} {value}"
    return text


def parse_move(text: str) -> Move:
    """The action `text` writes; ValueError if it is not in the notation."""
    head, *rest = text.split()
    piece, dash, to = head.partition("-")
    if not dash or len(rest) % 2:
        raise ValueError(f"{text!r} is not an action such as 'E3-F2 place E3'")
    choices = dict(zip(rest[::2], rest[1::2]))
    if set(choices) - set(FIELDS) or len(choices) != len(rest) // 2:
        raise ValueError(f"{text!r}: the choices are {', '.join(FIELDS)}, each at most once")
    return Move(name(parse(piece)), name(parse(to)), **{field: name(parse(v)) for field, v in choices.items()})
