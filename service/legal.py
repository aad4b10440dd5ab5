"""Each seat's legal commands at each version of a game, listed once per process. A version's
list never changes, and listing it can cost far more than a command (Djambi's opening lists 891
plays), so a front end or a bot that asks again — after a refusal, a reconnect, another look —
is answered from memory. A version is known by its number and the command that reached it, so
a version a failover took back and the game reached again by other moves is listed anew."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from events.execute import Loaded
from service.schemas import GAME_SCHEMAS
from service.schemas.choices import choices
from service.schemas.runs import runs

CAPACITY = 1024  # answers kept, the least recently asked let go first

_Key = tuple[str, int, str | None, int, str]
FORMS: dict[str, Callable[[list[dict[str, Any]]], dict[str, Any]]] = {
    "list": lambda commands: {"commands": commands},
    "grouped": lambda commands: {"choices": choices(commands)},
    "compact": lambda commands: {"runs": runs(commands)},
}


class LegalCommands:
    """The answers of `GET /v1/games/{id}/legal-commands`, by game, version, seat and form."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._answers: OrderedDict[_Key, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def answer(self, loaded: Loaded, seat: int, form: str) -> dict[str, Any]:
        """What the seat may send at the loaded version: as a list, a tree of choices (`grouped`) or
        runs (`compact`); shared between callers, so never to be changed."""
        key = (loaded.record.id, loaded.version, loaded.command_id, seat, form)
        with self._lock:
            if (known := self._answers.get(key)) is not None:
                self._answers.move_to_end(key)
                return known
        commands = []
        if loaded.version and not loaded.game.status(loaded.state).finished:
            dump = GAME_SCHEMAS[loaded.game.name].dump_command
            commands = [dump(command) for command in loaded.game.legal_commands(loaded.state, seat)]
        listed = {"version": loaded.version} | FORMS[form](commands)
        with self._lock:
            self._answers[key] = listed
            while len(self._answers) > self.capacity:
                self._answers.popitem(last=False)
        return listed
