"""When a seat's time to act runs out: the earlier of the rules' own deadline (TAKI's +3
window) and the game's turn deadline, counted from the game's latest event; a turn deadline
moves for a player on vacation, as far as the game allows."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.game import Budget
from events.envelope import DeadlinePolicy
from events.execute import Loaded
from events.store import EventStore
from players.accounts import PlayerStore


@dataclass(frozen=True, slots=True)
class Due:
    at: int  # milliseconds since the epoch
    policy: DeadlinePolicy  # the rules' own deadline skips; `auto` plays the AI at `level`, within `budget` if set
    level: str | None
    budget: Budget | None = None


def due(store: EventStore, loaded: Loaded, seat: int) -> Due | None:
    """The deadline of `seat` at the loaded version, or None if it has none."""
    seconds, turn = loaded.game.response_seconds(loaded.state), loaded.record.deadline
    if loaded.version == 0 or seat not in loaded.game.status(loaded.state).to_move or (seconds is None and turn is None):
        return None
    since = store.streams.read(loaded.record.id, after=loaded.version - 1, limit=1)[0].time
    candidates: list[Due] = []
    if seconds is not None:
        candidates.append(Due(since + seconds * 1000, DeadlinePolicy.SKIP, None))
    if turn is not None:
        at = since + turn.seconds * 1000
        holder = loaded.record.holders.get(seat)
        player = PlayerStore(store.redis).get(holder) if holder else None
        if player is not None and player.vacation_until is not None and player.vacation_until > at:
            at = min(player.vacation_until, at + turn.vacation_days * 86_400_000)
        candidates.append(Due(at, turn.policy, turn.level, turn.budget))
    return min(candidates, key=lambda deadline: deadline.at, default=None)
