"""Bahama Taxi commands as JSON (rules §13.1): `{"type": "bahama_taxi.move", "to": "6D"}` and the like."""

from __future__ import annotations

from typing import Any, assert_never

from marshmallow import Schema, ValidationError, fields, validate

from domain.bahama_taxi.board import AREAS
from domain.bahama_taxi.commands import (
    CollectFromGod,
    Command,
    DropOff,
    End,
    EndTurn,
    Forfeit,
    Move,
    PickUp,
    PlacePolice,
    Reroute,
    Skip,
    Stay,
    Step,
    StopMoving,
    Transfer,
)
from service.schemas.common import BareSchema, FullMatch, Whole, command_kind, parse, qualified

GAME = "bahama_taxi"
CITIZEN_PATTERN = r"^c[1-9][0-9]{0,3}$"


def _area(description: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(AREAS, error="Must be an area such as AS, 10H or QC."),
                         metadata={"description": f"{description} An area, named as its card: rank, then suit S, H, C or D."},
                         **kwargs)


def _citizen(description: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=FullMatch(CITIZEN_PATTERN, error="Must be a citizen id such as c7."),
                         metadata={"description": description, "examples": ["c7"]}, **kwargs)


def _citizens(description: str, **kwargs: Any) -> fields.List[str]:
    return fields.List(_citizen("A citizen id."), metadata={"description": description}, **kwargs)


class PawnField(fields.Field):  # type: ignore[type-arg]
    """A pawn: 0 or 1, or in Contraband `smuggler` (0) or `police` (1)."""

    NAMES = {"smuggler": 0, "police": 1}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if value in (0, 1) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and value in self.NAMES:
            return self.NAMES[value]
        raise ValidationError("Must be 0 or 1, or smuggler or police.")


def _pawn() -> PawnField:
    return PawnField(load_default=0, metadata={
        "description": "The seat's pawn: 0, or 1 with two cabs; in Contraband also `smuggler` (0) or `police` (1).",
        "oneOf": [{"type": "integer", "minimum": 0, "maximum": 1}, {"type": "string", "enum": list(PawnField.NAMES)}]})


class PlacePoliceSchema(Schema):
    area = _area("One of the seat's two 3s; the smuggler takes the other.", required=True)


class MoveSchema(Schema):
    to = _area("An adjacent free area.", required=True)
    pawn = _pawn()
    pick_up = _citizens("A batch, all or nothing: the move, these pickups in order, then the end of the turn.",
                        validate=validate.Length(max=8))


class StepSchema(Schema):
    to = _area("An adjacent free area.", required=True)
    pawn = _pawn()
    target = _area("On a 4 with several farthest areas, the one the steps head for.")


class StaySchema(Schema):
    pawn = _pawn()


class PickUpSchema(Schema):
    citizens = _citizens("Waiting citizens, in the order they board (a group that travels together in the order it waits).",
                         required=True, validate=validate.Length(min=1, max=8))


class CollectSchema(Schema):
    citizen = _citizen("The citizen that appeared under the cab.", required=True)


class RerouteSchema(Schema):
    passenger = _citizen("The passenger whose trip changes.", required=True)
    end = fields.String(required=True, validate=validate.OneOf([end.value for end in End]),
                        metadata={"description": "Which end of the trip the card replaces."})
    card = fields.String(required=True, validate=FullMatch(r"^(10|[2-9AJQK])[SHCD](\.[12])?$",
                                                                 error="Must be a card such as 5H, or 5H.2 with two decks."),
                         metadata={"description": "A card of the seat's hand, such as 5H (5H.2 with two decks)."})


class DropOffSchema(Schema):
    passenger = _citizen("The passenger that gets out here.", required=True)


class TransferSchema(Schema):
    from_pawn = Whole(required=True, validate=validate.Range(min=0, max=1),
                               metadata={"description": "The cab the passengers leave."})
    to_pawn = Whole(required=True, validate=validate.Range(min=0, max=1),
                             metadata={"description": "The cab they board."})
    passengers = _citizens("The passengers, in the order they ride.", required=True, validate=validate.Length(min=1, max=3))


COMMAND_BODIES: dict[str, tuple[type[Command], type[Schema]]] = {  # type → (the command, its body's fields)
    "place_police": (PlacePolice, PlacePoliceSchema), "move": (Move, MoveSchema), "stay": (Stay, StaySchema),
    "step": (Step, StepSchema), "stop_moving": (StopMoving, BareSchema), "pick_up": (PickUp, PickUpSchema),
    "drop_off": (DropOff, DropOffSchema), "collect_from_god": (CollectFromGod, CollectSchema),
    "reroute": (Reroute, RerouteSchema), "transfer": (Transfer, TransferSchema), "end_turn": (EndTurn, BareSchema),
    "forfeit": (Forfeit, BareSchema)}


def load_command(seat: int, data: dict[str, Any]) -> Command:  # noqa: C901 - one case per command
    """The Bahama Taxi command a JSON body asks for, for the seat the token holds."""
    kind = command_kind(data, GAME, COMMAND_BODIES)
    body = parse(COMMAND_BODIES[kind][1], data)
    match kind:
        case "place_police":
            return PlacePolice(seat, body["area"])
        case "move":
            return Move(seat, body["to"], body["pawn"], tuple(body["pick_up"]) if "pick_up" in body else None)
        case "step":
            return Step(seat, body["to"], body["pawn"], body.get("target"))
        case "stay":
            return Stay(seat, body["pawn"])
        case "pick_up":
            return PickUp(seat, tuple(body["citizens"]))
        case "drop_off":
            return DropOff(seat, body["passenger"])
        case "collect_from_god":
            return CollectFromGod(seat, body["citizen"])
        case "transfer":
            return Transfer(seat, body["from_pawn"], body["to_pawn"], tuple(body["passengers"]))
        case "reroute":
            return Reroute(seat, body["passenger"], End(body["end"]), body["card"])
        case "stop_moving" | "end_turn" | "forfeit":
            return COMMAND_BODIES[kind][0](seat)  # type: ignore[call-arg]
    raise AssertionError(kind)


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
    return qualified(GAME, _body(command))


def _body(command: Command) -> dict[str, Any]:  # noqa: C901 - one case per command
    match command:
        case PlacePolice(_, area):
            return {"type": "place_police", "area": area}
        case Move(_, to, pawn, pick_up):
            return {"type": "move", "pawn": pawn, "to": to} | ({} if pick_up is None else {"pick_up": list(pick_up)})
        case Stay(_, pawn):
            return {"type": "stay", "pawn": pawn}
        case Step(_, to, pawn, target):
            return {"type": "step", "pawn": pawn, "to": to} | ({"target": target} if target else {})
        case StopMoving():
            return {"type": "stop_moving"}
        case PickUp(_, citizens):
            return {"type": "pick_up", "citizens": list(citizens)}
        case DropOff(_, passenger):
            return {"type": "drop_off", "passenger": passenger}
        case CollectFromGod(_, citizen):
            return {"type": "collect_from_god", "citizen": citizen}
        case Transfer(_, from_pawn, to_pawn, passengers):
            return {"type": "transfer", "from_pawn": from_pawn, "to_pawn": to_pawn, "passengers": list(passengers)}
        case Reroute(_, passenger, end, card):
            return {"type": "reroute", "passenger": passenger, "end": end.value, "card": card}
        case EndTurn():
            return {"type": "end_turn"}
        case Forfeit():
            return {"type": "forfeit"}
        case Skip():  # a deadline's, never listed nor sent by a client
            raise ValueError("a skipped turn has no command body")
        case _:
            assert_never(command)
