"""The job that plays one move for an AI seat."""

from __future__ import annotations

import time

from domain.core.rng import SystemRng
from events.execute import Loaded
from workers.acting import act_for


def play_bot_turn(game_id: str, version: int, seat: int) -> str:
    """Play for the AI at `seat`, if the game still waits for it at `version`."""

    def choose(loaded: Loaded) -> object:
        level = loaded.record.bots[seat]
        assert level is not None, f"seat {seat} is not an AI seat"
        return loaded.game.bot(level, loaded.record.budgets.get(seat), time.perf_counter)(loaded.state, seat, SystemRng())

    return act_for(game_id, version, seat, "bot", choose)
