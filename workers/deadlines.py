"""The job that applies a passed deadline: the game's own timeout command, or the AI's move."""

from __future__ import annotations

from domain.core.rng import SystemRng
from events.envelope import VersionConflict
from workers.queues import job_executor


def apply_deadline(game_id: str, version: int, seat: int, policy: str, level: str | None) -> str:
    """Act for `seat` if the game is still at `version` and still waits for it: a move that
    arrived first wins, and a deadline applied once is never applied again."""
    executor = job_executor()
    loaded = executor.load(game_id)
    if loaded.version != version:
        return "stale"
    if seat not in loaded.game.status(loaded.state).to_move:
        return "not due"
    if policy == "auto" and level is not None:
        command = loaded.game.bots[level](loaded.state, seat, SystemRng())
    else:
        command = loaded.game.timeout_command(loaded.state, seat)
    try:
        executor.execute(
            game_id, command, actor=f"deadline:{seat}", expected_version=version,
            idempotency_key=f"deadline:{version}:{seat}", fingerprint="deadline",
        )
    except VersionConflict:
        return "moved on"
    return "applied"
