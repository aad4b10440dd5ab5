"""The TAKI rulebook of refusals: why a command is refused now and what a seat may send (§17).
TAKI checks a command by deciding it (see `decide.py`, where each rule raises as it applies):
`violation` decides it in trial and drops the events, and `legal_commands` lists the
candidates that pass."""

from __future__ import annotations

from domain.core.errors import RuleViolation
from domain.core.game import Seat
from domain.core.rng import ScriptedRng
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Pass, Play
from domain.taki.decide import single_plays, trial
from domain.taki.state import Phase, TakiState


def violation(state: TakiState, command: Command) -> RuleViolation | None:
    """Why `command` is refused now, or None: it is decided in trial on chance that keeps every order."""
    return trial(state, command, ScriptedRng())  # the events are dropped: their shuffles need not be random


def legal_commands(state: TakiState, seat: Seat) -> tuple[Command, ...]:
    """Every command `seat` may send now: one-card plays, then draw, close, end turn, pass and announce (§17.2)."""
    others = (Draw(seat), CloseTaki(seat), EndTurn(seat), Pass(seat), AnnounceLastCard(seat))
    return legal_plays(state, seat) + tuple(command for command in others if violation(state, command) is None)


def legal_plays(state: TakiState, seat: Seat) -> tuple[Play, ...]:
    """Every one-card play `seat` may make now (§6), one per colour where the card names one."""
    return tuple(play for play in single_plays(state, seat) if violation(state, play) is None)


# §17.3, §11.1: when time runs out

def listed_form(state: TakiState, command: Command) -> Command | None:
    """None for a batch (§17.2: several cards, or a play that also closes, leaves or announces); else the command."""
    if isinstance(command, Play) and (len(command.cards) > 1 or command.colors or command.announce_last_card
                                      or command.close_taki is not None):
        return None
    return command


def timeout_command(state: TakiState, seat: Seat) -> Command:
    """What `seat` does at its deadline (§17.3): pass a +3, end a run or a King's turn, else draw or its first legal command."""
    if state.plus3 is not None:
        command: Command = Pass(seat)
    elif state.phase in (Phase.IN_RUN, Phase.KING_FOLLOW_UP):
        command = EndTurn(seat)
    else:
        command = Draw(seat)
    if violation(state, command) is None:
        return command
    return legal_commands(state, seat)[0]


WINDOW_OPENING = "plus3_window_opened"  # the event response_seconds counts from (§11.1)


def response_seconds(state: TakiState) -> int | None:
    """The game's own deadline on the seats to move: a +3 window closes by itself (§11.1)."""
    return state.options.plus3_response_seconds if state.plus3 is not None else None
