"""When a seat's time to act runs out: the earlier of the rules' own deadline (TAKI's +3
window) and the game's turn deadline, counted from the game's latest event."""

from __future__ import annotations

from dataclasses import dataclass

from events.execute import Loaded
from events.store import EventStore


@dataclass(frozen=True, slots=True)
class Due:
    at: int  # milliseconds since the epoch
    policy: str  # skip: the game's timeout command; auto: the AI at `level` plays
    level: str | None


def due(store: EventStore, loaded: Loaded, seat: int) -> Due | None:
    """The deadline of `seat` at the loaded version, or None if it has none."""
    if loaded.version == 0 or seat not in loaded.game.status(loaded.state).to_move:
        return None
    candidates: list[tuple[int, str, str | None]] = []
    if (seconds := loaded.game.response_seconds(loaded.state)) is not None:
        candidates.append((seconds, "skip", None))
    if (turn := loaded.record.deadline) is not None:
        candidates.append((turn.seconds, turn.policy, turn.level))
    if not candidates:
        return None
    seconds, policy, level = min(candidates, key=lambda candidate: candidate[0])
    since = store.read(loaded.record.id, after=loaded.version - 1, limit=1)[0].time
    return Due(since + seconds * 1000, policy, level)
