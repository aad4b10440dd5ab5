"""Legal commands as a tree of choices (`?form=grouped`): by type, then by the fields every command
of that type writes, in the order it writes them (Djambi: piece, then to), down to the commands.

Each choice is `{"field": "piece", "value": "A9", "choices": [...]}`, or at the last level
`{"field": "to", "value": "B9", "commands": [...]}`: the listed commands themselves, whole, in the
order of the list, so that reading the leaves left to right gives the list back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

Body = Mapping[str, Any]


def choices(commands: Sequence[Body]) -> list[dict[str, Any]]:
    """The commands grouped by `type`, then each type by its shared leading fields."""
    return [_choice("type", members, _levels(members)) for members in _by_value(commands, "type")]


def _levels(commands: Sequence[Body]) -> list[str]:
    """The fields that every one of the commands writes right after `type`, in the same order."""
    shared: list[str] = []
    for fields in zip(*(list(command)[1:] for command in commands), strict=False):
        if len(set(fields)) > 1:
            break
        shared.append(fields[0])
    return shared


def _choice(field: str, commands: Sequence[Body], levels: Sequence[str]) -> dict[str, Any]:
    """One value of `field` and what follows it: the next level's choices, or the commands."""
    choice: dict[str, Any] = {"field": field, "value": commands[0][field]}
    if not levels:
        return choice | {"commands": [dict(command) for command in commands]}
    following = [_choice(levels[0], members, levels[1:]) for members in _by_value(commands, levels[0])]
    return choice | {"choices": following}


def _by_value(commands: Sequence[Body], field: str) -> list[list[Body]]:
    """The commands grouped by their value of `field`, each group where its first command is."""
    groups: dict[str, list[Body]] = {}
    for command in commands:
        groups.setdefault(json.dumps(command[field], sort_keys=True), []).append(command)
    return list(groups.values())
