"""What a piece may do: who may act with it (§5), movement (§6), who may be targeted (§7),
each piece's action (§8), the maze actions (§9) and the choices that complete an action
(§18.1). Each rule is checked by one function here: `rules.violation` runs them on a command,
and `actions` and `choices` (or `choice_sets`, grouped) list the candidates they let through."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.djambi.board import MAZE, ORTHOGONAL_NEIGHBOURS, RAYS, SQUARES, Square, name
from domain.djambi.pieces import Kind, Piece, chief_of, kind_of, piece_id
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


# §5: one piece of an army the player controls

def piece_violation(state: DjambiState, seat: Seat, piece: Piece) -> RuleViolation | None:
    """A player acts with a living piece of an army it controls (§5): never an orphaned (§12) or hostage (§14) one."""
    if is_own(state, seat, piece):
        return None
    whose = "an orphaned piece (§12)" if state.is_orphaned(piece) else (
        "a hostage piece (§14)" if state.is_hostage(piece) else "not a piece of an army you control")
    return RuleViolation("not_your_piece", f"{piece_id(piece)} is {whose}.")


# §6: movement — straight lines, no jumping; militants go one or two squares

def reachable(state: DjambiState, start: Square, kind: Kind) -> Iterator[Square]:
    """Every square a piece of `kind` on `start` reaches along each line, up to and including the first occupied (§6)."""
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
    """A piece of an army the player controls, captured or devolved ones included."""
    return state.controller(piece) == seat


def is_killable(state: DjambiState, seat: Seat, piece: Piece) -> bool:
    """A living piece, not orphaned, not the player's own chief, nor (`self_kill = false`) an own piece (§7)."""
    if not state.alive[piece] or state.is_orphaned(piece) or piece == chief_of(state.color_of(seat)):
        return False
    return state.options.self_kill or not is_own(state, seat, piece)


def is_manipulable(state: DjambiState, seat: Seat, piece: Piece) -> bool:
    """A living piece that is not orphaned and not controlled by the player."""
    return state.alive[piece] and not state.is_orphaned(piece) and not is_own(state, seat, piece)


# §6 table, §8, §9.3: what moving `piece` onto `to` does

def action(state: DjambiState, seat: Seat, piece: Piece, to: Square) -> Action | RuleViolation:
    """The action of moving `piece` onto `to` (a square it can reach), or why it may not."""
    occupant, start = state.board[to], state.where[piece]
    assert start is not None
    where = f"{name(start)}-{name(to)}"
    if occupant is None:
        return _onto_empty(kind_of(piece), to, where)
    if not state.alive[occupant]:
        return _onto_corpse(state, seat, piece, to, where)
    return _onto_living(state, seat, piece, to, occupant, where)


def _onto_empty(kind: Kind, to: Square, where: str) -> Action | RuleViolation:
    """A move onto an empty square: any piece's, but only a chief's onto the maze (§9.1)."""
    if to != MAZE:
        return Action.REPORT if kind is Kind.REPORTER else Action.MOVE
    if kind is Kind.CHIEF:
        return Action.MOVE
    return RuleViolation("illegal_destination", f"{where}: only a chief may stay on the maze (§9.1).")


def _onto_corpse(state: DjambiState, seat: Seat, piece: Piece, to: Square, where: str) -> Action | RuleViolation:
    """A move onto a corpse: the necromobile's alone (§6)."""
    if kind_of(piece) is Kind.NECROMOBILE:
        return _enter_maze(state, seat, piece, where) if to == MAZE else Action.CARRY
    return RuleViolation("illegal_destination", f"{where}: only a necromobile may move onto a corpse (§6).")


def _onto_living(state: DjambiState, seat: Seat, piece: Piece, to: Square, occupant: Piece, where: str) -> Action | RuleViolation:
    """A move onto a living piece: a kill, an assassination or a manipulation, as the piece may (§8)."""
    kind = kind_of(piece)
    if to == MAZE and kind_of(occupant) is not Kind.CHIEF:
        return RuleViolation("illegal_destination", f"{where}: only a chief may stand on the maze (§9.1).")
    match kind:
        case Kind.MILITANT if to == MAZE:
            return RuleViolation("illegal_destination", f"{where}: a militant can never kill the chief in power (§8.1).")
        case Kind.MILITANT | Kind.CHIEF | Kind.ASSASSIN:
            if not is_killable(state, seat, occupant):
                return RuleViolation("illegal_destination", f"{where}: {_why_not_killable(state, seat, occupant)}")
            if kind is Kind.ASSASSIN:
                return _enter_maze(state, seat, piece, where) if to == MAZE else Action.ASSASSINATE
            return Action.KILL
        case Kind.DIPLOMAT:
            if not is_manipulable(state, seat, occupant):
                why = "it is orphaned (§12)" if state.is_orphaned(occupant) else "it is one of your own (§7)"
                return RuleViolation("illegal_destination", f"{where}: the diplomat may not manipulate that piece: {why}.")
            return _enter_maze(state, seat, piece, where) if to == MAZE else Action.MANIPULATE
        case Kind.REPORTER:
            return RuleViolation("illegal_destination", f"{where}: a reporter moves only onto an empty square (§8.4).")
        case _:
            return RuleViolation("illegal_destination", f"{where}: a necromobile moves only onto empty squares and corpses (§8.6).")


