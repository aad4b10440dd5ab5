"""What a seat sees (§18): Djambi has no secrets, so every seat and spectator sees the same
board, told plainly: whose turn it is, who controls which army, the corpses, who is in power
and who is out."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.game import Seat
from domain.djambi.board import COLUMNS, MAZE, name, square
from domain.djambi.events import Event, TurnKind
from domain.djambi.notation import piece_code, piece_notation
from domain.djambi.pieces import COLORS, PIECES, Color, Kind, army_of, kind_of, piece_id
from domain.djambi.state import DjambiState, Result


@dataclass(frozen=True, slots=True)
class PieceView:
    id: str
    army: Color
    kind: Kind
    square: str
    alive: bool
    notation: str  # as in rM@D4, or X@F4 for a corpse


@dataclass(frozen=True, slots=True)
class ArmyView:
    color: Color
    controller: Seat | None
    status: str  # "player" (its own player's), "captured", "orphaned", "hostage" or "destroyed"


@dataclass(frozen=True, slots=True)
class DjambiView:
    seat: Seat | None
    players: tuple[Color, ...]  # the colour of each seat
    remaining: tuple[Seat, ...]
    current: Seat | None
    turn_kind: TurnKind
    turn_no: int
    in_power: Seat | None
    maze: str | None  # the piece on E5, if any
    pieces: tuple[PieceView, ...]
    armies: tuple[ArmyView, ...]
    quiet_turns: int
    no_progress_limit: int
    draw_offer: tuple[Seat, ...] | None  # the seats that accepted the open offer
    result: Result | None


def view(state: DjambiState, seat: Seat | None) -> DjambiView:
    pieces = tuple(
        PieceView(piece_id(p), army_of(p), kind_of(p), name(square), state.alive[p], piece_notation(p, square, state.alive[p]))
        for p in PIECES if (square := state.where[p]) is not None
    )
    maze = state.board[MAZE]
    return DjambiView(
        seat=seat,
        players=state.players,
        remaining=state.remaining,
        current=state.current,
        turn_kind=state.kind,
        turn_no=state.turn_no,
        in_power=state.in_power(),
        maze=None if maze is None else piece_id(maze),
        pieces=pieces,
        armies=tuple(ArmyView(color, state.controllers[i], _army_status(state, color, state.controllers[i]))
                     for i, color in enumerate(COLORS)),
        quiet_turns=state.quiet,
        no_progress_limit=state.options.no_progress_limit,
        draw_offer=None if state.draw_offer is None else tuple(sorted(state.draw_offer)),
        result=state.result,
    )


def _army_status(state: DjambiState, color: Color, controller: Seat | None) -> str:
    if not any(state.alive[p] and state.where[p] is not None for p in PIECES if army_of(p) is color):
        return "destroyed"
    if color is state.hostage:
        return "hostage"
    if controller is None:
        return "orphaned"
    return "player" if state.players[controller] is color else "captured"


def redact(event: Event, seat: Seat | None) -> Event:
    """Nothing in Djambi is secret."""
    return event


def render(state: DjambiState, seat: Seat | None) -> str:
    """The board as text, row 1 at the top as in the rules' diagrams, then who is where."""
    lines = ["    " + "   ".join(COLUMNS)]
    for row in range(1, 10):
        cells = []
        for column in range(9):
            piece = state.board[square(column, row)]
            cells.append(". " if piece is None else piece_code(piece, state.alive[piece]).ljust(2))
        lines.append((f"{row}   " + "  ".join(cells)).rstrip())
    if state.current is not None:
        lines.append(f"{state.color_of(state.current)} (seat {state.current}) to move, {state.kind.value} turn {state.turn_no}")
    ruler = state.in_power()
    lines.append(f"in power: {'nobody' if ruler is None else state.color_of(ruler)}; "
                 f"out: {', '.join(state.color_of(s) for s in range(state.seats) if s not in state.remaining) or 'nobody'}")
    armies = [f"{army.color.value} {army.status}" + ("" if army.controller is None else f" (seat {army.controller})")
              for army in view(state, seat).armies]
    lines.append("armies: " + ", ".join(armies))
    if state.result is not None:
        lines.append(f"result: {state.result.result}, {', '.join(state.color_of(s) for s in state.result.winners)}")
    return "\n".join(lines)
