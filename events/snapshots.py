"""Snapshots: a game's state saved every `EVERY` events, so that a rebuild replays fewer. A finished
game keeps only its latest (`keep_last`). Only a cache: a missing snapshot, or one written by other
rules than these, is ignored and the state rebuilt from the events."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from importlib.abc import Traversable
from typing import Any, cast

import redis
from redis.client import Pipeline

from domain.core.codec import converter
from events import keys, scripts

EVERY = 200  # events between snapshots
_KEEP_LAST = scripts.source("keep_last_snapshot.lua")


def _sources(folder: Traversable) -> list[Traversable]:
    found: list[Traversable] = []
    for entry in folder.iterdir():
        if entry.is_dir():
            found += _sources(entry)
        elif entry.name.endswith((".py", ".json")):
            found.append(entry)
    return found


def _rules_fingerprint() -> str:
    """Which rules a snapshot was written by: a digest of the domain package."""
    digest = hashlib.sha256()
    for path in sorted(_sources(resources.files("domain")), key=lambda p: str(p)):
        digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


RULES = _rules_fingerprint()


class Snapshots:
    """Saved states of games by version, in each game's own hash, as JSON."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._save = scripts.register(client, "save_snapshot.lua")

    def nearest(self, game_id: str, version: int, kind: type) -> tuple[int, Any] | None:
        """The snapshot at the last multiple of EVERY up to `version`, as a state of type `kind`."""
        at = version - version % EVERY
        stored = cast(bytes | None, self.redis.hget(keys.snapshots(game_id), str(at))) if at else None
        if stored is None:
            return None
        saved = json.loads(stored)
        if saved["rules"] != RULES:
            return None
        return at, converter.structure(saved["state"], kind)

    def save(self, game_id: str, version: int, state: Any) -> None:
        """Keep `state` as the game at `version`, a multiple of EVERY, unless the game is over."""
        saved = {"rules": RULES, "state": converter.unstructure(state)}
        self._save(keys=[keys.meta(game_id), keys.snapshots(game_id)], args=[version, json.dumps(saved, separators=(",", ":"))])


def keep_last(pipe: Pipeline, game_id: str) -> None:
    """Queue on `pipe` the deletion of every snapshot of a finished game but its latest."""
    pipe.execute_command("EVAL", _KEEP_LAST, 1, keys.snapshots(game_id))  # a cluster's pipeline refuses `eval`
