"""TAKI commands as JSON (rules §17.1): `{"type": "play", "card": "red.5.1"}` and the like."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.taki.cards import Color
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Forfeit, Pass, Play
from service.schemas.common import BareSchema, command_kind, parse

CARD_ID = fields.String(validate=validate.Length(min=1, max=64))
COLOR = validate.OneOf([color.value for color in Color], error="invalid_color: must be red, blue, green or yellow.")


class PlaySchema(Schema):
    card = fields.String(validate=validate.Length(min=1, max=64))
    cards = fields.List(fields.String(validate=validate.Length(min=1, max=64)), validate=validate.Length(max=120))
    color = fields.String(validate=COLOR, load_default=None)
    colors = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)), values=fields.String(validate=COLOR),
                         load_default=dict)
    announce_last_card = fields.Boolean(load_default=False)
    close_taki = fields.Boolean(load_default=None)

    @validates_schema
    def _one_card_field(self, data: dict[str, Any], **_: Any) -> None:
        if ("card" in data) == ("cards" in data):
            raise ValidationError("Give either `card` or `cards`.", "card")


BARE: dict[str, type[Draw | CloseTaki | EndTurn | Pass | AnnounceLastCard | Forfeit]] = {
    "draw": Draw, "close_taki": CloseTaki, "end_turn": EndTurn, "pass": Pass, "announce_last_card": AnnounceLastCard,
    "forfeit": Forfeit}
TYPES = ["play", *BARE]


def load_command(seat: int, data: dict[str, Any]) -> Command:
    """The command a JSON body asks for, for the seat the token holds."""
    kind = command_kind(data, TYPES)
    if kind != "play":
        parse(BareSchema, data)
        return BARE[kind](seat)
    play = parse(PlaySchema, data)
    cards = (play["card"],) if "card" in play else tuple(play["cards"])
    return Play(
        seat, cards,
        color=Color(play["color"]) if play["color"] else None,
        colors=tuple((card, Color(color)) for card, color in play["colors"].items()),
        announce_last_card=play["announce_last_card"],
        close_taki=play["close_taki"],
    )


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
    if not isinstance(command, Play):
        kind = next(name for name, type_ in BARE.items() if isinstance(command, type_))
        return {"type": kind}
    body: dict[str, Any] = {"type": "play"}
    if len(command.cards) == 1:
        body["card"] = command.cards[0]
    else:
        body["cards"] = list(command.cards)
    if command.color is not None:
        body["color"] = command.color.value
    if command.colors:
        body["colors"] = {card: color.value for card, color in command.colors}
    if command.announce_last_card:
        body["announce_last_card"] = True
    if command.close_taki is not None:
        body["close_taki"] = command.close_taki
    return body
