"""Legal commands in runs (`?form=compact`): the commands next to each other in the list that write
the same fields with the same values but for the last, written once with that last field's values.

A run is `{"command": {"type": "djambi.play", "piece": "C9", "to": "B8"}, "field": "place",
"values": ["D1", "E1", ...]}`: one command per value, `command` with `field` set to it, in the
order of the list. A command of one field (`{"type": "djambi.resign"}`) is a run of its own with
no `field`. Expanding the runs in order gives the list back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Body = Mapping[str, Any]


def runs(commands: Sequence[Body]) -> list[dict[str, Any]]:
    """The commands as runs, in the list's order."""
    found: list[dict[str, Any]] = []
    shared: list[tuple[str, Any]] | None = None  # the fields before the last of the latest run
    for command in commands:
        *before, (field, value) = command.items()
        if not before:
            found.append({"command": dict(command)})
            shared = None
        elif before == shared and found[-1]["field"] == field:
            found[-1]["values"].append(value)
        else:
            found.append({"command": dict(before), "field": field, "values": [value]})
            shared = before
    return found


def expanded(found: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The list of commands the runs stand for."""
    return [dict(run["command"]) | {run["field"]: value} if "field" in run else dict(run["command"])
            for run in found for value in run.get("values", [None])]
