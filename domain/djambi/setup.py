"""Who plays which army (§4, §14): four players, or three and a hostage army."""

from __future__ import annotations

from domain.core.rng import Rng
from domain.djambi.events import Event, GameStarted, TurnKind, TurnStarted
from domain.djambi.options import DjambiOptions
from domain.djambi.pieces import COLORS

MIN_SEATS, MAX_SEATS = 3, 4


def setup(options: DjambiOptions, seats: int, rng: Rng) -> tuple[Event, ...]:
    """Seats take the armies in play order, red first, the `hostage_army` nobody's; the first seat opens on a regular turn."""
    hostage = options.hostage_army if seats == 3 else None
    players = tuple(color for color in COLORS if color is not hostage)
    return GameStarted(players, hostage), TurnStarted(0, TurnKind.REGULAR, 1)
