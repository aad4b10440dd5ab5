"""Facts into state, nothing else: evolve records what `decide` already ruled."""

from __future__ import annotations

from typing import assert_never

from domain.core.record_copies import replace
from domain.djambi.board import NAMES, SQUARES
from domain.djambi.events import (
    ActionTaken,
    ArmyControlChanged,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    DrawOfferLapsed,
    Elimination,
    Event,
    GameEnded,
    GameStarted,
    PassReason,
    PlayerEliminated,
    TurnKind,
    TurnPassed,
    TurnStarted,
)
from domain.djambi.options import DjambiOptions
from domain.djambi.pieces import COLORS, IDS, PIECES, START, chief_of
from domain.djambi.state import DjambiState, Result


def initial(options: DjambiOptions, seats: int) -> DjambiState:
    """The start position of §4, before anyone sits at it."""
    board = [None] * len(SQUARES)
    for piece, square in START.items():
        board[square] = piece  # type: ignore[call-overload]
    return DjambiState(
        options=options,
        seats=seats,
        players=(),
        board=tuple(board),
        where=tuple(START[piece] for piece in PIECES),
        alive=(True,) * len(PIECES),
        controllers=(None,) * len(COLORS),
        hostage=None,
        remaining=(),
        out_at=(None,) * seats,
    )


def evolve(state: DjambiState, event: Event) -> DjambiState:  # noqa: C901 - one case per event, in the rules' order
    """Record one fact. Never validates, never fails."""
    match event:
        # §4 the armies seated; §5 a turn
        case GameStarted(players, hostage):
            controllers = tuple(players.index(color) if color in players else None for color in COLORS)
            return replace(state, players=players, hostage=hostage, controllers=controllers,
                           remaining=tuple(range(len(players))))
        case TurnStarted(seat, kind, turn_no):
            anchor = seat if kind is TurnKind.REGULAR else state.anchor
            return replace(state, current=seat, kind=kind, anchor=anchor, turn_no=turn_no)
        # §6–§9 an action
        case ActionTaken(_, _, moves, kills):
            board, where, alive = list(state.board), list(state.where), list(state.alive)
            for move in moves:  # all at once: lift every moving piece, then set each down
                board[NAMES[move.origin]] = None
            for move in moves:
                piece = IDS[move.piece]
                board[NAMES[move.to]] = piece
                where[piece] = NAMES[move.to]
            for kill in kills:
                alive[IDS[kill.piece]] = False
            return replace(state, board=tuple(board), where=tuple(where), alive=tuple(alive),
                           quiet=0 if kills else state.quiet + 1, passed=frozenset(), timed_out=False)
        # §11 a chief's death, §12 devolution, §14 the hostage army
        case PlayerEliminated(seat, reason, _):
            living = state.alive
            if reason is not Elimination.KILLED:  # the chief dies where it stands
                chief = chief_of(state.players[seat])
                living = living[:chief] + (False,) + living[chief + 1:]
            out_at = state.out_at[:seat] + (state.turn_no,) + state.out_at[seat + 1:]
            return replace(state, alive=living, out_at=out_at, quiet=0,
                           remaining=tuple(s for s in state.remaining if s != seat),
                           draw_offer=None if state.draw_offer is None else state.draw_offer - {seat})
        case ArmyControlChanged(army, _, to):
            index = COLORS.index(army)
            controllers = state.controllers[:index] + (to,) + state.controllers[index + 1:]
            return replace(state, controllers=controllers, hostage=None if army is state.hostage else state.hostage)
        # §16 passes, draws and the end; §18.4 draw offers
        case TurnPassed(seat, reason):
            return replace(state, quiet=state.quiet + 1, passed=state.passed | {seat},
                           timed_out=state.timed_out or reason is PassReason.TIMEOUT)
        case DrawOffered(seat):
            return replace(state, draw_offer=frozenset({seat}), draw_proposer=seat)
        case DrawAccepted(seat):
            return replace(state, draw_offer=(state.draw_offer or frozenset()) | {seat})
        case DrawDeclined() | DrawOfferLapsed():
            return replace(state, draw_offer=None, draw_proposer=None)
        case GameEnded(result, winners, reason):
            return replace(state, result=Result(result, winners, reason), current=None)
        case _:
            assert_never(event)
