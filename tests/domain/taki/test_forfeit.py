"""Leaving a game for good: Meeple's rule (`decide.forfeit`), as the spec has none."""

from __future__ import annotations

from domain.taki.commands import Draw, Forfeit, Pass
from domain.taki.events import CardsDrawn, GameEnded, PlayerForfeited
from domain.taki.rules import legal_commands
from tests.domain.taki.positions import apply, given, play, rejected

A, B, C, D = 0, 1, 2, 3


def test_the_turn_passes_on_and_the_seat_ranks_last() -> None:
    state = given(["r9", "r3", "r4", "r6"], filler=(2, 0, 2, 2))
    after, events = apply(state, Forfeit(A))
    assert events[0] == PlayerForfeited(A) and after.current == B and after.forfeited == (A,)
    assert len(after.hands[A]) == 3  # keeps its cards
    after, events = apply(after, play(after, B, "r3"))
    assert events[-1] == GameEnded(((B,), (C, D), (A,)), "won")


def test_a_plus2_stack_faces_the_next_player() -> None:
    state = given(["", "", "", ""], lead="r+2", plus2_stack=4)
    after, _ = apply(state, Forfeit(A))
    assert after.current == B and after.plus2_stack == 4
    drawn, events = apply(after, Draw(B))
    assert sum(len(e.cards) for e in events if isinstance(e, CardsDrawn)) == 4


def test_a_plus3_stops_waiting_for_a_seat_that_left() -> None:
    state = given(["+3 r9", "", "", ""])
    window, _ = apply(state, play(state, A, "+3"), Pass(B), Pass(C))
    sizes = [len(hand) for hand in window.hands]
    after, _ = apply(window, Forfeit(D))
    assert after.plus3 is None and [len(h) for h in after.hands] == [sizes[0], sizes[1] + 3, sizes[2] + 3, sizes[3]]
    current, _ = apply(window, Forfeit(B))
    assert current.plus3 is not None and current.plus3.awaiting == (D,) and current.current == C
    assert Pass(D) in legal_commands(current, D)


def test_the_last_seat_in_play_wins() -> None:
    state = given(["r9", "r3"])
    after, events = apply(state, Forfeit(B))
    assert events[-1] == GameEnded(((A,), (B,)), "won") and after.is_over


def test_a_seat_that_left_cannot_act() -> None:
    state = given(["r9", "r3", "r4"])
    after, _ = apply(state, Forfeit(C))
    rejected(after, Forfeit(C), "not_in_game")
    rejected(after, play(after, C, "r4"), "not_your_turn")
    assert Forfeit(A) not in legal_commands(after, A)
    assert after.next_seat(B) == A
