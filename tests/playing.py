"""Playing random games of any game through its protocol, as the property tests and benches do."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from domain.core.game import Game
from domain.core.rng import SeededRng


@dataclass
class Step:
    """One accepted command and what it did."""

    before: Any
    command: Any
    events: tuple[Any, ...]
    after: Any


def moves_on(command: Any) -> bool:
    """The commands of any game that bring a random game to its end soonest."""
    return type(command).__name__ in ("Play", "PickUp", "CollectFromGod", "Move", "Step")


def random_game(
    game: Game,  # type: ignore[type-arg]
    seats: int,
    options: Any,
    seed: int,
    prefer: Callable[[Any], bool] = lambda command: True,
    max_commands: int = 20_000,
    must_end: bool = True,
    interruptions: float = 0.0,
) -> Iterator[Step]:
    """Play from setup to the end: a random seat that may act picks a random legal command,
    one that `prefer`s nine times in ten when it has one. A game still going after
    `max_commands` fails, unless it need not end (then it stops there). With `interruptions`,
    that share of the time the seat's deadline passes instead, and one time in ten it leaves."""
    chooser, rng = random.Random(seed), SeededRng(seed)
    state = game.replay(options, seats, game.setup(options, seats, rng))
    for _ in range(max_commands):
        status = game.status(state)
        if status.finished:
            return
        seat = chooser.choice(status.to_move)
        legal = game.legal_commands(state, seat)
        preferred = [command for command in legal if prefer(command)]
        if interruptions and chooser.random() < interruptions:
            command = game.forfeit_command(seat) if chooser.random() < 0.1 else game.timeout_command(state, seat)
        else:
            command = chooser.choice(preferred if preferred and chooser.random() < 0.9 else legal)
        events = game.decide(state, command, rng)
        after = state
        for event in events:
            after = game.evolve(after, event)
        yield Step(state, command, events, after)
        state = after
    if must_end:
        raise AssertionError(f"game not over after {max_commands} commands (seed {seed})")
