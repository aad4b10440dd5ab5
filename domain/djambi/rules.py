"""The Djambi rulebook around the action: validating a command (§18.2), what follows an
action — army capture (§11.1), the end-of-turn order (§10), encirclement (§11.2), devolution
(§12), the turn order (§13), passes and the end of the game (§16) — and the other commands
(§18.4).

`violation` says why a command is refused, running each rule's one check (those of a single
action live in `moves.py`); `decide` raises what it returns, and `legal_commands` lists the
candidates the same checks let through."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import assert_never

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.recorder import Recorder
from domain.core.rng import Rng
from domain.djambi.board import MAZE, NEIGHBOURS, SQUARES, Square, column_of, name, parse, row_of
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
from domain.djambi.moves import Action, Choice, actions, choice_sets, choice_violation, piece_violation, reachable
from domain.djambi.moves import action as action_of
from domain.djambi.notation import Move, format_move
from domain.djambi.options import Encirclement, NecromobileRescue
from domain.djambi.pieces import COLORS, IDS, NECROMOBILES, Kind, Piece, army_of, kind_of, piece_id
from domain.djambi.state import DjambiState


class Turn(Recorder[DjambiState, Event]):
    """The board while a command is decided."""

    def __init__(self, state: DjambiState) -> None:
        super().__init__(state, evolve)

    @property
    def over(self) -> bool:
        return self.state.result is not None


def violation(state: DjambiState, command: Command) -> RuleViolation | None:
    """Why `command` is refused now, or None: for a play, what `read_play` raises. decide and
    legal_commands both ask."""
    if isinstance(command, Play):
        try:
            read_play(state, command)
        except RuleViolation as refused:
            return refused
        return None
    if (problem := _seat_violation(state, command.seat)) is not None:
        return problem
    match command:
        case Skip(seat):
            return _turn_violation(state, seat)
        case Resign():
            return None
        case ProposeDraw() | AcceptDraw() | DeclineDraw():
            return _draw_offer_violation(state, command)
        case _:
            assert_never(command)


def decide(state: DjambiState, command: Command, rng: Rng) -> tuple[Event, ...]:
    """The events a command causes, or RuleViolation. Djambi has no chance: `rng` is unused."""
    if isinstance(command, Play):  # `violation`'s checks of a play read its action: read once, then played
        return _play(state, command.seat, *read_play(state, command))
    if (problem := violation(state, command)) is not None:
        raise problem
    turn = Turn(state)
    match command:
        case Skip(seat):
            _pass(turn, seat, state.kind, PassReason.TIMEOUT)
        case Resign(seat):
            _resign(turn, seat)
        case ProposeDraw(seat):
            turn.emit(DrawOffered(seat))
        case AcceptDraw(seat):
            turn.emit(DrawAccepted(seat))
            _draw_if_agreed(turn)
        case DeclineDraw(seat):
            turn.emit(DrawDeclined(seat))
        case _:
            assert_never(command)
    return tuple(turn.events)


# §18.2: validating a play

def _seat_violation(state: DjambiState, seat: Seat) -> RuleViolation | None:
    """Every command comes from a player still in a game still going on."""
    if state.result is not None:
        return RuleViolation("game_over", "The game is over.")
    if seat not in state.remaining:
        return RuleViolation("not_in_game", "You are out of the game.")
    return None


def _turn_violation(state: DjambiState, seat: Seat) -> RuleViolation | None:
    """A turn is played, or passed, by the player to move."""
    if seat != state.current:
        return RuleViolation("not_your_turn", f"It is {state.color_of(state.current or 0)}'s turn.")
    return None


def _square(text: str | None, field: str, reason: str) -> Square | None:
    if text is None:
        return None
    try:
        return parse(text)
    except (ValueError, AttributeError):
        raise RuleViolation(reason, f"{field}: {text!r} is not a square such as E5.") from None


def _acting_piece(state: DjambiState, seat: Seat, text: str) -> Piece:
    """The living piece `seat` acts with, named by its square or its id."""
    if text in IDS:
        piece = IDS[text]
        if not state.alive[piece] or state.where[piece] is None:
            raise RuleViolation("no_piece_there", f"{text} is not a living piece on the board.")
    else:
        square = _square(text, "piece", "no_piece_there")
        assert square is not None
        found = state.living(square)
        if found is None:
            what = "a corpse" if state.is_corpse(square) else "nothing"
            raise RuleViolation("no_piece_there", f"{name(square)} holds {what}, not a living piece.")
        piece = found
    if (problem := piece_violation(state, seat, piece)) is not None:
        raise problem
    return piece


def read_play(state: DjambiState, play: Play) -> tuple[Piece, Square, Action, Choice]:
    """The action a play asks for, every choice checked (§18.1, §18.2), or RuleViolation."""
    if (problem := _seat_violation(state, play.seat) or _turn_violation(state, play.seat)) is not None:
        raise problem
    if play.player is not None and play.player is not state.color_of(play.seat):
        raise RuleViolation("wrong_player", f"This seat plays {state.color_of(play.seat)}, not {play.player}.")
    piece = _acting_piece(state, play.seat, play.piece)
    start = state.where[piece]
    assert start is not None
    to = _square(play.to, "to", "illegal_destination")
    assert to is not None
    if to not in reachable(state, start, kind_of(piece)):
        reach = "one or two squares" if kind_of(piece) is Kind.MILITANT else "any distance"
        raise RuleViolation("illegal_destination",
                  f"{name(start)}-{name(to)}: a {kind_of(piece)} moves {reach} in a straight line over empty squares (§6).")
    act = action_of(state, play.seat, piece, to)
    if isinstance(act, RuleViolation):
        raise act
    choice = Choice(
        place=_square(play.place, "place", "illegal_place"),
        exit=_square(play.exit, "exit", "illegal_exit"),
        report=_square(play.report, "report", "illegal_report"),
    )
    if (problem := choice_violation(state, play.seat, piece, to, act, choice)) is not None:
        raise problem
    return piece, to, act, choice


# the action itself, as the pieces it moves and kills

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
        move=format_move(Move(name(start), name(to), _named(choice.place), _named(choice.exit), _named(choice.report))),
        moves=tuple(PieceMove(piece_id(p), name(origin), name(dest)) for p, origin, dest in moves),
        kills=tuple(Kill(piece_id(p), name(at), piece_id(piece)) for p, at in kills),
    )


def _named(square: Square | None) -> str | None:
    return None if square is None else name(square)


def as_play(state: DjambiState, seat: Seat, piece: Piece, to: Square, choice: Choice) -> Play:
    """The command for an action and its choices."""
    start = state.where[piece]
    assert start is not None
    return Play(seat, name(start), name(to), place=_named(choice.place), exit=_named(choice.exit), report=_named(choice.report))


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
    turn = Turn(state)
    if state.draw_offer is not None:
        turn.emit(DrawOfferLapsed())  # §18.4: any move cancels an open offer
    taken = carry_out(turn.state, seat, piece, to, act, choice)
    turn.emit(taken)
    _capture_armies(turn, seat, taken)
    _end_of_turn(turn, seat, turn.state.kind)
    return tuple(turn.events)


# §11.1: a killed chief's player is out, and the killer takes every army it controlled

def _capture_armies(turn: Turn, seat: Seat, taken: ActionTaken) -> None:
    for kill in taken.kills:
        victim = IDS[kill.piece]
        if kind_of(victim) is not Kind.CHIEF:
            continue
        color = army_of(victim)
        if color is turn.state.hostage:  # §14: the killer takes the hostage army
            turn.emit(ArmyControlChanged(color, None, seat))
            continue
        loser = turn.state.seat_of(color)
        assert loser is not None
        turn.emit(PlayerEliminated(loser, Elimination.KILLED, by=seat))
        _hand_over(turn, loser, seat)


def _hand_over(turn: Turn, previous: Seat, to: Seat | None) -> None:
    """Every army `previous` controls goes to `to` (None: orphaned)."""
    for index, controller in enumerate(turn.state.controllers):
        if controller == previous:
            turn.emit(ArmyControlChanged(COLORS[index], previous, to))


# §10: what happens after an action, in order

def _end_of_turn(turn: Turn, seat: Seat, kind: TurnKind) -> None:
    """Victory, encirclement, devolution, victory again (§10 steps 2–5), then the no-progress
    draw (§16) and the next player (§13, step 6)."""
    _settle(turn)
    if not turn.over:
        _play_on(turn, seat, kind)


def _settle(turn: Turn) -> None:
    if _last_player_wins(turn):
        return
    encircled = [seat for seat in turn.state.remaining if is_encircled(turn.state, seat)]
    for seat in encircled:
        turn.emit(PlayerEliminated(seat, Elimination.ENCIRCLED))
        _hand_over(turn, seat, None)
    _devolve(turn)
    if _last_player_wins(turn):
        return
    if not turn.state.remaining:  # every remaining player encircled at once
        turn.emit(GameEnded(Outcome.DRAW, tuple(encircled), EndReason.ALL_ENCIRCLED))
    else:
        _offer_ends_with_its_proposer(turn)
        _draw_if_agreed(turn)


def _last_player_wins(turn: Turn) -> bool:
    if len(turn.state.remaining) != 1:
        return False
    turn.emit(GameEnded(Outcome.WIN, turn.state.remaining, EndReason.WON))
    return True


# §11.2: encirclement

def is_encircled(state: DjambiState, seat: Seat) -> bool:
    """A player's chief is encircled when it is not on the maze, the player has no living
    necromobile to rescue it, and it is shut in as the `encirclement` option defines."""
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
    """`enclosure`: the chief and the group of own living pieces around it touch no empty
    square and no enemy piece."""
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
    """`maze_access`: a path over squares free of corpses leads to E5 (or, when a corpse lies
    on E5, next to it)."""
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

def _devolve(turn: Turn) -> None:
    """Once a player is in power, every orphaned army becomes theirs, for good."""
    ruler = turn.state.in_power()
    if ruler is None:
        return
    for index, controller in enumerate(turn.state.controllers):
        if controller is None and COLORS[index] is not turn.state.hostage:
            turn.emit(ArmyControlChanged(COLORS[index], None, ruler))


# §13: turn order; §16: passes and draws

def next_player(state: DjambiState, seat: Seat, kind: TurnKind) -> tuple[Seat, TurnKind]:
    """Who plays after `seat` finished a turn of `kind` (the algorithm of §13): the player in
    power after every other player's turn, otherwise the rotation after the last regular turn."""
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


