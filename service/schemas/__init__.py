"""Request and response shapes; each game's commands have a module of their own."""

from __future__ import annotations

from types import ModuleType

from service.schemas import bahama_taxi, djambi, taki

GAME_SCHEMAS: dict[str, ModuleType] = {"taki": taki, "djambi": djambi, "bahama_taxi": bahama_taxi}  # game name → module with load_command, dump_command
