"""Each value of each TAKI option (§18) changes exactly what it says."""

from __future__ import annotations

import pytest

from domain.core.errors import OptionsInvalid, RuleViolation
from domain.core.rng import ScriptedRng, SeededRng
from domain.taki import TAKI
from domain.taki.cards import Color
from domain.taki.commands import Command, Draw, EndTurn, Pass
from domain.taki.decide import decide
from domain.taki.events import CardsDrawn, GameEnded, LastCardPenalty, PlayerSkipped, TurnStarted
from domain.taki.options import KingOnPlus3, LastCardRule, SuperTakiAfterKing, TakiClose, TakiOptions
from domain.taki.state import Run, TakiState
from tests.domain.taki.positions import apply, given, play, rejected

A, B, C, D = 0, 1, 2, 3


def test_first_seat_starts() -> None:
    options = TakiOptions(first_seat=2)
    events = TAKI.setup(options, 4, ScriptedRng())
    assert events[-1] == TurnStarted(2, 1)
    assert TAKI.replay(options, 4, events).current == 2


def test_parsing_names_every_bad_option() -> None:
    with pytest.raises(OptionsInvalid) as invalid:
        TAKI.parse_options({"mode": "solo", "last_card_penalty": -1, "colour": "red", "play_for_places": "yes"}, 4)
    assert set(invalid.value.errors) == {"mode", "last_card_penalty", "colour", "play_for_places"}
    with pytest.raises(OptionsInvalid) as invalid:
        TAKI.parse_options({"first_seat": 3}, 3)
    assert set(invalid.value.errors) == {"first_seat"}
    assert TAKI.parse_options({}, 4) == TakiOptions()
    assert TAKI.parse_options({"taki_close": "auto", "plus3_response_seconds": 60}, 2) == TakiOptions(
        taki_close=TakiClose.AUTO, plus3_response_seconds=60)


@pytest.mark.parametrize("rule, penalty, drawn", [(LastCardRule.ON, 4, 4), (LastCardRule.ON, 2, 2), (LastCardRule.OFF, 4, 0)])
def test_last_card_rule_and_penalty(rule: LastCardRule, penalty: int, drawn: int) -> None:
    options = TakiOptions(last_card_rule=rule, last_card_penalty=penalty)
    state = given(["r3 r9", "b3", "", ""], lead="r7", filler=(0, 2, 2, 2), options=options)
    after, _ = apply(state, play(state, A, "r3"))
    after, events = apply(after, play(after, B, "b3"))
    assert (LastCardPenalty(A) in events) is (rule is LastCardRule.ON)
    assert len(after.hands[A]) == 1 + drawn


@pytest.mark.parametrize("close, run_after, skipped", [(TakiClose.EXPLICIT, Run(Color.RED, A), False), (TakiClose.AUTO, None, True)])
def test_taki_close(close: TakiClose, run_after: Run | None, skipped: bool) -> None:
    state = given(["rTAKI r3 rSTOP", "", "", ""], options=TakiOptions(taki_close=close))
    after, events = apply(state, play(state, A, "rTAKI r3 rSTOP"), EndTurn(A))
    assert after.run == run_after
    assert (PlayerSkipped(B) in events) is skipped


def test_taki_close_auto_closes_a_run_left_by_close_taki_false() -> None:
    # §17.2: `close_taki: false` acts as `end_turn`; §9.7: under auto that closes the run.
    state = given(["rTAKI r3 rSTOP", "", "", ""], options=TakiOptions(taki_close=TakiClose.AUTO))
    after, events = apply(state, play(state, A, "rTAKI r3 rSTOP", close_taki=False))
    assert after.run is None and PlayerSkipped(B) in events and after.current == C


def test_taki_close_auto_leaves_a_lone_taki_open() -> None:
    state = given(["rTAKI", "", "", ""], options=TakiOptions(taki_close=TakiClose.AUTO))
    after, _ = apply(state, play(state, A, "rTAKI"), EndTurn(A))
    assert after.run == Run(Color.RED, A)


def test_super_taki_after_king_inherit() -> None:
    state = given(["K ST b3", "", "", ""])
    after, _ = apply(state, play(state, A, "K ST"))
    assert after.run == Run(Color.RED, A)
    rejected(state, play(state, A, "K ST", color=Color.BLUE), "color_not_allowed")


def test_super_taki_after_king_choose() -> None:
    state = given(["K ST b3", "", "", ""], options=TakiOptions(super_taki_after_king=SuperTakiAfterKing.CHOOSE))
    rejected(state, play(state, A, "K ST"), "color_required", 1)
    after, _ = apply(state, play(state, A, "K ST b3", color=Color.BLUE, close_taki=True))
    assert after.active_color is Color.BLUE and after.current == B


def test_two_colours_in_one_batch() -> None:
    state = given(["K ST CC", "", "", ""], options=TakiOptions(super_taki_after_king=SuperTakiAfterKing.CHOOSE))
    st, cc = play(state, A, "ST CC").cards
    after, _ = apply(state, play(state, A, "K ST CC", colors=((st, Color.BLUE), (cc, Color.GREEN))))
    assert after.run is None and after.active_color is Color.GREEN and after.current == B


