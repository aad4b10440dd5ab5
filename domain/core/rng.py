"""Sources of chance handed to `setup` and `decide`; their outcomes go into events."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

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
