"""AI seats for Djambi: pure functions from the state to a legal command."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.core.game import Budget, Clock, Seat
from domain.core.rng import Rng, SeededRng
from domain.djambi.board import NEIGHBOURS, ORTHOGONAL_NEIGHBOURS, Square, column_of, row_of
from domain.djambi.commands import Command, Play, Resign
from domain.djambi.decide import decide
from domain.djambi.evolve import evolve
from domain.djambi.moves import Action, Choice, actions, choices, kills_at_destination, needs_place
from domain.djambi.pieces import Kind, Piece, kind_of
from domain.djambi.rules import as_play
from domain.djambi.state import DjambiState, status

NO_CHANCE = SeededRng(0)  # Djambi has no chance; `decide` asks for a source all the same
VALUE = {Kind.CHIEF: 0, Kind.ASSASSIN: 5, Kind.REPORTER: 4, Kind.DIPLOMAT: 3, Kind.NECROMOBILE: 3, Kind.MILITANT: 2}


def random_bot(state: DjambiState, seat: Seat, rng: Rng) -> Command:
    """A random action: a random (piece, destination), then random choices for it."""
    pairs = list(actions(state, seat))
    if not pairs:
        return Resign(seat)  # only asked when it is not this seat's turn to act
    piece, to, act = pairs[rng.randint(0, len(pairs) - 1)]
    options = list(choices(state, seat, piece, to, act))
    return as_play(state, seat, piece, to, options[rng.randint(0, len(options) - 1)])


def greedy_bot(state: DjambiState, seat: Seat, rng: Rng) -> Command:
    """One ply ahead: take chiefs and power, win material, keep the own chief out of reach."""
    ranked = _ranked(state, seat, rng)
    return ranked[0][1] if ranked else Resign(seat)


@dataclass(frozen=True)
class MaxN:
    """A max^n search: each of the seat's best-looking plays, answered by every other seat's greedy reply, scored for this seat."""
    # an iteration looks into one play; the first is looked into whatever the budget

    budget: Budget
    clock: Clock | None = None  # what the budget's seconds are read on; a budget in seconds needs one

    def __call__(self, state: DjambiState, seat: Seat, rng: Rng) -> Command:
        out_of_time = self.budget.timer(self.clock)
        best: tuple[float, Play] | None = None
        for _, play in _ranked(state, seat, rng)[:self.budget.iterations]:
            if best is not None and out_of_time():
                break
            after = _played(state, play)
            for _ in range(len(state.remaining) - 1):
                to_move = status(after).to_move
                if not to_move or to_move[0] == seat:
                    break
                after = _played(after, greedy_bot(after, to_move[0], rng))
            score = _score(after, seat) + rng.randint(0, 9) / 100
            if best is None or score > best[0]:
                best = (score, play)
        return best[1] if best is not None else Resign(seat)


search_bot = MaxN(Budget(iterations=6, seconds=0.5))


def _ranked(state: DjambiState, seat: Seat, rng: Rng) -> list[tuple[float, Play]]:
    """The seat's sensible plays, best first by how the position looks right after each."""
    scored = [(_score(_played(state, play), seat) + rng.randint(0, 9) / 100, play)  # ties broken at random
              for piece, to, act in actions(state, seat)
              for play in (as_play(state, seat, piece, to, choice) for choice in _candidates(state, seat, piece, to, act))]
    return sorted(scored, key=lambda item: item[0], reverse=True)


def _played(state: DjambiState, command: Command) -> DjambiState:
    for event in decide(state, command, NO_CHANCE):
        state = evolve(state, event)
    return state


def _candidates(state: DjambiState, seat: Seat, piece: Piece, to: Square, act: Action) -> list[Choice]:
    """A few sensible completions: every report and exit, but only the best-looking square to put a displaced piece on."""
    every = list(choices(state, seat, piece, to, act))
    if not needs_place(piece, act):
        return every
    by_exit: dict[Square | None, Choice] = {}
    for choice in every:
        current = by_exit.get(choice.exit)
        if current is None or _place_value(state, seat, choice.place) > _place_value(state, seat, current.place):
            by_exit[choice.exit] = choice
    return list(by_exit.values())


def _place_value(state: DjambiState, seat: Seat, square: Square | None) -> float:
    """Put displaced pieces next to enemy chiefs (to shut them in) and far from one's own."""
    if square is None:
        return 0.0
    own = state.chief_square(seat)
    value = 0.0
    for neighbour in NEIGHBOURS[square]:
        piece = state.board[neighbour]
        if piece is not None and kind_of(piece) is Kind.CHIEF and state.alive[piece]:
            value += -3.0 if neighbour == own else 2.0
    if own is not None:
        value += 0.1 * max(abs(column_of(square) - column_of(own)), abs(row_of(square) - row_of(own)))
    return value


def _score(state: DjambiState, seat: Seat) -> float:
    if state.result is not None:
        if seat not in state.result.winners:
            return -1000.0
        return 1000.0 if len(state.result.winners) == 1 else 0.0
    if seat not in state.remaining:
        return -1000.0
    score = 0.0
    for piece, alive in enumerate(state.alive):
        if alive and state.where[piece] is not None and not state.is_orphaned(piece):
            score += VALUE[kind_of(piece)] * (1 if state.controller(piece) == seat else -1 / max(1, len(state.remaining) - 1))
    score -= 40 * (len(state.remaining) - 1)
    if state.in_power() == seat:
        score += 15
    if _threatened(state, seat):
        score -= 60
    return score


def _threatened(state: DjambiState, seat: Seat) -> bool:
    """Whether some opponent could kill this seat's chief on their next turn."""
    chief = state.chief_square(seat)
    if chief is None:
        return False
    for other in state.remaining:
        if other == seat:
            continue
        for piece, to, act in actions(state, other):
            if (to == chief and kills_at_destination(act, piece)) or (act is Action.REPORT and chief in ORTHOGONAL_NEIGHBOURS[to]):
                return True
    return False


BOTS: dict[str, Callable[[DjambiState, Seat, Rng], Command]] = {"random": random_bot, "greedy": greedy_bot, "search": search_bot}
