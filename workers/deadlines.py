"""The job that applies a passed deadline: the game's own timeout command, or the AI's move."""

from __future__ import annotations

from domain.core.rng import SystemRng
from events.execute import Loaded
from workers.acting import act_for


def apply_deadline(game_id: str, version: int, seat: int, policy: str, level: str | None) -> str:
    """Act for `seat` if the game still waits for it at `version`: a move that arrived first
    wins, and a deadline applied once is never applied again."""

    def choose(loaded: Loaded) -> object:
        if policy == "auto" and level is not None:
            return loaded.game.bots[level](loaded.state, seat, SystemRng())
        return loaded.game.timeout_command(loaded.state, seat)

    return act_for(game_id, version, seat, "deadline", choose)
