"""Properties of many random Djambi games under random options."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.djambi import DJAMBI
from domain.djambi.board import NAMES, name
from domain.djambi.commands import Play
from domain.djambi.options import DjambiOptions, Encirclement, NecromobileRescue
from domain.djambi.pieces import COLORS, PIECES
from domain.djambi.state import DjambiState
from tests.playing import random_game


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, DjambiOptions, int]:
    """Seats, options and a seed (odd seeds play quietly, see `preference`)."""
    seats = draw(st.sampled_from([3, 4]))
    options = DjambiOptions(
        self_kill=draw(st.booleans()),
        reporter_may_abstain=draw(st.booleans()),
        master_moves=draw(st.booleans()),
        diplomat_chief_into_maze=draw(st.booleans()),
        encirclement=draw(st.sampled_from(Encirclement)),
        necromobile_rescue=draw(st.sampled_from(NecromobileRescue)),
        no_progress_limit=draw(st.sampled_from([0, 20, 200])),
        hostage_army=draw(st.sampled_from(COLORS)) if seats == 3 else COLORS[3],
    )
    return seats, options, draw(st.integers(0, 2**32))


def is_play(command: object) -> bool:
    return isinstance(command, Play)


def is_quiet_play(command: object) -> bool:
    """A play that displaces nothing: games made mostly of these last long and crowd the board."""
    return isinstance(command, Play) and command.place is None and command.exit is None and command.report is None


def check_board(state: DjambiState) -> None:
    """All 36 pieces on the board, living or dead, each on its own square."""
    assert all(state.where[p] is not None and state.board[state.where[p]] == p for p in PIECES)  # type: ignore[index]
    assert sum(piece is not None for piece in state.board) == 36


def preference(seed: int):  # type: ignore[no-untyped-def]
    return is_quiet_play if seed % 2 else is_play


@settings(max_examples=60, deadline=None)
@given(tables())
def test_every_event_keeps_36_pieces_and_replay_equals_live(table: tuple[int, DjambiOptions, int]) -> None:
    seats, options, seed = table
    events = list(DJAMBI.setup(options, seats, SeededRng(seed)))
    for step in random_game(DJAMBI, seats, options, seed, prefer=preference(seed)):
        state = step.before
        for event in step.events:
            state = DJAMBI.evolve(state, event)
            check_board(state)
            wire, version, payload = DJAMBI.events.encode(event)
            assert DJAMBI.events.decode(wire, version, json.loads(json.dumps(payload))) == event
        assert state == step.after
        events += step.events
    status = DJAMBI.status(step.after)
    assert status.finished and status.reason in {"won", "no_progress", "no_legal_action", "all_encircled", "agreed"}
    assert DJAMBI.replay(options, seats, events) == step.after
    assert sorted(seat for place in status.ranking for seat in place) == list(range(seats))


def random_play(chooser: random.Random, state: DjambiState, seat: int) -> Play:
    """A command made of random squares: mostly nonsense, now and then legal."""
    squares = list(NAMES)
    mine = [name(state.where[p]) for p in state.pieces_of(seat) if state.where[p] is not None]  # type: ignore[arg-type]

    def maybe() -> str | None:
        return chooser.choice(squares) if chooser.random() < 0.4 else None

    return Play(seat, chooser.choice(mine or squares), chooser.choice(squares), maybe(), maybe(), maybe())


@settings(max_examples=25, deadline=None)
@given(tables())
def test_legal_commands_are_exactly_the_accepted_ones(table: tuple[int, DjambiOptions, int]) -> None:
    seats, options, seed = table
    chooser = random.Random(seed)
    for number, step in enumerate(random_game(DJAMBI, seats, options, seed, prefer=preference(seed))):
        if number % 3:
            continue
        state = step.before
        seat = DJAMBI.status(state).to_move[0]
        legal = DJAMBI.legal_commands(state, seat)
        for command in chooser.sample(legal, min(len(legal), 25)):
            DJAMBI.decide(state, command, SeededRng(0))  # accepted: raises nothing
        listed = set(legal)
        for _ in range(40):
            command = random_play(chooser, state, seat)
            try:
                DJAMBI.decide(state, command, SeededRng(0))
            except RuleViolation as violation:
                assert command not in listed and violation.reason and violation.message
            else:
                assert command in listed, command
