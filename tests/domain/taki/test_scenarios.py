"""Every test scenario of rules/taki.md §20, named by its number. Players A, B, C, D are seats
0–3; hands list the cards that matter (padded with two cards no scenario names)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from domain.core.errors import RuleViolation
from domain.core.rng import ScriptedRng
from domain.core.shuffles import commitment
from domain.taki.cards import BY_ID, DECK, Color, Figure
from domain.taki.commands import AnnounceLastCard, CloseTaki, Draw, EndTurn, Pass, Play
from domain.taki.events import (
    CardPlayed,
    CardsDrawn,
    DiscardReshuffled,
    DrawReason,
    DrawShortfall,
    GameEnded,
    LastCardLapsed,
    LastCardPenalty,
    LeadingCardTurned,
    PlayerSkipped,
    PlayerWentOut,
    PlusUnfulfilled,
    StageCompleted,
)
from domain.taki.evolve import evolve, initial
from domain.taki.options import Mode, TakiOptions
from domain.taki.rules import legal_commands
from domain.taki.setup import setup
from domain.taki.state import Phase, Run
from tests.domain.taki.positions import apply, codes, given, hand, ids, play, rejected

A, B, C, D = 0, 1, 2, 3
TOURNAMENT = TakiOptions(mode=Mode.TOURNAMENT)


def started(seats: int, order: list[str]):  # type: ignore[no-untyped-def]
    state = initial(TakiOptions(), seats)
    events = setup(TakiOptions(), seats, ScriptedRng([order]))
    for event in events:
        state = evolve(state, event)
    return state, events


def deck_order_with_flip(seats: int, *flips: str) -> list[str]:
    """A shuffle whose first flipped cards (after the deal) are `flips`."""
    ids_ = [card.id for card in DECK]
    for card_id in flips:
        ids_.remove(card_id)
    dealt = [i for i in ids_ if BY_ID[i].color is not None][: 8 * seats]
    rest = [i for i in ids_ if i not in dealt]
    return dealt + list(flips) + rest


# Deck and setup


def test_01_deck() -> None:
    assert len(DECK) == 116
    numbers = [c for c in DECK if c.figure.value.isdigit()]
    assert len(numbers) == 64 and not any(c.figure.value == "2" for c in numbers)
    for color in Color:
        mine = Counter(c.figure.value for c in DECK if c.color == color)
        assert mine == {figure: 2 for figure in "1 3 4 5 6 7 8 9 stop plus2 change_direction plus taki".split()}
    colorless = Counter(c.figure for c in DECK if c.color is None)
    assert colorless == {Figure.SUPER_TAKI: 2, Figure.KING: 2, Figure.PLUS3: 2, Figure.PLUS3_BREAKER: 2, Figure.CHANGE_COLOR: 4}
    assert len({c.id for c in DECK}) == 116


def test_02_deal_four_players() -> None:
    state, _ = started(4, deck_order_with_flip(4, "green.4.1"))
    assert [len(h) for h in state.hands] == [8] * 4
    assert codes(state.discard) == ["g4"] and len(state.draw_pile) == 83
    assert state.active_color is Color.GREEN and state.current == A


def test_03_deal_ten_players_and_eleven_refused() -> None:
    state, _ = started(10, deck_order_with_flip(10, "red.3.1"))
    assert [len(h) for h in state.hands] == [8] * 10 and len(state.draw_pile) == 35
    with pytest.raises(RuleViolation) as refused:
        setup(TakiOptions(), 11, ScriptedRng())
    assert refused.value.reason == "seat_count"


def test_04_opening_plus2_ignored() -> None:
    state = given(["r7 b+2", "", "", ""], lead="r+2")
    assert state.plus2_stack == 0
    assert Draw(A) in legal_commands(state, A)
    after, _ = apply(state, play(state, A, "r7"))
    assert after.current == B and after.plus2_stack == 0
    after, _ = apply(state, play(state, A, "b+2"))
    assert after.plus2_stack == 2 and after.current == B


def test_05_opening_taki_ignored() -> None:
    state = given(["y3 bTAKI y5", "", "", ""], lead="yTAKI")
    assert state.run is None
    after, _ = apply(state, play(state, A, "y3"))
    assert after.current == B
    after, _ = apply(state, play(state, A, "bTAKI"))
    assert after.run == Run(Color.BLUE, A)
    rejected(after, play(after, A, "y5"), "wrong_run_color", 0)


def test_06_colourless_opening_is_buried() -> None:
    order = deck_order_with_flip(4, "none.king.1", "red.6.1")
    state, events = started(4, order)
    assert [e for e in events if isinstance(e, LeadingCardTurned)] == [
        LeadingCardTurned("none.king.1", buried=True), LeadingCardTurned("red.6.1")]
    assert state.draw_pile[-1].id == "none.king.1"
    assert codes(state.discard) == ["r6"] and state.active_color is Color.RED


# Matching and basic turns


def test_07_basic_match() -> None:
    state = given(["b5 r9 g7 CC", "", "", ""], filler=0)
    plays = [c for c in legal_commands(state, A) if isinstance(c, Play)]
    cc = ids(state, A, "CC")
    assert plays == [play(state, A, "b5"), play(state, A, "r9")] + [Play(A, cc, color=c) for c in Color]
    rejected(state, play(state, A, "g7"), "illegal_card", 0)


def test_08_figure_match_on_actions() -> None:
    state = given(["bSTOP", "", "", ""], lead="rSTOP")
    after, events = apply(state, play(state, A, "bSTOP"))
    assert PlayerSkipped(B) in events and after.current == C and after.active_color is Color.BLUE


def test_09_draw_ends_the_turn() -> None:
    state = given(["", "", "", ""], pile="r3 g1 g3")
    after, _ = apply(state, Draw(A))
    assert after.current == B and "r3" in hand(after, A)
    rejected(after, play(after, A, "r3"), "not_your_turn")


def test_10_batch_after_a_plain_card() -> None:
    state = given(["r9 r3", "", "", ""])
    rejected(state, play(state, A, "r9 r3"), "card_after_turn_end", 1)
    assert "r9" in hand(state, A) and "r3" in hand(state, A)


def test_11_stop_in_reverse() -> None:
    state = given(["rSTOP", "", "", ""], direction=-1)
    after, events = apply(state, play(state, A, "rSTOP"))
    assert PlayerSkipped(D) in events and after.current == C


def test_12_change_direction() -> None:
    state = given(["rDIR", "", "", ""])
    after, _ = apply(state, play(state, A, "rDIR"))
    assert after.direction == -1 and after.current == D


def test_13_change_direction_two_players() -> None:
    state = given(["rDIR", ""])
    after, _ = apply(state, play(state, A, "rDIR"))
    assert after.current == B and after.direction == -1


def test_14_stop_two_players() -> None:
    state = given(["rSTOP", ""])
    after, events = apply(state, play(state, A, "rSTOP"))
    assert PlayerSkipped(B) in events
    assert after.current == A and after.turn_no == state.turn_no + 1


def test_15_change_color() -> None:
    state = given(["CC r9", "r5 y3", "", ""])
    after, _ = apply(state, play(state, A, "CC", color=Color.YELLOW))
    assert after.active_color is Color.YELLOW and after.current == B
    rejected(after, play(after, B, "r5"), "illegal_card", 0)
    after, _ = apply(after, play(after, B, "y3"))
    assert after.current == C
    rejected(state, play(state, A, "CC"), "color_required", 0)
    rejected(state, play(state, A, "r9", color=Color.BLUE), "color_not_allowed")


# +2


def test_16_stacking() -> None:
    state = given(["r+2", "g+2", "y+2", "r3"])
    after, events = apply(state, play(state, A, "r+2"))
    after, _ = apply(after, play(after, B, "g+2"))
    assert after.plus2_stack == 4
    after, _ = apply(after, play(after, C, "y+2"))
    assert after.plus2_stack == 6
    before = len(after.hands[D])
    after, events = apply(after, Draw(D))
    assert len(after.hands[D]) == before + 6 and after.plus2_stack == 0
    assert after.current == A and after.active_color is Color.YELLOW and after.leading_card.code() == "y+2"


def test_17_new_stack_on_a_dead_plus2() -> None:
    state = given(["b+2", "", "", ""], lead="y+2")
    after, _ = apply(state, play(state, A, "b+2"))
    assert after.plus2_stack == 2 and after.current == B


def test_18_what_a_stack_allows() -> None:
    state = given(["", "r7 CC ST BRK +3 K g+2", "", ""], lead="r+2", current=B, plus2_stack=2, filler=0)
    for card in ("r7", "ST", "BRK", "+3"):
        rejected(state, play(state, B, card), "must_answer_plus2", 0)
    rejected(state, play(state, B, "CC", color=Color.RED), "must_answer_plus2", 0)
    legal = legal_commands(state, B)
    assert play(state, B, "g+2") in legal and play(state, B, "K") in legal and Draw(B) in legal


def test_19_king_cancels() -> None:
    state = given(["", "K", "b+2", ""], lead="g+2", current=B, plus2_stack=4)
    before = len(state.hands[B])
    after, _ = apply(state, play(state, B, "K"))
    assert after.plus2_stack == 0 and len(after.hands[B]) == before - 1 and after.phase is Phase.KING_FOLLOW_UP
    after, _ = apply(after, EndTurn(B))
    assert after.current == C and after.leading_card.code() == "g+2" and after.active_color is Color.GREEN
    after, _ = apply(after, play(after, C, "b+2"))
    assert after.plus2_stack == 2 and after.current == D


def test_20_king_plus_follow_up() -> None:
    state = given(["", "K y9", "", ""], lead="g+2", current=B, plus2_stack=4)
    after, _ = apply(state, play(state, B, "K y9"))
    assert after.plus2_stack == 0 and after.active_color is Color.YELLOW and after.current == C


# Plus and King


def test_21_plus_follow_up() -> None:
    state = given(["rPLUS r7 b7 bPLUS", "", "", ""])
    after, _ = apply(state, play(state, A, "rPLUS r7"))
    assert after.current == B
    rejected(state, play(state, A, "rPLUS b7"), "illegal_card", 1)
    after, _ = apply(state, play(state, A, "rPLUS bPLUS b7"))
    assert after.current == B and after.active_color is Color.BLUE


def test_22_plus_then_draw() -> None:
    state = given(["rPLUS", "", "", ""])
    after, _ = apply(state, play(state, A, "rPLUS"))
    assert after.current == A and after.phase is Phase.PLUS_FOLLOW_UP
    before = len(after.hands[A])
    after, _ = apply(after, Draw(A))
    assert len(after.hands[A]) == before + 1 and after.current == B


def test_23_plus_as_last_card() -> None:
    state = given(["rPLUS", "", "", ""], filler=0)
    after, events = apply(state, play(state, A, "rPLUS"))
    assert PlusUnfulfilled(A) in events and len(after.hands[A]) == 1
    assert after.current == B and after.result is None and after.owed[A] is None


def test_24_king_optional_and_as_last_card() -> None:
    state = given(["K r3", "", "", ""], filler=0)
    after, _ = apply(state, play(state, A, "K"))
    assert after.phase is Phase.KING_FOLLOW_UP
    rejected(after, Draw(A), "draw_not_allowed")
    after, _ = apply(after, EndTurn(A))
    assert after.current == B and after.owed[A] is not None
    alone = given(["K", "", "", ""], filler=0)
    after, events = apply(alone, play(alone, A, "K"))
    assert after.result is not None and after.result.ranking[0] == (A,) and after.result.reason == "won"


def test_25_king_transparency() -> None:
    state = given(["", "b5 r9 g7", "", ""], discard="r5 K", current=B)
    assert play(state, B, "b5") in legal_commands(state, B)
    assert play(state, B, "r9") in legal_commands(state, B)
    rejected(state, play(state, B, "g7"), "illegal_card", 0)


def test_26_king_follow_up_opens_a_run() -> None:
    state = given(["K bTAKI b3 b4", "", "", ""])
    after, _ = apply(state, play(state, A, "K bTAKI b3 b4", close_taki=True))
    assert after.run is None and after.active_color is Color.BLUE and after.current == B
    assert after.discard[-1].code() == "b4"


# TAKI runs


def test_27_closed_run_stop_last() -> None:
    state = given(["rTAKI r3 r8 rSTOP g1", "", "", ""], filler=0)
    after, events = apply(state, play(state, A, "rTAKI r3 r8 rSTOP", close_taki=True, announce_last_card=True))
    assert PlayerSkipped(B) in events and after.current == C and after.active_color is Color.RED
    assert hand(after, A) == ["g1"] and after.announced[A] and after.owed[A] is None


def test_28_actions_inside_a_run_are_inert() -> None:
    state = given(["rTAKI r+2 r3", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r+2 r3", close_taki=True))
    assert after.plus2_stack == 0 and after.current == B


def test_29_plus2_closes_a_run() -> None:
    state = given(["rTAKI r3 r+2", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 r+2", close_taki=True))
    assert after.plus2_stack == 2 and after.current == B


def test_30_open_run_inherited() -> None:
    state = given(["rTAKI r3 rSTOP", "r7 r9", "", ""])
    for leave in (play(state, A, "rTAKI r3 rSTOP", close_taki=False),):
        after, events = apply(state, leave)
        assert after.run == Run(Color.RED, A) and not any(isinstance(e, PlayerSkipped) for e in events)
        assert after.current == B
    by_end_turn, _ = apply(state, play(state, A, "rTAKI r3 rSTOP"), EndTurn(A))
    assert by_end_turn.run == after.run and by_end_turn.current == B
    after, _ = apply(after, play(after, B, "r7 r9", close_taki=True))
    assert after.run is None and after.current == C


def test_31_open_run_broken_by_another_colour() -> None:
    state = given(["rTAKI r3 rSTOP", "bSTOP", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 rSTOP", close_taki=False))
    after, events = apply(after, play(after, B, "bSTOP"))
    assert after.run is None and events.count(PlayerSkipped(C)) == 1 and after.current == D
    assert after.active_color is Color.BLUE


def test_32_inheritor_activates_the_last_card() -> None:
    state = given(["rTAKI r3", "rSTOP", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3", close_taki=False))
    after, events = apply(after, play(after, B, "rSTOP", close_taki=True))
    assert PlayerSkipped(C) in events and after.current == D


def test_33_lone_taki() -> None:
    state = given(["rTAKI", "bTAKI b4 b6", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI"))
    rejected(after, CloseTaki(A), "cannot_close_taki_on_top")
    after, _ = apply(after, EndTurn(A))
    assert after.run == Run(Color.RED, A) and after.current == B
    after, _ = apply(after, play(after, B, "bTAKI b4 b6", close_taki=True))
    assert after.run is None and after.discard[-1].code() == "b6"
    assert after.active_color is Color.BLUE and after.current == C


def test_34_another_colour_in_ones_own_run() -> None:
    state = given(["rTAKI r3 bTAKI", "", "", ""])
    rejected(state, play(state, A, "rTAKI r3 bTAKI"), "wrong_run_color", 2)
    rejected(state, play(state, A, "rTAKI bTAKI"), "wrong_run_color", 1)


def test_35_change_color_ends_a_run() -> None:
    state = given(["rTAKI r3 CC g5", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 CC", color=Color.GREEN))
    assert after.run is None and after.active_color is Color.GREEN and after.current == B
    rejected(state, play(state, A, "rTAKI r3 CC g5", color=Color.GREEN), "card_after_turn_end", 3)


def test_36_super_taki_inside_a_run() -> None:
    state = given(["rTAKI r3 ST r5", "", "", ""], lead="r6")
    after, _ = apply(state, play(state, A, "rTAKI r3 ST r5", close_taki=True))
    assert after.run is None and after.discard[-1].code() == "r5" and after.active_color is Color.RED
    rejected(state, play(state, A, "rTAKI r3 ST", close_taki=True), "cannot_close_taki_on_top")


def test_37_super_taki_takes_the_active_colour() -> None:
    state = given(["ST b3 b7", "", "", ""], lead="CC", color=Color.BLUE, discard="r5 CC")
    after, _ = apply(state, play(state, A, "ST b3 b7", close_taki=True))
    assert after.run is None and after.active_color is Color.BLUE and after.current == B
    rejected(state, play(state, A, "ST", color=Color.RED), "color_not_allowed")


def test_38_taki_on_a_super_taki() -> None:
    state = given(["ST", "gTAKI g1", "", ""])
    after, _ = apply(state, play(state, A, "ST"), EndTurn(A))
    assert after.run == Run(Color.RED, A)
    after, _ = apply(after, play(after, B, "gTAKI g1", close_taki=True))
    assert after.run is None and after.discard[-1].code() == "g1" and after.active_color is Color.GREEN


def test_39_king_ends_a_run() -> None:
    state = given(["rTAKI r3 K b7", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 K b7"))
    assert after.run is None and after.active_color is Color.BLUE and after.current == B


def test_40_plus_at_the_end_of_a_run() -> None:
    state = given(["rTAKI r3 rPLUS gPLUS g4", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 rPLUS", close_taki=True))
    assert after.current == A and after.phase is Phase.PLUS_FOLLOW_UP
    after, _ = apply(after, play(after, A, "gPLUS"))
    assert after.current == A and after.phase is Phase.PLUS_FOLLOW_UP
    after, _ = apply(after, play(after, A, "g4"))
    assert after.current == B
    shortcut = given(["rTAKI r3 rPLUS bPLUS b7", "", "", ""])
    after, _ = apply(shortcut, play(shortcut, A, "rTAKI r3 rPLUS bPLUS b7"))
    assert after.active_color is Color.BLUE and after.current == B and after.run is None


def test_41_plus_inside_an_unclosed_run() -> None:
    state = given(["rTAKI r3 rPLUS", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3 rPLUS", close_taki=False))
    assert after.run is not None and after.current == B and after.phase is Phase.NORMAL


def test_42_no_drawing_mid_run_drawing_leaves_an_inherited_run_open() -> None:
    state = given(["rTAKI r3", "", "r8", ""])
    mid_run, _ = apply(state, play(state, A, "rTAKI r3"))
    rejected(mid_run, Draw(A), "draw_not_allowed")
    after, _ = apply(mid_run, EndTurn(A), Draw(B))
    assert after.run == Run(Color.RED, A) and after.current == C
    after, _ = apply(after, play(after, C, "r8", close_taki=True))
    assert after.run is None and after.discard[-1].code() == "r8"


def test_43_nothing_to_close() -> None:
    state = given(["rTAKI r3", "", "", ""])
    after, _ = apply(state, play(state, A, "rTAKI r3", close_taki=False))
    rejected(after, CloseTaki(B), "no_run_to_close")


# +3 and Breaker


def plus3_table(**fields):  # type: ignore[no-untyped-def]
    return given(["+3 r9", "r7 CC K g4 b5", "BRK", "BRK"], **fields)


def test_44_plus3_nobody_breaks() -> None:
    state = plus3_table()
    after, _ = apply(state, play(state, A, "+3"))
    assert after.plus3 is not None and after.plus3.awaiting == (B, C, D)
    rejected(after, play(after, B, "r7"), "plus3_window_open")
    sizes = [len(h) for h in after.hands]
    after, events = apply(after, Pass(B), Pass(C), Pass(D))
    drawn = [e.seat for e in events if isinstance(e, CardsDrawn)]
    assert drawn == [B, C, D] and [len(h) for h in after.hands] == [sizes[0]] + [n + 3 for n in sizes[1:]]
    assert after.current == B and after.phase is Phase.NORMAL and after.leading_card.code() == "r5"
    assert play(after, B, "b5") in legal_commands(after, B)


def test_45_plus3_broken_late() -> None:
    state = plus3_table()
    after, _ = apply(state, play(state, A, "+3"))
    sizes = [len(h) for h in after.hands]
    after, _ = apply(after, Pass(B), Pass(C), play(after, D, "BRK"))
    assert [len(h) for h in after.hands] == [sizes[0] + 3, sizes[1], sizes[2], sizes[3] - 1]
    assert after.current == B and after.plus3 is None


def test_46_illegal_answers() -> None:
    state = plus3_table()
    window, _ = apply(state, play(state, A, "+3"))
    rejected(window, Play(A, (BY_ID["none.plus3_breaker.1"].id,)), "card_not_in_hand", 0)
    own = given(["+3 BRK", "r7", "", ""])
    own_window, _ = apply(own, play(own, A, "+3"))
    rejected(own_window, play(own_window, A, "BRK"), "not_a_responder")
    passed, _ = apply(window, Pass(C))
    rejected(passed, play(passed, C, "BRK"), "not_a_responder")
    rejected(window, play(window, B, "CC", color=Color.RED), "plus3_window_open")
    broken, _ = apply(window, play(window, D, "BRK"))
    rejected(broken, play(broken, C, "BRK"), "not_your_turn")


def test_47_king_answers_plus3() -> None:
    state = plus3_table()
    window, _ = apply(state, play(state, A, "+3"))
    sizes = [len(h) for h in window.hands]
    after, _ = apply(window, play(window, B, "K g4"))
    assert [len(h) for h in after.hands] == [sizes[0], sizes[1] - 2, sizes[2], sizes[3]]
    assert after.active_color is Color.GREEN and after.current == C and after.plus3 is None
    with_king = given(["+3 r9", "r7", "K", "BRK"])
    window, _ = apply(with_king, play(with_king, A, "+3"))
    rejected(window, play(window, C, "K"), "plus3_window_open")


def test_47_note_king_answer_is_a_turn_action() -> None:
    state = given(["+3 r9", "K g4", "", ""], filler=(0, 2, 2, 2))
    window, _ = apply(state, play(state, A, "+3"))
    assert window.owed[A] is not None
    after, events = apply(window, play(window, B, "K g4"))
    assert LastCardPenalty(A) in events and len(after.hands[A]) == 5


def test_48_breaker_on_own_turn() -> None:
    state = given(["BRK", "b5", "", ""])
    before = len(state.hands[A])
    after, _ = apply(state, play(state, A, "BRK"))
    assert len(after.hands[A]) == before + 2 and after.current == B
    assert after.leading_card.code() == "r5" and play(after, B, "b5") in legal_commands(after, B)


def test_49_breaker_as_last_card_on_own_turn() -> None:
    state = given(["BRK", "", "", ""], filler=0)
    after, _ = apply(state, play(state, A, "BRK"))
    assert len(after.hands[A]) == 3 and after.result is None


def test_50_breaker_answer_empties_the_hand() -> None:
    state = given(["+3", "", "BRK", ""])
    state = replace(state, hands=state.hands[:2] + (state.hands[2][:1],) + state.hands[3:])
    window, _ = apply(state, play(state, A, "+3"))
    before = len(window.hands[A])
    after, _ = apply(window, play(window, C, "BRK"))
    assert len(after.hands[A]) == before + 3
    assert after.result is not None and after.result.ranking[0] == (C,)


def test_51_plus3_as_last_card() -> None:
    state = given(["+3", "", "", ""], filler=0)
    after, _ = apply(state, play(state, A, "+3"))
    assert after.result is not None and after.result.ranking[0] == (A,) and after.plus3 is None


def test_52_two_players() -> None:
    state = given(["+3", ""])
    window, _ = apply(state, play(state, A, "+3"))
    before = len(window.hands[B])
    after, _ = apply(window, Pass(B))
    assert len(after.hands[B]) == before + 3 and after.current == B


# Last card


def test_53_announced_with_the_play() -> None:
    state = given(["r3 r9", "r4", "", ""], lead="r7", filler=(0, 2, 2, 2))
    after, _ = apply(state, play(state, A, "r3", announce_last_card=True))
    after, events = apply(after, play(after, B, "r4"))
    assert not any(isinstance(e, LastCardPenalty) for e in events) and len(after.hands[A]) == 1


def test_54_forgotten() -> None:
    state = given(["r3 r9", "b3", "", ""], lead="r7", filler=(0, 2, 2, 2))
    after, _ = apply(state, play(state, A, "r3"))
    after, events = apply(after, play(after, B, "b3"))
    assert events[0] == LastCardPenalty(A)
    assert isinstance(events[1], CardsDrawn) and events[1].seat == A and len(events[1].cards) == 4
    assert isinstance(events[2], CardPlayed) and events[2].seat == B
    assert len(after.hands[A]) == 5


def test_55_late_but_in_time() -> None:
    state = given(["r3 r9", "r4", "", ""], lead="r7", filler=(0, 2, 2, 2))
    after, _ = apply(state, play(state, A, "r3"), AnnounceLastCard(A))
    after, events = apply(after, play(after, B, "r4"))
    assert not any(isinstance(e, LastCardPenalty) for e in events)
    late, _ = apply(state, play(state, A, "r3"))
    late, _ = apply(late, play(late, B, "r4"))
    assert len(late.hands[A]) == 5
    rejected(late, AnnounceLastCard(A), "not_on_last_card")


def test_56_lapse() -> None:
    state = given(["+3 r9", "r4", "BRK", ""], filler=(0, 2, 2, 2))
    window, _ = apply(state, play(state, A, "+3"))
    after, events = apply(window, play(window, C, "BRK"))
    assert len(after.hands[A]) == 4 and LastCardLapsed(A) in events
    after, events = apply(after, play(after, B, "r4"))
    assert not any(isinstance(e, LastCardPenalty) for e in events)


def test_57_two_players_after_a_stop() -> None:
    state = given(["rSTOP r9", ""], filler=0)
    after, _ = apply(state, play(state, A, "rSTOP"))
    assert after.current == A
    after, events = apply(after, play(after, A, "r9"))
    assert events[0] == LastCardPenalty(A) and isinstance(events[1], CardsDrawn) and len(events[1].cards) == 4
    assert len(after.hands[A]) == 4 and after.result is None


def test_58_going_out_never_needs_an_announcement() -> None:
    state = given(["rTAKI r3", "", "", ""], filler=0)
    after, _ = apply(state, play(state, A, "rTAKI r3"))
    assert after.result is not None and after.result.ranking[0] == (A,)


def test_59_breaker_answer_leaves_one_card() -> None:
    state = given(["+3", "r4", "BRK g4", ""], filler=(2, 2, 0, 2))
    window, _ = apply(state, play(state, A, "+3"))
    after, _ = apply(window, play(window, C, "BRK"))
    assert after.owed[C] is not None
    after, events = apply(after, play(after, B, "r4"))
    assert events[0] == LastCardPenalty(C) and len(after.hands[C]) == 5


# Drawing and piles


def test_60_reshuffle() -> None:
    state = given(["", "", "", ""], discard="g1 y4 b7 r5", pile="")
    order = ("blue.7.1", "green.1.1", "yellow.4.1")
    after, events = apply(state, Draw(A), rng=ScriptedRng([order]))
    reshuffled = DiscardReshuffled(order, "0" * 32, commitment(order, "0" * 32))  # sealed with the scripted salt
    assert reshuffled in events
    assert events[events.index(reshuffled) + 1] == CardsDrawn(A, ("blue.7.1",), DrawReason.DRAW)
    assert len(after.draw_pile) == 2 and codes(after.discard) == ["r5"]


def test_61_reshuffle_keeps_the_transparent_top() -> None:
    state = given(["", "", "", ""], discard="g1 y8 r5 +3 BRK", pile="")
    after, events = apply(state, Draw(A))
    reshuffled = next(e for e in events if isinstance(e, DiscardReshuffled))
    assert sorted(reshuffled.order) == ["green.1.1", "yellow.8.1"]
    assert codes(after.discard) == ["r5", "+3", "BRK"]


def test_62_shortfall() -> None:
    state = given(["", "", "", ""], discard="r+2", pile="", current=B, plus2_stack=2)
    after, events = apply(state, Draw(B))
    assert DrawShortfall(B, 2) in events and len(after.hands[B]) == len(state.hands[B])
    assert after.plus2_stack == 0 and after.current == C


def test_63_strict_draw_option() -> None:
    strict = given(["r9", "", "", ""], options=TakiOptions(draw_requires_no_legal_play=True))
    rejected(strict, Draw(A), "must_play")
    lenient = given(["r9", "", "", ""])
    after, _ = apply(lenient, Draw(A))
    assert after.current == B


# Tournament


def test_64_stage_completed() -> None:
    state = given(["r9", "", "", ""], options=TOURNAMENT, filler=0)
    after, events = apply(state, play(state, A, "r9"))
    assert StageCompleted(A, 7) in events and after.stages[A] == 7 and len(after.hands[A]) == 7
    assert after.current == B and after.result is None


def test_65_tournament_win() -> None:
    state = given(["r9", "", "", ""], options=TOURNAMENT, filler=0, stages=(1, 8, 8, 8))
    after, _ = apply(state, play(state, A, "r9"))
    assert after.result is not None and after.result.ranking[0] == (A,)


def test_66_plus_between_stages() -> None:
    state = given(["rPLUS", "", "", ""], options=TOURNAMENT, filler=0, stages=(5, 8, 8, 8))
    after, events = apply(state, play(state, A, "rPLUS"))
    assert StageCompleted(A, 4) in events and len(after.hands[A]) == 4
    assert after.current == A and after.phase is Phase.PLUS_FOLLOW_UP
    legal = legal_commands(after, A)
    assert Draw(A) in legal
    assert all(after.find_in_hand(A, c.cards[0]) is not None for c in legal if isinstance(c, Play))


def test_66_a_batch_names_only_cards_of_the_hand_it_is_sent_from() -> None:
    state = given(["rPLUS", "", "", ""], options=TOURNAMENT, filler=0, stages=(5, 8, 8, 8))
    after, _ = apply(state, play(state, A, "rPLUS"))
    dealt = after.hands[A][0].id  # a card of the stage's new hand, drawn during the batch
    rejected(state, Play(A, (*ids(state, A, "rPLUS"), dealt)), "card_not_in_hand", 1)


def test_67_stage_one_deal() -> None:
    state = given(["K r3", "r4", "", ""], options=TOURNAMENT, filler=(0, 2, 2, 2), stages=(2, 8, 8, 8))
    after, _ = apply(state, play(state, A, "K r3"))
    assert after.stages[A] == 1 and len(after.hands[A]) == 1 and after.owed[A] is None
    after, events = apply(after, play(after, B, "r4"))
    assert not any(isinstance(e, LastCardPenalty) for e in events)


# Ranking, game over, misc


def test_68_play_for_places() -> None:
    options = TakiOptions(play_for_places=True)
    state = given(["r3", "r4", "r6 r7"], options=options, filler=0)
    after, events = apply(state, play(state, A, "r3"))
    assert PlayerWentOut(A, 1) in events and after.result is None and after.current == B
    after, events = apply(after, play(after, B, "r4"))
    assert PlayerWentOut(B, 2) in events and PlayerWentOut(C, 3) in events
    assert events[-1] == GameEnded(((A,), (B,), (C,)), "won")


def test_69_after_the_end() -> None:
    state = given(["r3", "r4", ""], filler=0)
    after, _ = apply(state, play(state, A, "r3"))
    for command in (play(after, B, "r4"), Draw(B), Pass(C), AnnounceLastCard(C)):
        rejected(after, command, "game_over")


def test_70_out_of_turn() -> None:
    state = given(["", "r6", "", ""])
    rejected(state, play(state, B, "r6"), "not_your_turn")
    rejected(state, AnnounceLastCard(B), "not_on_last_card")


def test_71_bad_ids() -> None:
    state = given(["r5", "", "", ""], lead="r6")
    rejected(state, Play(A, ("red.2.1",)), "card_not_in_hand", 0)
    card = ids(state, A, "r5")[0]
    rejected(state, Play(A, (card, card)), "duplicate_card", 1)