def _enter_maze(state: DjambiState, seat: Seat, piece: Piece, where: str) -> Action | RuleViolation:
    """A maze action, if the piece has an exit: an entry that cannot be completed is no legal destination (§9.3)."""
    if not exits(state, seat, piece):
        return RuleViolation("illegal_destination", f"{where}: the {kind_of(piece)} would find no exit from the maze (§9.3).")
    return Action.MAZE


def _why_not_killable(state: DjambiState, seat: Seat, piece: Piece) -> str:
    if state.is_orphaned(piece):
        return "orphaned pieces are inert and cannot be killed (§12)."
    if piece == chief_of(state.color_of(seat)):
        return "nobody may kill their own chief (§7)."
    return "self_kill is off: you may not kill your own pieces (§7)."


def kills_at_destination(act: Action, piece: Piece) -> bool:
    """Whether the action kills what stands where it goes: a militant's or chief's kill, an assassination, an assassin's maze action."""
    return act in (Action.KILL, Action.ASSASSINATE) or (act is Action.MAZE and kind_of(piece) is Kind.ASSASSIN)


# §18.1: the choices that complete an action — `exit`, `place`, `report` — each one rule

def choice_violation(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action, choice: Choice) -> RuleViolation | None:
    """Why these choices do not complete the action, or None (§18.1, §18.2)."""
    reason = (exit_problem(state, seat, piece, act, choice.exit)
              or place_problem(state, piece, to, act, choice.exit, choice.place)
              or report_problem(state, seat, piece, to, act, choice.report))
    return None if reason is None else RuleViolation(reason, _explain(reason, state, seat, piece, to, choice))


def exit_problem(state: DjambiState, seat: Seat, piece: Piece, act: Action, exit: Square | None) -> str | None:
    """A maze action names where the piece leaves E5 to, one of its `exits` (§9.3 step 2); no other action names an exit."""
    if act is not Action.MAZE:
        return None if exit is None else "exit_forbidden"
    if exit is None:
        return "exit_required"
    return None if exit in exits(state, seat, piece) else "illegal_exit"


def needs_place(piece: Piece, act: Action) -> bool:
    """Whether the player puts down a displaced piece (`place`): any victim or load but the assassin's (§8, §9.3, §18.1)."""
    # the assassin's victim goes to the assassin's start square instead
    return act in _PLACING or (act is Action.MAZE and kind_of(piece) is not Kind.ASSASSIN)


_PLACING = frozenset({Action.KILL, Action.MANIPULATE, Action.CARRY})


def place_problem(state: DjambiState, piece: Piece, to: Square, act: Action, exit: Square | None,
                  place: Square | None) -> str | None:
    """An action that displaces a piece names a square `is_place` allows for it; no other action names a place."""
    if not needs_place(piece, act):
        return None if place is None else "place_forbidden"
    if place is None:
        return "place_required"
    return None if is_place(state, piece, to, exit, place) else "illegal_place"


def is_place(state: DjambiState, piece: Piece, to: Square, exit: Square | None, square: Square) -> bool:
    """Whether a displaced piece may be put on `square`: an empty field square once the action has moved, or E5 (§8.5)."""
    # the acting piece's start square is free, its final square is not; E5 only for a chief a
    # diplomat manipulated off a field square (`diplomat_chief_into_maze`)
    if square == (to if exit is None else exit):
        return False
    if square == MAZE:
        displaced = state.board[to]
        return (exit is None and kind_of(piece) is Kind.DIPLOMAT and state.board[MAZE] is None and displaced is not None
                and kind_of(displaced) is Kind.CHIEF and state.options.diplomat_chief_into_maze)
    return state.board[square] is None or square == state.where[piece]


