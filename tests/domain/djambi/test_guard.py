"""One guard: `decide` refuses exactly what `violation` names, and `legal_commands` lists
exactly the candidates `violation` lets through."""

from __future__ import annotations

import random

from hypothesis import given, settings

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, ProposeDraw, Resign, Skip
from domain.djambi.options import DjambiOptions
from domain.djambi.rules import violation
from domain.djambi.state import DjambiState
from tests.domain.djambi.positions import RED, command, position
from tests.domain.djambi.test_properties import preference, random_play, tables
from tests.playing import random_game


def refusal(state: DjambiState, command: Command) -> RuleViolation | None:
    try:
        DJAMBI.decide(state, command, SeededRng(0))
    except RuleViolation as refused:
        return refused
    return None


def candidates(chooser: random.Random, state: DjambiState) -> list[Command]:
    """Random plays of every seat, and every other command of every seat."""
    plays: list[Command] = [random_play(chooser, state, seat) for seat in range(state.seats) for _ in range(10)]
    kinds = (ProposeDraw, AcceptDraw, DeclineDraw, Resign, Skip)
    return plays + [kind(seat) for seat in range(state.seats) for kind in kinds]


@settings(max_examples=15, deadline=None)
@given(tables())
def test_decide_refuses_what_violation_names_and_legal_commands_list_what_it_accepts(
    table: tuple[int, DjambiOptions, int],
) -> None:
    seats, options, seed = table
    chooser = random.Random(seed)
    for number, step in enumerate(random_game(DJAMBI, seats, options, seed, prefer=preference(seed))):
        if number % 4:
            continue
        state = step.before
        legal = {seat: set(DJAMBI.legal_commands(state, seat)) for seat in range(seats)}
        for candidate in [*candidates(chooser, state), *chooser.sample(sorted(legal[step.command.seat], key=repr), min(10, len(legal[step.command.seat])))]:
            problem = violation(state, candidate)
            assert refusal(state, candidate) == problem
            if not isinstance(candidate, Skip):  # a deadline's, never a player's choice
                assert (problem is None) == (candidate in legal[candidate.seat]), candidate


def test_the_reporter_must_report_is_one_rule_for_decide_and_the_list() -> None:
    strict = position("rC@A9 rR@D2 bC@C6 bM@D7 yC@I1 gC@A1", RED, reporter_may_abstain=False)
    abstaining = command(strict, "D2-D6")
    assert violation(strict, abstaining) == refusal(strict, abstaining) and abstaining not in DJAMBI.legal_commands(strict, 0)
    assert violation(strict, abstaining).reason == "report_required"  # type: ignore[union-attr]
