"""A log decided again: each command it records decided anew on the state before it, with chance
fed back from what its events record, must give exactly the events the log holds."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from domain.core.errors import ChanceNotRecorded, RuleViolation
from domain.core.game import Game
from domain.core.rng import ReplayingRng


class Own(StrEnum):
    """A run of events no seat asked for: the game's own."""

    SETUP = "setup"  # the deal that opens every game
    REDEAL = "redeal"  # a fork's fresh deal of what the copied events leave hidden (Game.redeal)


@dataclass(frozen=True, slots=True)
class Cause:
    """What caused the run of a log's events that starts at version `first`: a command, or the game's own."""

    first: int
    command: Any  # a command of the game, or an Own

    def describe(self, game: Game) -> str:  # type: ignore[type-arg]
        """The cause as a sentence names it: "seat 1's play", "the setup"."""
        if isinstance(self.command, Own):
            return f"the {self.command}"
        return f"seat {self.command.seat}'s {game.commands.encode(self.command)[0]}"


def redecide(game: Game, options: Any, seats: int,  # type: ignore[type-arg]
             events: Sequence[Any], causes: Sequence[Cause]) -> tuple[Any, tuple[int, str] | None]:
    """The state `events` fold to, and the first event (version, how) that deciding `causes` again
    does not give as `events` has it (None if all do; the state is then the one before its run)."""
    # each run is folded once it came out as the rules give it, so the fold never meets nonsense
    state = game.initial(options, seats)
    ends = [cause.first - 1 for cause in causes[1:]] + [len(events)] if causes else []
    for cause, end in zip(causes, ends, strict=True):
        recorded = events[cause.first - 1:end]
        if difference := _redecided(game, options, seats, state, cause, recorded):
            return state, difference
        for event in recorded:
            state = game.evolve(state, event)
    return state, None


def _redecided(game: Game, options: Any, seats: int, state: Any,  # type: ignore[type-arg]
               cause: Cause, recorded: Sequence[Any]) -> tuple[int, str] | None:
    """How the events `cause` gives on `state` differ from `recorded`, first (version, how); None if they do not."""
    if (cause.first == 1) != (cause.command is Own.SETUP):
        return cause.first, f"a log opens with the setup, and only there: here is {cause.describe(game)}"
    rng = ReplayingRng([drawn for event in recorded for drawn in game.chance(event)])
    try:
        if cause.command is Own.SETUP:
            decided = game.setup(options, seats, rng)
        elif cause.command is Own.REDEAL:
            decided = game.redeal(state, rng)
        else:
            decided = game.decide(state, cause.command, rng)
    except RuleViolation as refused:
        return cause.first, f"{cause.describe(game)}, which the log records, is refused: {refused.message}"
    except ChanceNotRecorded as asked:
        return cause.first, f"deciding {cause.describe(game)} again, {asked}"
    except Exception as error:  # noqa: BLE001 - a forged command may reach what the rules never meant to decide
        return cause.first, f"{cause.describe(game)} does not decide: {error!r}"
    return _compared(game, cause, tuple(decided), recorded)


def _compared(game: Game, cause: Cause, decided: tuple[Any, ...],  # type: ignore[type-arg]
              recorded: Sequence[Any]) -> tuple[int, str] | None:
    """The first of `recorded` that is not the event at its place in `decided`, and how; None if they are the same."""
    for index, (given, held) in enumerate(zip(decided, recorded)):
        if given != held:
            return cause.first + index, f"{cause.describe(game)} gives {_how(game, given, held)}"
    last = cause.first + len(recorded) - 1
    if len(recorded) > len(decided):
        return last - len(recorded) + len(decided) + 1, f"{cause.describe(game)} gives no such event: its events end before"
    if len(decided) > len(recorded):
        return last, f"{cause.describe(game)} also gives {game.events.encode(decided[len(recorded)])[0]} after it, which the log lacks"
    return None


def _how(game: Game, given: Any, held: Any) -> str:  # type: ignore[type-arg]
    """How the event the rules give differs from the one the log holds, in a few words."""
    name, held_name = game.events.encode(given)[0], game.events.encode(held)[0]
    if name != held_name:
        return f"{name} here, not {held_name}"
    fields = [field.name for field in dataclasses.fields(given) if getattr(given, field.name) != getattr(held, field.name)]
    return "; ".join(f"{field} {_short(getattr(given, field))}, not {_short(getattr(held, field))}" for field in fields)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
