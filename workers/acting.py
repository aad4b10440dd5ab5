"""Acting for a seat from a job: only at the version the job was made for, and only once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.errors import VersionConflict
from events.execute import Loaded
from workers.queues import job_executor


def act_for(game_id: str, version: int, seat: int, actor: str, choose: Callable[[Loaded], Any]) -> str:
    """Send `choose(game)` for `seat` if the game is still at `version` and waits for that seat.

    The append is conditional on `version`: a move that came first wins, and a job run twice acts
    once, with no idempotency key kept."""
    executor = job_executor()
    loaded = executor.load(game_id)
    if loaded.version != version:
        return "stale"
    if seat not in loaded.game.status(loaded.state).to_move:
        return "not due"
    try:
        executor.execute(
            game_id, choose(loaded), actor=f"{actor}:{seat}", expected_version=version, loaded=loaded,
        )
    except VersionConflict:
        return "moved on"
    return "acted"
