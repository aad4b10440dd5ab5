"""Real games to measure with: seeded games played out by the `random` bot, kept as the
commands each seat sent (as the API takes them) and the events each command appended (as
the store keeps them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain import GAMES
from domain.core.rng import SeededRng
from events.envelope import NewEvent
from service.schemas import GAME_SCHEMAS


@dataclass(frozen=True)
class Recorded:
    """One played game: its opening, then each command with the events it appended."""

    game: str
    seats: int
    options: dict[str, Any]
    opening: tuple[NewEvent, ...]
    moves: tuple[tuple[int, dict[str, Any], tuple[NewEvent, ...]], ...]  # (seat, command JSON, events)

    @property
    def appends(self) -> list[tuple[NewEvent, ...]]:
        """The batches an event store receives: the opening, then one per command."""
        return [self.opening] + [events for _, _, events in self.moves]

    @property
    def events(self) -> int:
        return sum(len(batch) for batch in self.appends)


def record(name: str, seed: int, seats: int = 4, options: dict[str, Any] | None = None, level: str = "random") -> Recorded:
    """A game of `name` played to its end by the bot at `level` in every seat."""
    game, rng = GAMES[name], SeededRng(seed)
    parsed = game.parse_options(options or {}, seats)
    opening = game.setup(parsed, seats, rng)
    state = game.replay(parsed, seats, opening)
    moves = []
    while not (status := game.status(state)).finished:
        seat = status.to_move[0]
        command = game.bots[level](state, seat, rng)
        events = game.decide(state, command, rng)
        for event in events:
            state = game.evolve(state, event)
        moves.append((seat, GAME_SCHEMAS[name].dump_command(command), tuple(NewEvent(*game.events.encode(e)) for e in events)))
    return Recorded(name, seats, options or {}, tuple(NewEvent(*game.events.encode(e)) for e in opening), tuple(moves))


def long_game(name: str, events: int, seats: int = 4) -> Recorded:
    """A game of at least `events` events: the first seed whose random game is that long."""
    options = {"max_rounds": 1000} if name == "bahama_taxi" else {}
    for seed in range(1000):
        if (played := record(name, seed, seats, options)).events >= events:
            return played
    raise ValueError(f"no {name} game of {events} events in the first 1000 seeds")
