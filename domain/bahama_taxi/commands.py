"""What a Bahama Taxi seat may ask for (§13.1): citizens by id (`c7`), areas as cards (`10H`), cabs by `pawn`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.core.codec import EventCodec
from domain.core.game import Seat


@dataclass(frozen=True, slots=True)
class PlacePolice:
    """Contraband setup (§11.12): the police on one of the seat's two 3s, the smuggler on the other."""

    seat: Seat
    area: str


@dataclass(frozen=True, slots=True)
class Move:
    """Drive the cab to an adjacent free area (§7.1). With `pick_up` it is a batch (§13.1): the
    move, each pickup in order, then the end of the turn — accepted or refused as a whole."""

    seat: Seat
    to: str
    pawn: int = 0
    pick_up: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Stay:
    """Keep the cab where it is: only with `movement = optional` (§7.2)."""

    seat: Seat
    pawn: int = 0


@dataclass(frozen=True, slots=True)
class Step:
    """Dice (§11.10): one step to an adjacent free area. On a 4 with several farthest
    destinations, the first step names the `target`."""

    seat: Seat
    to: str
    pawn: int = 0
    target: str | None = None


@dataclass(frozen=True, slots=True)
class StopMoving:
    """Dice with optional movement: end the movement early (not on a 4)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class PickUp:
    """Take waiting citizens into the cab, one after the other, all or nothing (§8.3)."""

    seat: Seat
    citizens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DropOff:
    """`double_dropoff = separately`: the passenger that gets out here (§11.7)."""

    seat: Seat
    passenger: str


@dataclass(frozen=True, slots=True)
class CollectFromGod:
    """Before moving, take a citizen that appeared under the cab (§11.2)."""

    seat: Seat
    citizen: str


class End(StrEnum):
    FROM = "from"  # where the passenger boarded: changes only the fare
    TO = "to"  # where it gets out


@dataclass(frozen=True, slots=True)
class Reroute:
    """Four-card hand (§11.11): put a hand card in place of one end of a passenger's trip."""

    seat: Seat
    passenger: str
    end: End
    card: str


@dataclass(frozen=True, slots=True)
class Transfer:
    """Two cabs (§11.8): at the start of the turn, move passengers between the seat's two
    cabs when they stand on adjacent areas."""

    seat: Seat
    from_pawn: int
    to_pawn: int
    passengers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Close the end phase without (more) pickups."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Skip:
    """A turn deadline under `skip`: the turn passes as it stands (a skipped turn does nothing
    at all, §7.3). Not a player's choice, so not listed nor accepted over the API."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Leave the game for good (Meeple's own rule: the seat's cabs and passengers leave, and it ranks last)."""

    seat: Seat


Command = PlacePolice | Move | Stay | Step | StopMoving | PickUp | DropOff | CollectFromGod | Reroute | Transfer | EndTurn | Skip | Forfeit

# each command's wire name in a log, as the API names it
CODEC: EventCodec[Command] = EventCodec({
    PlacePolice: "place_police", Move: "move", Stay: "stay", Step: "step", StopMoving: "stop_moving", PickUp: "pick_up",
    DropOff: "drop_off", CollectFromGod: "collect_from_god", Reroute: "reroute", Transfer: "transfer",
    EndTurn: "end_turn", Skip: "skip", Forfeit: "forfeit"})
