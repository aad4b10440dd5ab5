"""What a piece may do: movement (§6), who may be targeted (§7), each piece's action (§8) and
the maze actions (§9). Every rule about a single action lives here; `rules.py` asks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.djambi.board import MAZE, ORTHOGONAL_NEIGHBOURS, RAYS, SQUARES, Square, name
from domain.djambi.pieces import Kind, Piece, chief_of, kind_of
from domain.djambi.state import DjambiState


class Action(StrEnum):
    """What moving a piece to a square does (the table of §6)."""

    MOVE = "move"  # onto an empty field square; a chief onto an empty maze takes power
    KILL = "kill"  # militant or chief onto a killable piece: the corpse is placed (§8.1, §8.2)
    ASSASSINATE = "assassinate"  # assassin: the corpse goes to the assassin's start square (§8.3)
    REPORT = "report"  # reporter onto an empty field square, then may kill a neighbour (§8.4)
    MANIPULATE = "manipulate"  # diplomat onto a manipulable piece: it is placed elsewhere (§8.5)
    CARRY = "carry"  # necromobile onto a corpse: it is placed elsewhere (§8.6)
    MAZE = "maze"  # assassin, diplomat or necromobile onto E5: act, exit, put back (§9.3)


@dataclass(frozen=True, slots=True)
class Choice:
    """The choices that complete an action (§18.1)."""

    place: Square | None = None
    exit: Square | None = None
    report: Square | None = None


# §6: movement — straight lines, no jumping; militants go one or two squares

def reachable(state: DjambiState, start: Square, kind: Kind) -> Iterator[Square]:
    """Every square a piece of `kind` on `start` can move to, ignoring what stands there: along
    each line up to and including the first occupied square."""
    reach = 2 if kind is Kind.MILITANT else len(SQUARES)
    board = state.board
    for ray in RAYS[start]:
        for distance, square in enumerate(ray):
            if distance == reach:
                break
            yield square
            if board[square] is not None:
                break


# §7: who may be targeted

def is_own(state: DjambiState, seat: Seat, piece: Piece) -> bool:
    return state.controller(piece) == seat


def is_killable(state: DjambiState, seat: Seat, piece: Piece) -> bool:
    """A living piece that is not orphaned, not the player's own chief, and (with
    `self_kill = false`) not an own piece at all."""
    if not state.alive[piece] or state.is_orphaned(piece) or piece == chief_of(state.color_of(seat)):
        return False
    return state.options.self_kill or not is_own(state, seat, piece)


def is_manipulable(state: DjambiState, seat: Seat, piece: Piece) -> bool:
    """A living piece that is not orphaned and not controlled by the player."""
    return state.alive[piece] and not state.is_orphaned(piece) and not is_own(state, seat, piece)


# §6 table, §8, §9.3: what moving `piece` onto `to` does

def action(state: DjambiState, seat: Seat, piece: Piece, to: Square) -> Action | RuleViolation:
    """The action of moving `piece` onto `to` (a square it can reach), or why it may not."""
    kind, occupant, start = kind_of(piece), state.board[to], state.where[piece]
    assert start is not None
    where = f"{name(start)}-{name(to)}"
    if occupant is None:
        if to != MAZE:
            return Action.REPORT if kind is Kind.REPORTER else Action.MOVE
        if kind is Kind.CHIEF:
            return Action.MOVE
        return RuleViolation("illegal_destination", f"{where}: only a chief may stay on the maze (§9.1).")
    if not state.alive[occupant]:
        if kind is Kind.NECROMOBILE:
            return Action.MAZE if to == MAZE else Action.CARRY
        return RuleViolation("illegal_destination", f"{where}: only a necromobile may move onto a corpse (§6).")
    if to == MAZE and kind_of(occupant) is not Kind.CHIEF:
        return RuleViolation("illegal_destination", f"{where}: only a chief may stand on the maze (§9.1).")
    match kind:
        case Kind.MILITANT if to == MAZE:
            return RuleViolation("illegal_destination", f"{where}: a militant can never kill the chief in power (§8.1).")
        case Kind.MILITANT | Kind.CHIEF | Kind.ASSASSIN:
            if not is_killable(state, seat, occupant):
                return RuleViolation("illegal_destination", f"{where}: {_why_not_killable(state, seat, occupant)}")
            if kind is Kind.ASSASSIN:
                return Action.MAZE if to == MAZE else Action.ASSASSINATE
            return Action.KILL
        case Kind.DIPLOMAT:
            if not is_manipulable(state, seat, occupant):
                why = "it is orphaned (§12)" if state.is_orphaned(occupant) else "it is one of your own (§7)"
                return RuleViolation("illegal_destination", f"{where}: the diplomat may not manipulate that piece: {why}.")
            return Action.MAZE if to == MAZE else Action.MANIPULATE
        case Kind.REPORTER:
            return RuleViolation("illegal_destination", f"{where}: a reporter moves only onto an empty square (§8.4).")
        case _:
            return RuleViolation("illegal_destination", f"{where}: a necromobile moves only onto empty squares and corpses (§8.6).")


def _why_not_killable(state: DjambiState, seat: Seat, piece: Piece) -> str:
    if state.is_orphaned(piece):
        return "orphaned pieces are inert and cannot be killed (§12)."
    if piece == chief_of(state.color_of(seat)):
        return "nobody may kill their own chief (§7)."
    return "self_kill is off: you may not kill your own pieces (§7)."


def kills_at_destination(act: Action, piece: Piece) -> bool:
    """Whether the action kills what stands where it goes: a militant's or chief's kill, an
    assassination, or an assassin's maze action."""
    return act in (Action.KILL, Action.ASSASSINATE) or (act is Action.MAZE and kind_of(piece) is Kind.ASSASSIN)


