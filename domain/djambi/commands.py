"""What a Djambi seat may ask for (§18). Squares are named as in `E5`."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.codec import EventCodec
from domain.core.game import Seat
from domain.djambi.pieces import Color


@dataclass(frozen=True, slots=True)
class Play:
    """The one action of a turn (§18.1): the piece on `piece` (a square, or a piece id such as
    `red.militant1`) moves to `to`; `place` puts down the piece it displaced, `exit` is where it
    leaves the maze to, `report` names the piece a reporter kills. `player`, when given, must
    be the colour of the seat."""

    seat: Seat
    piece: str
    to: str
    place: str | None = None
    exit: str | None = None
    report: str | None = None
    player: Color | None = None


@dataclass(frozen=True, slots=True)
class ProposeDraw:
    """Offer the other remaining players a draw (§18.4)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class AcceptDraw:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DeclineDraw:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the game: the chief dies where it stands, as if encircled (§16)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Skip:
    """The turn passes without an action: what a turn deadline does under the `skip` policy."""
    # not a player's choice (§5 allows no voluntary pass), so neither listed nor accepted over the API

    seat: Seat


Command = Play | ProposeDraw | AcceptDraw | DeclineDraw | Resign | Skip

# each command's wire name in a log, as the API names it
CODEC: EventCodec[Command] = EventCodec({Play: "play", ProposeDraw: "propose_draw", AcceptDraw: "accept_draw",
                                         DeclineDraw: "decline_draw", Resign: "resign", Skip: "skip"})
