"""The job that plays one move for an AI seat."""

from __future__ import annotations

from domain.core.rng import SystemRng
from events.envelope import VersionConflict
from workers.queues import job_executor


def play_bot_turn(game_id: str, version: int, seat: int) -> str:
    """Play for the AI at `seat` if the game is still at `version` and waits for that seat.
    A stale job does nothing; a move made first by anyone else wins."""
    executor = job_executor()
    loaded = executor.load(game_id)
    level = loaded.record.bots[seat]
    if loaded.version != version:
        return "stale"
    if level is None or seat not in loaded.game.status(loaded.state).to_move:
        return "not due"
    command = loaded.game.bots[level](loaded.state, seat, SystemRng())
    try:
        executor.execute(
            game_id, command, actor=f"bot:{seat}", expected_version=version,
            idempotency_key=f"bot:{version}:{seat}", fingerprint="bot",
        )
    except VersionConflict:
        return "moved on"
    return "played"
