"""The Djambi AI levels choose legal commands, and the greedy one plays like it means it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.bot import greedy_bot, random_bot
from domain.djambi.moves import actions
from domain.djambi.state import DjambiState
from tests.domain.djambi.positions import RED, position


def play_out(state: DjambiState, levels: list, seed: int) -> DjambiState:  # type: ignore[type-arg]
    rng = SeededRng(seed)
    for _ in range(5_000):
        if DJAMBI.status(state).finished:
            return state
        seat = DJAMBI.status(state).to_move[0]
        for event in DJAMBI.decide(state, levels[seat](state, seat, rng), rng):  # raises if illegal
            state = DJAMBI.evolve(state, event)
    raise AssertionError("the bots did not finish the game")


@settings(max_examples=6, deadline=None)
@given(seats=st.sampled_from([3, 4]), seed=st.integers(0, 2**32))
def test_bots_play_whole_games_with_legal_commands(seats: int, seed: int) -> None:
    options = DJAMBI.parse_options({}, seats)
    state = DJAMBI.replay(options, seats, DJAMBI.setup(options, seats, SeededRng(seed)))
    assert DJAMBI.status(play_out(state, [greedy_bot if seat % 2 else random_bot for seat in range(seats)], seed)).finished


def test_greedy_takes_a_chief_when_it_can() -> None:
    state = position("rC@A9 rM@D4 bC@D5 yC@H1 gC@C2", RED)
    assert greedy_bot(state, 0, SeededRng(0)).to == "D5"


def test_greedy_keeps_its_chief_out_of_reach() -> None:
    state = position("rC@A9 rM@F2 bA@A5 bC@I9 yC@H1 gC@C2 X@B8 X@B9", RED)  # blue's assassin eyes column A
    command = greedy_bot(state, 0, SeededRng(0))
    after = state
    for event in DJAMBI.decide(state, command, SeededRng(0)):
        after = DJAMBI.evolve(after, event)
    chief = after.chief_square(0)
    assert all(to != chief for _, to, _ in actions(after, 1)), command


def test_greedy_beats_random_players() -> None:
    wins = 0
    for seed in range(6):
        options = DJAMBI.parse_options({}, 4)
        state = DJAMBI.replay(options, 4, DJAMBI.setup(options, 4, SeededRng(seed)))
        greedy = seed % 4
        final = play_out(state, [greedy_bot if seat == greedy else random_bot for seat in range(4)], seed)
        wins += DJAMBI.status(final).ranking[0] == (greedy,)
    assert wins >= 5  # a random player would win about one game in four
