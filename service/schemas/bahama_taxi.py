"""Bahama Taxi commands as JSON (rules §13.1): `{"type": "move", "to": "6D"}`,
`{"type": "pick_up", "citizens": ["c7"]}` and the like."""

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
from service.schemas.common import BareSchema, command_kind, parse

AREA = validate.OneOf(AREAS, error="Must be an area such as AS, 10H or QC.")
CITIZEN_ID = validate.Regexp(r"^c[1-9][0-9]{0,3}$", error="Must be a citizen id such as c7.")
class PawnField(fields.Field):  # type: ignore[type-arg]
    """A pawn: 0 or 1, or in Contraband `smuggler` (0) or `police` (1)."""

    NAMES = {"smuggler": 0, "police": 1}

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if value in (0, 1) and not isinstance(value, bool):
            return int(value)
        if isinstance(value, str) and value in self.NAMES:
            return self.NAMES[value]
        raise ValidationError("Must be 0 or 1, or smuggler or police.")


PAWN = PawnField(load_default=0)


class MoveSchema(Schema):
    to = fields.String(required=True, validate=AREA)
    pawn = PAWN
    pick_up = fields.List(fields.String(validate=CITIZEN_ID), load_default=None, validate=validate.Length(max=8))


class StepSchema(Schema):
    to = fields.String(required=True, validate=AREA)
    pawn = PAWN
    target = fields.String(load_default=None, allow_none=True, validate=AREA)


class StaySchema(Schema):
    pawn = PAWN


class PickUpSchema(Schema):
    citizens = fields.List(fields.String(validate=CITIZEN_ID), required=True, validate=validate.Length(min=1, max=8))


class CollectSchema(Schema):
    citizen = fields.String(required=True, validate=CITIZEN_ID)


class RerouteSchema(Schema):
    passenger = fields.String(required=True, validate=CITIZEN_ID)
    end = fields.String(required=True, validate=validate.OneOf([end.value for end in End]))
    card = fields.String(required=True, validate=validate.Regexp(r"^(10|[2-9AJQK])[SHCD](\.[12])?$",
                                                                 error="Must be a card such as 5H, or 5H.2 with two decks."))


class DropOffSchema(Schema):
    passenger = fields.String(required=True, validate=CITIZEN_ID)


class TransferSchema(Schema):
    from_pawn = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=1))
    to_pawn = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=1))
    passengers = fields.List(fields.String(validate=CITIZEN_ID), required=True, validate=validate.Length(min=1, max=3))


class PlacePoliceSchema(Schema):
    area = fields.String(required=True, validate=AREA)


TYPES = ["place_police", "move", "stay", "step", "stop_moving", "pick_up", "drop_off", "collect_from_god", "reroute", "transfer", "end_turn", "forfeit"]


def load_command(seat: int, data: dict[str, Any]) -> Command:
    """The command a JSON body asks for, for the seat the token holds."""
    kind = command_kind(data, TYPES)
    if kind == "place_police":
        return PlacePolice(seat, parse(PlacePoliceSchema, data)["area"])
    if kind == "move":
        move = parse(MoveSchema, data)
        return Move(seat, move["to"], move["pawn"], None if move["pick_up"] is None else tuple(move["pick_up"]))
    if kind == "step":
        step = parse(StepSchema, data)
        return Step(seat, step["to"], step["pawn"], step["target"])
    if kind == "stop_moving":
        parse(BareSchema, data)
        return StopMoving(seat)
    if kind == "stay":
        return Stay(seat, parse(StaySchema, data)["pawn"])
    if kind == "pick_up":
        return PickUp(seat, tuple(parse(PickUpSchema, data)["citizens"]))
    if kind == "drop_off":
        return DropOff(seat, parse(DropOffSchema, data)["passenger"])
    if kind == "collect_from_god":
        return CollectFromGod(seat, parse(CollectSchema, data)["citizen"])
    if kind == "transfer":
        transfer = parse(TransferSchema, data)
        return Transfer(seat, transfer["from_pawn"], transfer["to_pawn"], tuple(transfer["passengers"]))
    if kind == "reroute":
        reroute = parse(RerouteSchema, data)
        return Reroute(seat, reroute["passenger"], End(reroute["end"]), reroute["card"])
    parse(BareSchema, data)
    return EndTurn(seat) if kind == "end_turn" else Forfeit(seat)


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
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