def _play_on(turn: Turn, seat: Seat, kind: TurnKind) -> None:
    """After `seat`'s turn: the no-progress draw, then the next player, who passes when they
    have no legal action (§16)."""
    limit = turn.state.options.no_progress_limit
    if limit and turn.state.quiet >= limit:
        turn.emit(GameEnded(Outcome.DRAW, turn.state.remaining, EndReason.NO_PROGRESS))
        return
    following, following_kind = next_player(turn.state, seat, kind)
    turn.emit(TurnStarted(following, following_kind, turn.state.turn_no + 1))
    if not has_action(turn.state, following):
        _pass(turn, following, following_kind, PassReason.NO_LEGAL_ACTION)


def _pass(turn: Turn, seat: Seat, kind: TurnKind, reason: PassReason) -> None:
    turn.emit(TurnPassed(seat, reason))
    if turn.state.passed >= set(turn.state.remaining):  # a full cycle of passes (§16)
        turn.emit(GameEnded(Outcome.DRAW, turn.state.remaining, EndReason.ABANDONED if turn.state.timed_out else EndReason.NO_LEGAL_ACTION))
        return
    _play_on(turn, seat, kind)


def has_action(state: DjambiState, seat: Seat) -> bool:
    return next(actions(state, seat), None) is not None


