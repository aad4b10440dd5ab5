"""What a Djambi command causes, once `rules.violation` lets it through: the action's board
effect (§8, §9), army capture (§11.1), the end of a turn in the order of §10 (encirclement
§11.2, devolution §12, victory), the turn order (§13), passes and draws (§16, §18.4)."""

from __future__ import annotations

from typing import assert_never

from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng
from domain.djambi.board import MAZE, NEIGHBOURS, SQUARES, Square, column_of, name, optional_name, row_of
from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, Play, ProposeDraw, Resign, Skip
from domain.djambi.events import (
    ActionTaken,
    ArmyControlChanged,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    DrawOfferLapsed,
    Elimination,
    EndReason,
    Event,
    GameEnded,
    Kill,
    Outcome,
    PassReason,
    PieceMove,
    PlayerEliminated,
    TurnKind,
    TurnPassed,
    TurnStarted,
)
from domain.djambi.evolve import evolve
from domain.djambi.moves import Action, Choice, actions
from domain.djambi.notation import Move, format_move
from domain.djambi.options import Encirclement, NecromobileRescue
from domain.djambi.pieces import COLORS, IDS, NECROMOBILES, Kind, Piece, army_of, kind_of, piece_id
from domain.djambi.rules import read_play, violation
from domain.djambi.state import DjambiState


class DjambiRecorder(Recorder[DjambiState, Event]):
    """The board while a command is decided."""

    def __init__(self, state: DjambiState) -> None:
        super().__init__(state, evolve)

    @property
    def over(self) -> bool:
        return self.state.result is not None