# the choices that complete each action

def place_squares(state: DjambiState, seat: Seat, piece: Piece, to: Square, exit: Square | None = None) -> set[Square]:
    """Where the displaced piece may be put: any empty field square once the action has moved
    (the acting piece's start square is free, its final square is not); E5 only for a chief a
    diplomat manipulated off a field square (`diplomat_chief_into_maze`, §8.5)."""
    start, final = state.where[piece], to if exit is None else exit
    board = state.board
    squares = {square for square in SQUARES if (board[square] is None or square == start) and square not in (final, MAZE)}
    displaced = board[to]
    if (exit is None and kind_of(piece) is Kind.DIPLOMAT and board[MAZE] is None and displaced is not None
            and kind_of(displaced) is Kind.CHIEF and state.options.diplomat_chief_into_maze):
        squares.add(MAZE)
    return squares


def exits(state: DjambiState, seat: Seat, piece: Piece) -> dict[Square, bool]:
    """Where a piece that entered the maze may leave to (§9.3 step 2), each marked True if it is
    a master move onto a living chief (§9.5). The held piece is off the board and the start
    square is free, but the assassin may not exit onto it: its victim's corpse goes there."""
    start, kind = state.where[piece], kind_of(piece)
    found: dict[Square, bool] = {}
    for ray in RAYS[MAZE]:
        for square in ray:
            occupant = None if square == start else state.board[square]
            if occupant is None:
                if not (square == start and kind is Kind.ASSASSIN):
                    found[square] = False
                continue
            if state.options.master_moves and kind_of(occupant) is Kind.CHIEF and state.alive[occupant] and (
                (kind is Kind.ASSASSIN and is_killable(state, seat, occupant))
                or (kind is Kind.DIPLOMAT and is_manipulable(state, seat, occupant))
            ):
                found[square] = True
            break
    return found


def report_targets(state: DjambiState, seat: Seat, piece: Piece, to: Square) -> list[Square]:
    """The killable pieces orthogonally next to where the reporter arrives (§8.4)."""
    start = state.where[piece]
    return [square for square in ORTHOGONAL_NEIGHBOURS[to]
            if square != start and (victim := state.board[square]) is not None and is_killable(state, seat, victim)]


def choices(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action) -> Iterator[Choice]:
    """Every complete set of choices for an action (§18.1): none, one per place, exit or report."""
    match act:
        case Action.MOVE | Action.ASSASSINATE:
            yield Choice()
        case Action.KILL | Action.MANIPULATE | Action.CARRY:
            for place in sorted(place_squares(state, seat, piece, to)):
                yield Choice(place=place)
        case Action.REPORT:
            targets = report_targets(state, seat, piece, to)
            if state.options.reporter_may_abstain or not targets:
                yield Choice()
            for target in targets:
                yield Choice(report=target)
        case Action.MAZE:
            for exit in sorted(exits(state, seat, piece)):
                if kind_of(piece) is Kind.ASSASSIN:
                    yield Choice(exit=exit)
                else:
                    for place in sorted(place_squares(state, seat, piece, to, exit)):
                        yield Choice(place=place, exit=exit)


def actions(state: DjambiState, seat: Seat) -> Iterator[tuple[Piece, Square, Action]]:
    """Every (piece, destination) `seat` may play, with its action; a maze entry only when it
    has an exit (§9.3)."""
    for piece in state.pieces_of(seat):
        start = state.where[piece]
        assert start is not None
        for to in reachable(state, start, kind_of(piece)):
            act = action(state, seat, piece, to)
            if isinstance(act, Action) and (act is not Action.MAZE or exits(state, seat, piece)):
                yield piece, to, act
