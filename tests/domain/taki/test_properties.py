"""Properties of many random TAKI games under random options."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.rng import SeededRng
from domain.taki import TAKI
from domain.taki.commands import Play
from domain.taki.events import LeadingCardTurned
from domain.taki.options import KingOnPlus3, LastCardRule, Mode, SuperTakiAfterKing, TakiClose, TakiOptions
from domain.taki.rules import violation
from domain.taki.state import TakiState
from tests.domain.taki.positions import card_ids
from tests.playing import random_game


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, TakiOptions, int]:
    """Seats, options and a seed. Tournaments get at most 5 seats here: a 10-seat tournament
    played for places runs to tens of thousands of commands (see the test of its own below)."""
    mode = draw(st.sampled_from(Mode))
    seats = draw(st.integers(2, 10 if mode is Mode.CLASSIC else 5))
    options = TakiOptions(
        mode=mode,
        first_seat=draw(st.integers(0, seats - 1)),
        play_for_places=draw(st.booleans()),
        draw_requires_no_legal_play=draw(st.booleans()),
        last_card_rule=draw(st.sampled_from(LastCardRule)),
        last_card_penalty=draw(st.integers(0, 6)),
        taki_close=draw(st.sampled_from(TakiClose)),
        super_taki_after_king=draw(st.sampled_from(SuperTakiAfterKing)),
        king_on_plus3=draw(st.sampled_from(KingOnPlus3)),
        plus3_last_card_resolves=draw(st.booleans()),
        two_player_reverse_skips=draw(st.booleans()),
    )
    return seats, options, draw(st.integers(0, 2**32))


def is_play(command: object) -> bool:
    return isinstance(command, Play)


def card_count(state: TakiState) -> int:
    return sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard)


@settings(max_examples=30, deadline=None)
@given(tables())
def test_every_event_keeps_116_cards_and_replay_equals_live(table: tuple[int, TakiOptions, int]) -> None:
    seats, options, seed = table
    assert card_count(TAKI.replay(options, seats, TAKI.setup(options, seats, SeededRng(seed)))) == 116
    for step in random_game(TAKI, seats, options, seed, prefer=is_play):
        state = step.before
        for event in step.events:
            state = TAKI.evolve(state, event)
            assert card_count(state) == 116
            name, version, payload = TAKI.events.encode(event)
            assert TAKI.events.decode(name, version, json.loads(json.dumps(payload))) == event
        assert state == step.after
    final = step.after
    assert final.is_over and TAKI.status(final).finished


@settings(max_examples=15, deadline=None)
@given(tables())
def test_legal_commands_are_exactly_the_accepted_ones(table: tuple[int, TakiOptions, int]) -> None:
    seats, options, seed = table
    for number, step in enumerate(random_game(TAKI, seats, options, seed, prefer=is_play)):
        if number % 7:
            continue
        for seat in range(seats):
            legal = set(TAKI.legal_commands(step.before, seat))
            for card in step.before.hands[seat]:
                command = Play(seat, (card.id,))
                problem = violation(step.before, command)
                assert (problem is None) == (command in legal)
                assert problem is None or problem.reason


def secrets_from(state: TakiState, seat: int | None) -> set[str]:
    """Cards `seat` may not see: other hands and the draw pile."""
    hidden = {card.id for card in state.draw_pile}
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {card.id for card in hand}
    return hidden


@settings(max_examples=10, deadline=None)
@given(tables())
def test_no_view_or_redacted_event_leaks_a_secret(table: tuple[int, TakiOptions, int]) -> None:
    seats, options, seed = table
    for step in random_game(TAKI, seats, options, seed, prefer=is_play):
        if step.after.is_over:
            break
        for seat in (*range(seats), None):
            secret = secrets_from(step.after, seat)
            assert not card_ids(TAKI.view(step.after, seat)) & secret
            if seat is not None:
                assert not card_ids(TAKI.legal_commands(step.after, seat)) & secret
            state = step.before
            for event in step.events:
                state = TAKI.evolve(state, event)
                buried = {event.card} if isinstance(event, LeadingCardTurned) else set()
                assert not card_ids(TAKI.redact(event, seat)) & (secrets_from(state, seat) - buried)


def test_a_ten_seat_tournament_for_places_ends() -> None:
    options = TakiOptions(mode=Mode.TOURNAMENT, play_for_places=True)
    steps = list(random_game(TAKI, 10, options, seed=7, prefer=is_play, max_commands=100_000))
    result = steps[-1].after.result
    assert result is not None and sorted(seat for place in result.ranking for seat in place) == list(range(10))
