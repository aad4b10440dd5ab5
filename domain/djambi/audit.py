"""Checking a log of a game of no chance: what the fold would record all the same but the rules
never write — a piece or square that does not exist, a piece moved from where it is not or
killed twice, a player eliminated twice, a game ending otherwise than the rules end it (§10,
§16). The log of a game played here never shows one; an imported log may."""

from __future__ import annotations

from domain.djambi.board import NAMES
from domain.djambi.events import ActionTaken, EndReason, Event, GameEnded, GameStarted, Outcome, PlayerEliminated
from domain.djambi.pieces import IDS
from domain.djambi.state import DjambiState


def audit(state: DjambiState, event: Event) -> str | None:
    """What in `event` the rules would not have written after `state`, or None."""
    match event:
        case GameStarted(players):
            if state.players or len(players) != state.seats or len(set(players)) != len(players):
                return f"the game starts once, with a colour for each of its {state.seats} seats"
        case ActionTaken():
            return _broken_action(state, event)
        case PlayerEliminated(seat) if seat not in state.remaining:
            return f"seat {seat} is not in the game"
        case GameEnded(result, winners, reason):
            return _ended_otherwise(state, result, winners, reason)
    return None


def _broken_action(state: DjambiState, action: ActionTaken) -> str | None:
    for move in action.moves:
        if move.piece not in IDS or move.origin not in NAMES or move.to not in NAMES:
            return f"no piece {move.piece} or square {move.origin} or {move.to}"
        if state.where[IDS[move.piece]] != NAMES[move.origin]:  # corpses move too (§8)
            return f"{move.piece} is not on {move.origin}"
    for kill in action.kills:
        if kill.piece not in IDS or not state.alive[IDS[kill.piece]]:
            return f"no living piece {kill.piece} to kill"
    return None


def _ended_otherwise(state: DjambiState, result: str, winners: tuple[int, ...], reason: EndReason) -> str | None:
    """How the end differs from the rules', or None: the last player wins (§10), all encircled draw (§11.2), other draws among those playing (§16)."""
    expected: tuple[str, tuple[int, ...]] | None
    if reason is EndReason.WON:
        expected = (Outcome.WIN, state.remaining) if len(state.remaining) == 1 else None
    elif reason is EndReason.ALL_ENCIRCLED:  # those encircled by the last action, all out at its turn
        last_out = {seat for seat, turn in enumerate(state.out_at) if turn == state.turn_no}
        expected = (Outcome.DRAW, winners) if not state.remaining and winners and set(winners) <= last_out else None
    else:  # the draws of §16, among those still playing
        expected = (Outcome.DRAW, state.remaining)
    if expected != (result, winners):
        return f"the rules do not end this game as a {result} of {list(winners)} for {reason!r}"
    return None
