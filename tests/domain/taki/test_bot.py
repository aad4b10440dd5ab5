"""The TAKI AI levels always choose a legal command, the greedy one says "Last card!" in time, and the
search judges positions by what each seat holds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.rng import SeededRng
from domain.taki import TAKI
from domain.taki.bot import evaluate, greedy_bot, random_bot
from domain.taki.commands import Play
from domain.taki.options import Mode, TakiOptions
from tests.domain.taki.positions import given as table
from tests.domain.taki.positions import play


@settings(max_examples=20, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**32), mode=st.sampled_from(Mode), places=st.booleans())
def test_bots_play_whole_games_with_legal_commands(seats: int, seed: int, mode: Mode, places: bool) -> None:
    options = TakiOptions(mode=mode, play_for_places=places)
    rng = SeededRng(seed)
    state = TAKI.replay(options, seats, TAKI.setup(options, seats, rng))
    levels = [greedy_bot if seat % 2 else random_bot for seat in range(seats)]
    for _ in range(50_000):
        if TAKI.status(state).finished:
            return
        seat = TAKI.status(state).to_move[0]
        for event in TAKI.decide(state, levels[seat](state, seat, rng), rng):  # raises if illegal
            state = TAKI.evolve(state, event)
    raise AssertionError("the bots did not finish the game")


def test_greedy_announces_with_the_play_that_leaves_one_card() -> None:
    state = table(["r3 r9", "", "", ""], filler=(0, 2, 2, 2))
    chosen = greedy_bot(state, 0, SeededRng(1))
    assert isinstance(chosen, Play) and chosen.announce_last_card


def test_greedy_breaks_a_plus3_it_can_break() -> None:
    state = table(["+3 r9", "BRK g4", "", ""])
    window = state
    for event in TAKI.decide(state, play(state, 0, "+3"), SeededRng(0)):
        window = TAKI.evolve(window, event)
    assert greedy_bot(window, 1, SeededRng(0)) == play(window, 1, "BRK")


def test_the_search_judges_a_king_worth_more_than_a_number_and_fewer_cards_better() -> None:
    king, number = evaluate(table(["K r3", "r4 r6"], filler=0, current=1))
    assert king > number and king + number == pytest.approx(1)
    fewer, more = evaluate(table(["r3", "r4 r6 r7"], filler=0, current=1))
    assert fewer > 0.5 > more


def test_the_search_gives_the_whole_win_to_the_first_seat_out() -> None:
    state = table(["", "r4 r6", "r3"], filler=0, current=1, out=(0,), options=TakiOptions(play_for_places=True))
    assert evaluate(state) == [1.0, 0.0, 0.0]
