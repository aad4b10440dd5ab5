"""Reading Server-Sent Events as a browser's EventSource does."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


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