# §16, §18.4: resigning and draws by agreement

def _resign(turn: Turn, seat: Seat) -> None:
    """Resigning counts as being encircled: the chief dies where it stands, the armies are
    orphaned (or go to the player in power). Play goes on from whoever was to move."""
    current, kind = turn.state.current, turn.state.kind
    turn.emit(PlayerEliminated(seat, Elimination.RESIGNED))
    _hand_over(turn, seat, None)
    _settle(turn)
    if turn.over or current is None:
        return
    if current not in turn.state.remaining:
        _play_on(turn, current, kind)
    elif not has_action(turn.state, current):
        _pass(turn, current, kind, PassReason.NO_LEGAL_ACTION)


def _draw_offer_violation(state: DjambiState, command: ProposeDraw | AcceptDraw | DeclineDraw) -> RuleViolation | None:
    """One offer at a time; the others accept or decline it, each once (§18.4)."""
    offer = state.draw_offer
    if isinstance(command, ProposeDraw):
        if offer is not None:
            return RuleViolation("draw_already_offered", "A draw is already on offer: accept or decline it.")
        return None
    if offer is None:
        return RuleViolation("no_draw_offered", "No draw is on offer.")
    if command.seat in offer:
        return RuleViolation("draw_already_accepted", "You have already accepted this draw.")
    return None