def report_problem(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action, report: Square | None) -> str | None:
    """Only a reporter reports, on one of its `report_targets`; it may abstain unless `reporter_may_abstain` is off and it has a target (§8.4)."""
    if act is not Action.REPORT:
        return None if report is None else "report_forbidden"
    targets = report_targets(state, seat, piece, to)
    if report is None:
        return "report_required" if targets and not state.options.reporter_may_abstain else None
    return None if report in targets else "illegal_report"


def _explain(reason: str, state: DjambiState, seat: Seat, piece: Piece, to: Square, choice: Choice) -> str:
    """The sentence for a player that goes with a choice's `reason`."""
    start, kind = state.where[piece], kind_of(piece)
    assert start is not None
    where = f"{name(start)}-{name(to)}"
    match reason:
        case "exit_required":
            return f"{where}: say where the {kind} leaves the maze to (`exit`, §9.3)."
        case "exit_forbidden":
            return f"{where} is no maze action: `exit` has no meaning here."
        case "illegal_exit":
            assert choice.exit is not None
            return (f"{where} exit {name(choice.exit)}: the exit is a move from E5 to an empty square "
                    "(not the assassin's start square), or a master move onto a chief it may target (§9.3, §9.5).")
        case "place_required":
            return f"{where}: say where the displaced piece goes (`place`)."
        case "place_forbidden":
            why = "the corpse goes to the assassin's start square (§8.3)" if kind is Kind.ASSASSIN else "nothing is displaced"
            return f"{where}: `place` has no meaning here: {why}."
        case "illegal_place":
            assert choice.place is not None
            return (f"{where} place {name(choice.place)}: the displaced piece goes on an empty field square, "
                    "not on the maze and not where the acting piece ends (§8, §9.3).")
        case "report_forbidden":
            return f"{where}: only a reporter reports (§8.4)."
        case "illegal_report":
            assert choice.report is not None
            return (f"{where} report {name(choice.report)}: the reporter kills a killable piece on a square "
                    "orthogonally next to where it arrives (§8.4).")
        case _:
            targets = report_targets(state, seat, piece, to)
            return f"{where}: the reporter must kill one of {', '.join(map(name, targets))} (§8.4)."


def exits(state: DjambiState, seat: Seat, piece: Piece) -> dict[Square, bool]:
    """Where a piece in the maze may leave to (§9.3 step 2), each marked True for a master move onto a chief (§9.5)."""
    # the held piece is off the board and the start square is free, but the assassin may not
    # exit onto it: its victim's corpse goes there
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


# the listings: candidates, filtered through the checks above

# the candidates for a `report` (none, or a square next to where the piece goes) and an `exit`
# (none, or a square on the maze's lines); an action other than a report (a maze action) has only
# NONE, as `report_problem` (`exit_problem`) refuses it anything else
REPORTS = tuple((None, *ORTHOGONAL_NEIGHBOURS[to]) for to in SQUARES)
EXITS = (None, *sorted(square for ray in RAYS[MAZE] for square in ray))
NONE = (None,)


def choices(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action) -> Iterator[Choice]:
    """Every complete set of choices for an action (§18.1), in a stable order."""
    for report, exit, places in choice_sets(state, seat, piece, to, act):
        for place in places:
            yield Choice(place=place, exit=exit, report=report)


def choice_sets(state: DjambiState, seat: Seat, piece: Piece, to: Square,
                act: Action) -> Iterator[tuple[Square | None, Square | None, Sequence[Square | None]]]:
    """An action's complete choices grouped as §18.3 suggests: each `report` and `exit`, with the `place`s left for it."""
    reports = [report for report in (REPORTS[to] if act is Action.REPORT else NONE)
               if report_problem(state, seat, piece, to, act, report) is None]
    leaving = [exit for exit in (EXITS if act is Action.MAZE else NONE) if exit_problem(state, seat, piece, act, exit) is None]
    placing = needs_place(piece, act)
    for report in reports:
        for exit in leaving:
            # what `place_problem` accepts, with `needs_place` asked once rather than for each square
            places = [square for square in SQUARES if is_place(state, piece, to, exit, square)] if placing else NONE
            yield report, exit, places


def actions(state: DjambiState, seat: Seat) -> Iterator[tuple[Piece, Square, Action]]:
    """Every (piece, destination, action) `seat` may play (§5, §6, §9.3), each one that can be completed."""
    # a maze entry has an exit, and 36 pieces leave empty squares to place on
    for piece in state.pieces_of(seat):
        start = state.where[piece]
        assert start is not None
        for to in reachable(state, start, kind_of(piece)):
            act = action(state, seat, piece, to)
            if isinstance(act, Action):
                yield piece, to, act
