"""Djambi positions written as in the spec's scenarios (`rC@A9 rM@D4 X@F4`), and helpers to
play on them in the spec's own notation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.djambi.board import SQUARES
from domain.djambi.commands import Play
from domain.djambi.decide import decide, next_player
from domain.djambi.events import Event, TurnKind, TurnStarted
from domain.djambi.evolve import evolve, initial
from domain.djambi.notation import Move, format_move, parse_move, parse_position, piece_notation
from domain.djambi.options import DjambiOptions
from domain.djambi.pieces import COLORS, PIECES, SLOTS, Color, army_of, kind_of
from domain.djambi.rules import legal_plays
from domain.djambi.state import DjambiState

RED, BLUE, YELLOW, GREEN = COLORS


def position(
    text: str,
    to_move: Color,
    *,
    bonus_after: Color | None = None,
    hostage: Color | None = None,
    controllers: dict[Color, Color | None] | None = None,
    **options: Any,
) -> DjambiState:
    """The position `text` with `to_move` to play: a regular turn, or a bonus turn taken after
    `bonus_after`'s regular one. The players are the colours with a living chief; each controls
    its own army unless `controllers` says otherwise; an army without a player is orphaned.
    With a `hostage` the game has three seats."""
    seats = 3 if hostage else 4
    state = initial(DjambiOptions(**options, **({"hostage_army": hostage} if hostage else {})), seats)
    players = tuple(color for color in COLORS if color is not hostage)
    board: list[int | None] = [None] * len(SQUARES)
    where: list[int | None] = [None] * len(PIECES)
    alive = [False] * len(PIECES)
    unused = list(PIECES)
    for placed in sorted(parse_position(text), key=lambda placed: placed.color is None):  # the living first
        if placed.color is None:
            piece = unused[-1]  # corpses: any piece not otherwise on the board
        else:
            piece = next(p for p in unused if army_of(p) is placed.color and kind_of(p) is placed.kind)
            alive[piece] = True
        unused.remove(piece)
        board[placed.square], where[piece] = piece, placed.square
    chiefs = {army_of(p) for p in PIECES if alive[p] and p % len(SLOTS) == 0}
    remaining = tuple(seat for seat, color in enumerate(players) if color in chiefs)
    owners = {color: color if color in chiefs and color is not hostage else None for color in COLORS} | (controllers or {})
    current = players.index(to_move)
    return replace(
        state,
        players=players, hostage=hostage, board=tuple(board), where=tuple(where), alive=tuple(alive),
        controllers=tuple(None if owners[color] is None else players.index(owners[color]) for color in COLORS),  # type: ignore[arg-type]
        remaining=remaining,
        out_at=tuple(None if seat in remaining else 0 for seat in range(seats)),
        current=current,
        kind=TurnKind.BONUS if bonus_after else TurnKind.REGULAR,
        anchor=players.index(bonus_after) if bonus_after else current,
        turn_no=1,
    )


def seat(state: DjambiState, color: Color) -> int:
    return state.players.index(color)


def command(state: DjambiState, text: str) -> Play:
    """The current seat's play written as `E3-F2 place E3`."""
    move = parse_move(text)
    assert state.current is not None
    return Play(state.current, move.piece, move.to, move.place, move.exit, move.report)


def play(state: DjambiState, text: str) -> tuple[tuple[Event, ...], DjambiState]:
    events = decide(state, command(state, text), SeededRng(0))
    after = state
    for event in events:
        after = evolve(after, event)
    return events, after


def rejected(state: DjambiState, text: str) -> str:
    """The reason the current seat's play `text` is refused."""
    try:
        decide(state, command(state, text), SeededRng(0))
    except RuleViolation as violation:
        return violation.reason
    raise AssertionError(f"{text} was accepted")


def dest(state: DjambiState, square: str) -> set[str]:
    """dest(P) of §20: the `to` squares of the legal commands of the piece on `square`."""
    assert state.current is not None
    return {p.to for p in legal_plays(state, state.current) if p.piece == square}


def plays(state: DjambiState, square: str, to: str) -> set[str]:
    """The legal commands from `square` to `to`, in notation."""
    assert state.current is not None
    return {format_move(Move(p.piece, p.to, p.place, p.exit, p.report))
            for p in legal_plays(state, state.current) if (p.piece, p.to) == (square, to)}


def pieces(state: DjambiState) -> set[str]:
    """The board in the spec's notation, corpses as X."""
    return {piece_notation(p, at, state.alive[p]) for p in PIECES if (at := state.where[p]) is not None}


def to_move(state: DjambiState) -> tuple[Color, TurnKind]:
    assert state.current is not None
    return state.players[state.current], state.kind


def turns(state: DjambiState, count: int) -> list[str]:
    """The next `count` turns if nobody's move changes who is in power, as `blue` or `blue*`
    (a bonus turn)."""
    sequence = []
    for _ in range(count):
        assert state.current is not None
        following, kind = next_player(state, state.current, state.kind)
        state = evolve(state, TurnStarted(following, kind, state.turn_no + 1))
        sequence.append(state.players[following] + ("*" if kind is TurnKind.BONUS else ""))
    return sequence


def controller(state: DjambiState, army: Color) -> Color | None:
    seat_ = state.controllers[COLORS.index(army)]
    return None if seat_ is None else state.players[seat_]


def squares(text: str) -> set[str]:
    return set(text.split())