def _offer_ends_with_its_proposer(turn: Turn) -> None:
    """An offer lapses once the player who made it is out of the game (§16)."""
    if turn.state.draw_offer is not None and turn.state.draw_proposer not in turn.state.remaining:
        turn.emit(DrawOfferLapsed())


def _draw_if_agreed(turn: Turn) -> None:
    """A draw once every remaining player has accepted the open offer."""
    offer = turn.state.draw_offer
    if offer is not None and offer >= set(turn.state.remaining):
        turn.emit(GameEnded(Outcome.DRAW, turn.state.remaining, EndReason.AGREED))


# what a seat may send now

def legal_plays(state: DjambiState, seat: Seat) -> Iterator[Play]:
    """Every complete play (§18.3): each action with each of its sets of choices, when the
    seat may play at all."""
    if _seat_violation(state, seat) is not None or _turn_violation(state, seat) is not None:
        return
    for piece, to, act in actions(state, seat):
        start = state.where[piece]
        assert start is not None
        moving, target = name(start), name(to)
        for report, exit, places in choice_sets(state, seat, piece, to, act):
            exit_name, report_name = _named(exit), _named(report)
            for place in places:
                yield Play(seat, moving, target, _named(place), exit_name, report_name)


def legal_commands(state: DjambiState, seat: Seat) -> tuple[Command, ...]:
    """The complete plays, then the other commands a player may send (§18.4), in that order."""
    others = (ProposeDraw(seat), AcceptDraw(seat), DeclineDraw(seat), Resign(seat))
    return (*legal_plays(state, seat), *(command for command in others if violation(state, command) is None))


def listed_form(state: DjambiState, command: Command) -> Command:
    """The listed spelling of a play (§18.1): its piece named by the square it stands on, and
    no `player` when that is the seat's own colour."""
    if not isinstance(command, Play):
        return command
    piece = IDS.get(command.piece)
    start = state.where[piece] if piece is not None and state.alive[piece] else None
    own = 0 <= command.seat < len(state.players) and command.player is state.color_of(command.seat)
    return dataclasses.replace(command, piece=command.piece if start is None else name(start),
                               player=None if own else command.player)


def timeout_command(state: DjambiState, seat: Seat) -> Command:
    """A turn deadline under `skip`: the turn passes."""
    return Skip(seat)


def response_seconds(state: DjambiState) -> int | None:
    """Djambi sets no deadline of its own."""
    return None

