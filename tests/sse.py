"""Reading Server-Sent Events as a browser's EventSource does."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Message:
    id: str | None
    event: str
    data: Any  # the JSON in `data`


def messages(lines: Iterable[str]) -> Iterator[Message]:
    """The messages in a stream's lines; comments and `retry` lines are skipped."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in fields:
                yield Message(fields.get("id"), fields.get("event", "message"), json.loads(fields["data"]))
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


def parse(text: str) -> list[Message]:
    return list(messages(text.split("\n")))


def until(seconds: float, lines: Iterable[T]) -> Iterator[T]:
    """The lines of a stream as they come, failing the test once `seconds` have gone by rather than reading
    for ever (looked at as each line comes: a heartbeat's comment comes at least every heartbeat)."""
    deadline = time.monotonic() + seconds
    for line in lines:
        if time.monotonic() > deadline:
            raise AssertionError(f"the stream went on past {seconds} s")
        yield line
