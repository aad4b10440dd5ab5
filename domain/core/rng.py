"""Sources of chance handed to `setup` and `decide`; their outcomes go into events."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from domain.core.errors import ChanceNotRecorded

T = TypeVar("T")


class Rng(Protocol):
    """The only door through which chance enters the rules."""

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A new tuple holding `items` in a random order."""
        ...

    def randint(self, low: int, high: int) -> int:
        """A whole number from `low` to `high`, both included."""
        ...

    def salt(self) -> str:
        """32 hex digits no one can guess, to seal a shuffle with (see domain.core.shuffles)."""
        ...


class SeededRng:
    """Reproducible chance from a seed (tests, bots, offline analysis)."""

    def __init__(self, seed: int | str | bytes) -> None:
        self._random = random.Random(seed)

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        result = list(items)
        self._random.shuffle(result)
        return tuple(result)

    def randint(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def salt(self) -> str:
        return f"{self._random.getrandbits(128):032x}"


class SystemRng(SeededRng):
    """Unpredictable chance for live games: the operating system's random source."""

    # its outcomes cannot be foretold from earlier ones, as a seeded generator's can

    def __init__(self) -> None:
        self._random = random.SystemRandom()


class ScriptedRng:
    """Chance that follows a script, each shuffle the next given order, each die the next value."""

    # tests use it to state outcomes literally

    def __init__(self, orders: Sequence[Sequence[object]] = (), dice: Sequence[int] = ()) -> None:
        self._orders = [tuple(order) for order in orders]
        self._dice = list(dice)

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        if not self._orders:
            return tuple(items)
        order = self._orders.pop(0)
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise ValueError("scripted order is not a permutation of the items shuffled")
        return order  # type: ignore[return-value]

    def salt(self) -> str:
        return "0" * 32

    def randint(self, low: int, high: int) -> int:
        value = self._dice.pop(0)
        if not low <= value <= high:
            raise ValueError(f"scripted die {value} outside {low}..{high}")
        return value


class Drawn(NamedTuple):
    """One outcome of chance as an event records it: a shuffle's order, a die's value or a seal's salt."""

    kind: str  # "shuffle", "die" or "salt": the Rng method that gave it
    value: Any


def shuffle_of(order: Sequence[object]) -> Drawn:
    return Drawn("shuffle", tuple(order))


def die_of(value: int) -> Drawn:
    return Drawn("die", value)


def salt_of(value: str) -> Drawn:
    return Drawn("salt", value)


class ReplayingRng:
    """Chance fed back from a log: each request answered by the next recorded outcome, if it is of
    that kind and could have come from it; anything else raises ChanceNotRecorded."""

    def __init__(self, outcomes: Sequence[Drawn]) -> None:
        self._outcomes = outcomes
        self._next = 0

    def left(self) -> int:
        """How many recorded outcomes no request has taken."""
        return len(self._outcomes) - self._next

    def _take(self, kind: str) -> Any:
        if self._next == len(self._outcomes):
            raise ChanceNotRecorded(f"it asks for a {kind} the log does not record")
        drawn = self._outcomes[self._next]
        if drawn.kind != kind:
            raise ChanceNotRecorded(f"it asks for a {kind} where the log records a {drawn.kind}")
        self._next += 1
        return drawn.value

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        order = self._take("shuffle")
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise ChanceNotRecorded(f"it shuffles {len(items)} things where the log records an order of others")
        return tuple(order)

    def randint(self, low: int, high: int) -> int:
        value = self._take("die")
        if not low <= value <= high:
            raise ChanceNotRecorded(f"it rolls {low} to {high} where the log records {value}")
        return int(value)

    def salt(self) -> str:
        return str(self._take("salt"))