def decide(state: DjambiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events `command` causes; it raises what `violation` returns. Djambi has no chance: `rng` is unused."""
    if isinstance(command, Play):  # a play is read once: `read_play` raises what `violation` returns
        return _play(state, command.seat, *read_play(state, command))
    if (problem := violation(state, command)) is not None:
        raise problem
    recorder = DjambiRecorder(state)
    match command:
        case Skip(seat):
            _pass(recorder, seat, state.kind, PassReason.TIMEOUT)
        case Resign(seat):
            _resign(recorder, seat)
        case ProposeDraw(seat):
            recorder.emit(DrawOffered(seat))
        case AcceptDraw(seat):
            recorder.emit(DrawAccepted(seat))
            _draw_if_agreed(recorder)
        case DeclineDraw(seat):
            recorder.emit(DrawDeclined(seat))
        case _:
            assert_never(command)
    return tuple(recorder.events)


# §8, §9: the action itself, as the pieces it moves and kills

def carry_out(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action, choice: Choice) -> ActionTaken:
    """The board effect of a validated action (§8, §9.3–§9.5)."""
    start = state.where[piece]
    assert start is not None
    target = state.board[to]
    moves = [(piece, start, choice.exit if choice.exit is not None else to)]
    kills: list[tuple[Piece, Square]] = []
    match act:
        case Action.MOVE | Action.REPORT:
            if choice.report is not None:
                kills.append((_at(state, choice.report), choice.report))
        case Action.KILL:
            moves.append((_held(target), to, _given(choice.place)))
            kills.append((_held(target), to))
        case Action.ASSASSINATE:
            moves.append((_held(target), to, start))
            kills.append((_held(target), to))
        case Action.MANIPULATE | Action.CARRY:
            moves.append((_held(target), to, _given(choice.place)))
        case Action.MAZE:
            exit = _given(choice.exit)
            held = _held(target)
            if kind_of(piece) is Kind.ASSASSIN:
                moves.append((held, MAZE, start))
                kills.append((held, MAZE))
            else:
                moves.append((held, MAZE, _given(choice.place)))
            if exit != start and (second := state.board[exit]) is not None:  # a master move (§9.5): the second chief goes to E5
                moves.append((second, exit, MAZE))
                if kind_of(piece) is Kind.ASSASSIN:
                    kills.append((second, exit))
        case _:
            assert_never(act)
    return ActionTaken(
        seat=seat,
        move=format_move(Move(name(start), name(to), optional_name(choice.place), optional_name(choice.exit), optional_name(choice.report))),
        moves=tuple(PieceMove(piece_id(p), name(origin), name(dest)) for p, origin, dest in moves),
        kills=tuple(Kill(piece_id(p), name(at), piece_id(piece)) for p, at in kills),
    )


def _at(state: DjambiState, square: Square) -> Piece:
    piece = state.board[square]
    assert piece is not None
    return piece


def _held(piece: Piece | None) -> Piece:
    assert piece is not None
    return piece


def _given(square: Square | None) -> Square:
    assert square is not None
    return square


def _play(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action, choice: Choice) -> tuple[Event, ...]:
    """The events of a validated action and all that follows it."""
    recorder = DjambiRecorder(state)
    if state.draw_offer is not None:
        recorder.emit(DrawOfferLapsed())  # §18.4: any move cancels an open offer
    taken = carry_out(recorder.state, seat, piece, to, act, choice)
    recorder.emit(taken)
    _capture_armies(recorder, seat, taken)
    _end_of_turn(recorder, seat, recorder.state.kind)
    return tuple(recorder.events)


# §11.1: a killed chief's player is out, and the killer takes every army it controlled

def _capture_armies(recorder: DjambiRecorder, seat: Seat, taken: ActionTaken) -> None:
    """Each chief `taken` kills puts its player out; the killer takes its armies (§11.1)."""
    for kill in taken.kills:
        victim = IDS[kill.piece]
        if kind_of(victim) is not Kind.CHIEF:
            continue
        color = army_of(victim)
        if color is recorder.state.hostage:  # §14: the killer takes the hostage army
            recorder.emit(ArmyControlChanged(color, None, seat))
            continue
        loser = recorder.state.seat_of(color)
        assert loser is not None
        recorder.emit(PlayerEliminated(loser, Elimination.KILLED, by=seat))
        _hand_over(recorder, loser, seat)


def _hand_over(recorder: DjambiRecorder, previous: Seat, to: Seat | None) -> None:
    """Every army `previous` controls goes to `to` (None: orphaned)."""
    for index, controller in enumerate(recorder.state.controllers):
        if controller == previous:
            recorder.emit(ArmyControlChanged(COLORS[index], previous, to))


# §10: what happens after an action, in order

def _end_of_turn(recorder: DjambiRecorder, seat: Seat, kind: TurnKind) -> None:
    """Victory, encirclement, devolution, victory again (§10 steps 2–5), then the next player (step 6)."""
    _settle(recorder)
    if not recorder.over:
        _play_on(recorder, seat, kind)


def _settle(recorder: DjambiRecorder) -> None:
    """§10 steps 2–5, and the end of an offer whose proposer is out (§16)."""
    if _last_player_wins(recorder):
        return
    encircled = [seat for seat in recorder.state.remaining if is_encircled(recorder.state, seat)]
    for seat in encircled:
        recorder.emit(PlayerEliminated(seat, Elimination.ENCIRCLED))
        _hand_over(recorder, seat, None)
    _devolve(recorder)
    if _last_player_wins(recorder):
        return
    if not recorder.state.remaining:  # every remaining player encircled at once
        recorder.emit(GameEnded(Outcome.DRAW, tuple(encircled), EndReason.ALL_ENCIRCLED))
    else:
        _offer_ends_with_its_proposer(recorder)
        _draw_if_agreed(recorder)


def _last_player_wins(recorder: DjambiRecorder) -> bool:
    """The last player left wins (§16)."""
    if len(recorder.state.remaining) != 1:
        return False
    recorder.emit(GameEnded(Outcome.WIN, recorder.state.remaining, EndReason.WON))
    return True


# §11.2: encirclement

def is_encircled(state: DjambiState, seat: Seat) -> bool:
    """Whether `seat`'s chief, off the maze and with no necromobile to rescue it, is shut in (§11.2)."""
    chief = state.chief_square(seat)
    if chief is None or chief == MAZE or _rescued(state, seat):
        return False
    match state.options.encirclement:
        case Encirclement.ADJACENT:
            return all(state.is_corpse(square) for square in NEIGHBOURS[chief])
        case Encirclement.ENCLOSURE:
            return _enclosed(state, seat, chief)
        case Encirclement.MAZE_ACCESS:
            return not _reaches_maze(state, chief)
        case _:
            assert_never(state.options.encirclement)


def _rescued(state: DjambiState, seat: Seat) -> bool:
    """A living necromobile on the board: one the player controls, or anyone's under `any_on_board`."""
    anyone = state.options.necromobile_rescue is NecromobileRescue.ANY_ON_BOARD
    for necromobile in NECROMOBILES:
        if state.alive[necromobile] and state.where[necromobile] is not None and (
                anyone or state.controller(necromobile) == seat):
            return True
    return False


def _enclosed(state: DjambiState, seat: Seat, chief: Square) -> bool:
    """`enclosure`: the chief's group of own living pieces touches no empty square and no enemy piece."""
    group, frontier = {chief}, [chief]
    while frontier:
        for square in NEIGHBOURS[frontier.pop()]:
            if square in group:
                continue
            piece = state.board[square]
            if piece is None:
                return False
            if not state.alive[piece] or state.is_orphaned(piece):
                continue
            if state.controller(piece) != seat:
                return False  # an enemy or hostage piece
            group.add(square)
            frontier.append(square)
    return True


def _reaches_maze(state: DjambiState, chief: Square) -> bool:
    """`maze_access`: a path free of corpses leads to E5, or next to it when a corpse lies there."""
    goals = {MAZE} if not state.is_corpse(MAZE) else set(NEIGHBOURS[MAZE])
    seen, frontier = {chief}, [chief]
    while frontier:
        square = frontier.pop()
        if square in goals:
            return True
        for neighbour in _TOWARD_MAZE[square]:
            if neighbour not in seen and not state.is_corpse(neighbour):
                seen.add(neighbour)
                frontier.append(neighbour)
    return False


def _steps_to_maze(at: Square) -> int:
    return max(abs(column_of(at) - column_of(MAZE)), abs(row_of(at) - row_of(MAZE)))


# each square's neighbours, the nearest to E5 last: the search above, which takes the square
# found last first, heads straight for the maze while no corpse stands in the way
_TOWARD_MAZE = tuple(tuple(sorted(NEIGHBOURS[square], key=_steps_to_maze, reverse=True)) for square in SQUARES)


# §12: devolution

def _devolve(recorder: DjambiRecorder) -> None:
    """Once a player is in power, every orphaned army becomes theirs, for good."""
    ruler = recorder.state.in_power()
    if ruler is None:
        return
    for index, controller in enumerate(recorder.state.controllers):
        if controller is None and COLORS[index] is not recorder.state.hostage:
            recorder.emit(ArmyControlChanged(COLORS[index], None, ruler))


# §13: turn order; §16: passes and draws

def next_player(state: DjambiState, seat: Seat, kind: TurnKind) -> tuple[Seat, TurnKind]:
    """Who plays after `seat` finished a turn of `kind` (§13): the player in power after every other turn, else the rotation."""
    ruler, players = state.in_power(), len(state.remaining)
    if ruler is not None and ruler != seat:
        return ruler, TurnKind.BONUS
    anchor = seat if kind is TurnKind.REGULAR else state.anchor
    assert anchor is not None
    for offset in range(1, state.seats + 1):
        candidate = (anchor + offset) % state.seats
        if candidate not in state.remaining:
            continue
        if ruler is not None and players >= 3 and candidate == ruler:
            continue
        if candidate == seat and not (ruler == seat and players == 2):
            continue
        return candidate, TurnKind.REGULAR
    raise AssertionError("a game with players left always has a next player")


def _play_on(recorder: DjambiRecorder, seat: Seat, kind: TurnKind) -> None:
    """After `seat`'s turn: the no-progress draw, or the next player, who passes if no action is legal (§16)."""
    limit = recorder.state.options.no_progress_limit
    if limit and recorder.state.quiet >= limit:
        recorder.emit(GameEnded(Outcome.DRAW, recorder.state.remaining, EndReason.NO_PROGRESS))
        return
    following, following_kind = next_player(recorder.state, seat, kind)
    recorder.emit(TurnStarted(following, following_kind, recorder.state.turn_no + 1))
    if not has_action(recorder.state, following):
        _pass(recorder, following, following_kind, PassReason.NO_LEGAL_ACTION)


def _pass(recorder: DjambiRecorder, seat: Seat, kind: TurnKind, reason: PassReason) -> None:
    """`seat` passes; a full cycle of passes is a draw (§16)."""
    recorder.emit(TurnPassed(seat, reason))
    if recorder.state.passed >= set(recorder.state.remaining):  # a full cycle of passes (§16)
        recorder.emit(GameEnded(Outcome.DRAW, recorder.state.remaining, EndReason.ABANDONED if recorder.state.timed_out else EndReason.NO_LEGAL_ACTION))
        return
    _play_on(recorder, seat, kind)


def has_action(state: DjambiState, seat: Seat) -> bool:
    """Whether `seat` has any legal action (§16)."""
    return next(actions(state, seat), None) is not None


# §16, §18.4: resigning and draws by agreement

def _resign(recorder: DjambiRecorder, seat: Seat) -> None:
    """Resigning is settled as an encirclement (§16.1): the chief dies, the armies are orphaned, play goes on."""
    current, kind = recorder.state.current, recorder.state.kind
    recorder.emit(PlayerEliminated(seat, Elimination.RESIGNED))
    _hand_over(recorder, seat, None)
    _settle(recorder)
    if recorder.over or current is None:
        return
    if current not in recorder.state.remaining:
        _play_on(recorder, current, kind)
    elif not has_action(recorder.state, current):
        _pass(recorder, current, kind, PassReason.NO_LEGAL_ACTION)


def _offer_ends_with_its_proposer(recorder: DjambiRecorder) -> None:
    """An offer lapses once the player who made it is out of the game (§16)."""
    if recorder.state.draw_offer is not None and recorder.state.draw_proposer not in recorder.state.remaining:
        recorder.emit(DrawOfferLapsed())


def _draw_if_agreed(recorder: DjambiRecorder) -> None:
    """A draw once every remaining player has accepted the open offer."""
    offer = recorder.state.draw_offer
    if offer is not None and offer >= set(recorder.state.remaining):
        recorder.emit(GameEnded(Outcome.DRAW, recorder.state.remaining, EndReason.AGREED))
