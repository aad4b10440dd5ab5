"""Resigning, draws by agreement (§16, §18.4) and the turn deadline's skip."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, ProposeDraw, Resign, Skip
from domain.djambi.events import DrawOfferLapsed, Elimination, GameEnded, PassReason, PlayerEliminated, TurnPassed
from domain.djambi.state import DjambiState
from tests.domain.djambi.positions import BLUE, RED, YELLOW, controller, pieces, play, position, to_move


def send(state: DjambiState, command: Command) -> tuple[tuple[object, ...], DjambiState]:
    events = DJAMBI.decide(state, command, SeededRng(0))
    for event in events:
        state = DJAMBI.evolve(state, event)
    return events, state


def test_the_player_to_move_resigns_and_the_rotation_goes_on() -> None:
    state = position("rC@A9 rM@C5 bC@I9 yC@I1 gC@A1", RED)
    events, after = send(state, Resign(0))
    assert PlayerEliminated(0, Elimination.RESIGNED) in events and "X@A9" in pieces(after)
    assert controller(after, RED) is None and to_move(after)[0] is BLUE
    assert RuleViolation("not_in_game", "You are out of the game.") == _refused(after, Resign(0))


def test_resigning_out_of_turn_hands_the_armies_to_the_player_in_power() -> None:
    state = position("rC@A9 rM@C5 bC@E5 yC@I1 gC@A1", YELLOW)
    _, after = send(state, Resign(0))
    assert controller(after, RED) is BLUE and to_move(after)[0] is YELLOW


def test_the_last_resignation_leaves_a_winner() -> None:
    _, after = send(position("rC@A9 bC@I9", BLUE), Resign(1))
    assert after.result is not None and after.result.winners == (0,) and DJAMBI.status(after).ranking == ((0,), (1,), (2, 3))  # 2 and 3 were out before


def test_a_draw_needs_every_remaining_player_and_any_action_cancels_it() -> None:
    state = position("rC@A9 bC@I9 yC@I1 gC@A1", RED)
    _, offered = send(state, ProposeDraw(2))
    _, accepted = send(offered, AcceptDraw(0))
    events, lapsed = play(accepted, "A9-A8")
    assert events[0] == DrawOfferLapsed() and lapsed.draw_offer is None
    _, declined = send(accepted, DeclineDraw(3))
    assert declined.draw_offer is None
    events, drawn = send(send(accepted, AcceptDraw(1))[1], AcceptDraw(3))
    assert events[-1] == GameEnded("draw", (0, 1, 2, 3), "agreed") and DJAMBI.status(drawn).ranking == ((0, 1, 2, 3),)


def test_a_skipped_turn_is_a_pass_that_the_rotation_counts() -> None:
    state = position("rC@A9 bC@I9 yC@I1 gC@A1", BLUE, bonus_after=RED)
    events, after = send(state, Skip(1))
    assert TurnPassed(1, PassReason.TIMEOUT) in events and to_move(after)[0] is YELLOW
    assert _refused(after, Skip(1)).reason == "not_your_turn"
    assert Skip(2) not in DJAMBI.legal_commands(after, 2) and DJAMBI.timeout_command(after, 2) == Skip(2)


def _refused(state: DjambiState, command: Command) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        DJAMBI.decide(state, command, SeededRng(0))
    return refused.value
