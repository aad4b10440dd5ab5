"""Request and response shapes; each game's commands have a module of their own."""

from __future__ import annotations

from types import ModuleType

from service.schemas import djambi, taki

COMMANDS: dict[str, ModuleType] = {"taki": taki, "djambi": djambi}  # game name → module with load_command, dump_command
