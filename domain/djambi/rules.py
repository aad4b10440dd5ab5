"""The Djambi rulebook of refusals: why a command is refused now (§18.2) and what a seat may
send (§18.3, §18.4). Each rule is checked by one function that `violation` and
`legal_commands` share; those of a single action live in `moves.py`, what a command causes in
`decide.py`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import assert_never

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.djambi.board import Square, name, optional_name, parse
from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, Play, ProposeDraw, Resign, Skip
from domain.djambi.moves import Action, Choice, actions, choice_sets, choice_violation, piece_violation, reachable
from domain.djambi.moves import action as action_of
from domain.djambi.pieces import IDS, Kind, Piece, kind_of
from domain.djambi.state import DjambiState


def violation(state: DjambiState, command: Command) -> RuleViolation | None:
    """Why `command` is refused now, or None (for a play, what `read_play` raises); decide and legal_commands ask."""
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
    """The square a field names, None if absent; RuleViolation(`reason`) if it names none."""
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


# what a seat may send now

def legal_plays(state: DjambiState, seat: Seat) -> Iterator[Play]:
    """Every complete play (§18.3): each action with each of its sets of choices, if the seat may play at all."""
    if _seat_violation(state, seat) is not None or _turn_violation(state, seat) is not None:
        return
    for piece, to, act in actions(state, seat):
        start = state.where[piece]
        assert start is not None
        moving, target = name(start), name(to)
        for report, exit, places in choice_sets(state, seat, piece, to, act):
            exit_name, report_name = optional_name(exit), optional_name(report)
            for place in places:
                yield Play(seat, moving, target, optional_name(place), exit_name, report_name)


def as_play(state: DjambiState, seat: Seat, piece: Piece, to: Square, choice: Choice) -> Play:
    """The command for an action and its choices."""
    start = state.where[piece]
    assert start is not None
    return Play(seat, name(start), name(to),
                place=optional_name(choice.place), exit=optional_name(choice.exit), report=optional_name(choice.report))


def legal_commands(state: DjambiState, seat: Seat) -> tuple[Command, ...]:
    """The complete plays, then the other commands a player may send (§18.4), in that order."""
    others = (ProposeDraw(seat), AcceptDraw(seat), DeclineDraw(seat), Resign(seat))
    return (*legal_plays(state, seat), *(command for command in others if violation(state, command) is None))


def listed_form(state: DjambiState, command: Command) -> Command:
    """A play as listed (§18.1): its piece named by its square, no `player` when that is the seat's own colour."""
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

