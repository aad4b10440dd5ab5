"""A seat's command played on its game: decided on the state this process holds when that is
still likely the game's, else on the game read from the store."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from application.errors import NotNow
from events.envelope import CANCELLED, GameRecord, Lifecycle
from events.execute import Executor, Loaded
from events.streams import Appended


def game_to_play(executor: Executor, game_id: str, seat_of: Callable[[GameRecord], int]) -> tuple[Loaded, int]:
    """The game a seat is to command, and the seat (`seat_of` the game's record: the caller's
    own). The game is as this process holds it, unless the seat is not to move there (another
    process likely served the last move), or else as read from the store."""
    loaded = executor.held(game_id) or executor.load(game_id)
    seat = seat_of(loaded.record)
    if loaded.held and seat not in loaded.game.status(loaded.state).to_move:
        loaded = executor.load(game_id)
    return loaded, seat


def check_under_way(loaded: Loaded) -> None:
    """Refuse a command to a game that was cancelled or has not started."""
    if loaded.record.status is Lifecycle.CANCELLED:
        raise NotNow("game_cancelled", CANCELLED)
    if loaded.version == 0:
        raise NotNow("game_not_started", "The game starts when every seat is taken.")


def play(executor: Executor, loaded: Loaded, seat: int, command: Any, *, expected_version: int | None,
         idempotency_key: str | None, fingerprint: str) -> Appended:
    """Decide `seat`'s command on `loaded` (from `game_to_play`) and append its events: at
    `expected_version` only, if given; once per `idempotency_key` (`fingerprint` telling the same
    command from another sent with it)."""
    return executor.execute(loaded.record.id, command, actor=f"seat:{seat}", expected_version=expected_version,
                            idempotency_key=idempotency_key, fingerprint=fingerprint, loaded=loaded)
