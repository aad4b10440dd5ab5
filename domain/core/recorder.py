"""The working copy a decider writes its events into."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

S = TypeVar("S")  # state
E = TypeVar("E")  # event


class Recorder(Generic[S, E]):
    """A state that applies and records each event emitted into it; `events` is what a command caused."""

    # each rule of a command thus sees the state the rules before it left

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, *events: E) -> None:
        for event in events:
            self.state = self._evolve(self.state, event)
            self.events.append(event)