@pytest.mark.parametrize("king", list(KingOnPlus3))
def test_king_on_plus3(king: KingOnPlus3) -> None:
    state = given(["+3 r9", "K g4", "", ""], options=TakiOptions(king_on_plus3=king))
    window, _ = apply(state, play(state, A, "+3"))
    if king is KingOnPlus3.CANCEL:
        after, _ = apply(window, play(window, B, "K g4"))
        assert after.plus3 is None and after.current == C
    else:
        rejected(window, play(window, B, "K g4"), "plus3_window_open")


@pytest.mark.parametrize("resolves", [False, True])
def test_plus3_last_card_resolves(resolves: bool) -> None:
    state = given(["+3", "", "", ""], filler=(0, 2, 2, 2), options=TakiOptions(plus3_last_card_resolves=resolves))
    after, _ = apply(state, play(state, A, "+3"))
    if not resolves:
        assert after.result is not None and after.result.ranking[0] == (A,)
        return
    assert after.plus3 is not None and after.result is None
    after, events = apply(after, Pass(B), Pass(C), Pass(D))
    assert [e.seat for e in events if isinstance(e, CardsDrawn)] == [B, C, D]
    assert isinstance(events[-1], GameEnded) and events[-1].ranking[0] == (A,)


def test_plus3_last_card_resolves_but_broken() -> None:
    state = given(["+3", "", "BRK", ""], filler=(0, 2, 2, 2), options=TakiOptions(plus3_last_card_resolves=True))
    after, _ = apply(state, play(state, A, "+3"))
    after, _ = apply(after, play(after, C, "BRK"))
    assert after.result is None and len(after.hands[A]) == 3


@pytest.mark.parametrize("skips, to_move", [(False, B), (True, A)])
def test_two_player_reverse_skips(skips: bool, to_move: int) -> None:
    state = given(["rDIR", ""], options=TakiOptions(two_player_reverse_skips=skips))
    after, _ = apply(state, play(state, A, "rDIR"))
    assert after.current == to_move


def test_plus3_response_seconds_is_bounded() -> None:
    with pytest.raises(OptionsInvalid):
        TAKI.parse_options({"plus3_response_seconds": 0}, 2)
    assert TAKI.parse_options({"plus3_response_seconds": 30}, 2).plus3_response_seconds == 30


def test_describe_options_lists_every_option_with_its_default() -> None:
    described = {entry["name"]: entry for entry in TAKI.describe_options()}
    assert described["mode"] == {"name": "mode", "default": "classic", "kind": "choice", "values": ["classic", "tournament"],
                                 "description": described["mode"]["description"]}
    assert described["last_card_penalty"]["minimum"] == 0
    assert len(described) == 12


def test_king_from_the_next_player_after_it_passed_is_not_a_responder() -> None:
    # §17.4: a seat that already passed is no longer a responder.
    state = given(["+3 r9", "K g4", "", ""])
    window, _ = apply(state, play(state, A, "+3"), Pass(B))
    rejected(window, play(window, B, "K"), "not_a_responder")
    rejected(window, play(window, B, "g4"), "plus3_window_open")


def test_timeout_commands_follow_section_17_3() -> None:
    from domain.taki.commands import Draw
    from domain.taki.rules import response_seconds, timeout_command

    state = given(["rTAKI r3 K +3", "", "", ""], options=TakiOptions(plus3_response_seconds=30))
    assert timeout_command(state, A) == Draw(A) and response_seconds(state) is None
    in_run, _ = apply(state, play(state, A, "rTAKI r3"))
    assert timeout_command(in_run, A) == EndTurn(A)
    king, _ = apply(state, play(state, A, "K"))
    assert timeout_command(king, A) == EndTurn(A)
    window, _ = apply(state, play(state, A, "+3"))
    assert [timeout_command(window, seat) for seat in (B, C, D)] == [Pass(B), Pass(C), Pass(D)]
    assert response_seconds(window) == 30
    strict = given(["r9", "", "", ""], options=TakiOptions(draw_requires_no_legal_play=True))
    assert timeout_command(strict, A) == play(strict, A, "r9")


def test_a_strict_draw_is_judged_on_the_hand_held_before_an_owed_penalty() -> None:
    """A seat that owes the last-card penalty draws it before its action (§13.1): whether it may
    draw under `draw_requires_no_legal_play` does not hang on the penalty cards, which it has not
    seen and which a reshuffle deals by chance — so the listed commands and `decide` agree."""
    state = given(["b9", ""], lead="r5", discard="g3 y7 r3 b4 g6 y6 r8 r5", pile="", filler=0, owed=(1, None),
                  options=TakiOptions(draw_requires_no_legal_play=True, last_card_penalty=4))
    listed = Draw(A) in TAKI.legal_commands(state, A)
    verdicts = {violation_with(state, Draw(A), SeededRng(seed)) is None for seed in range(30)}
    assert listed and verdicts == {True}


def violation_with(state: TakiState, command: Command, rng: SeededRng) -> RuleViolation | None:
    try:
        decide(state, command, rng)
    except RuleViolation as problem:
        return problem
    return None
