"""Djambi commands as JSON (rules §18): `{"type": "play", "piece": "E3", "to": "F2", "place": "E3"}`."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, Play, ProposeDraw, Resign
from domain.djambi.pieces import IDS, Color
from service.schemas.common import BareSchema, command_kind, parse

SQUARE_RULE = re.compile(r"^[A-Ia-i][1-9]$")
SQUARE = validate.Regexp(SQUARE_RULE, error="Must be a square from A1 to I9, such as E5.")


def _square_or_piece(text: str) -> None:
    if not SQUARE_RULE.match(text) and text not in IDS:
        raise ValidationError("Must be a square such as E3, or a piece id such as red.militant1.")


class PlaySchema(Schema):
    piece = fields.String(required=True, validate=_square_or_piece)
    to = fields.String(required=True, validate=SQUARE)
    place = fields.String(load_default=None, allow_none=True, validate=SQUARE)
    exit = fields.String(load_default=None, allow_none=True, validate=SQUARE)
    report = fields.String(load_default=None, allow_none=True, validate=SQUARE)
    player = fields.String(load_default=None, allow_none=True, validate=validate.OneOf([c.value for c in Color]))


BARE: dict[str, type[ProposeDraw | AcceptDraw | DeclineDraw | Resign]] = {
    "propose_draw": ProposeDraw, "accept_draw": AcceptDraw, "decline_draw": DeclineDraw, "resign": Resign}
TYPES = ["play", *BARE]


def load_command(seat: int, data: dict[str, Any]) -> Command:
    """The command a JSON body asks for, for the seat the token holds."""
    kind = command_kind(data, TYPES)
    if kind != "play":
        parse(BareSchema, data)
        return BARE[kind](seat)
    play = parse(PlaySchema, data)
    optional: dict[str, str | None] = {name: None if play[name] is None else play[name].upper() for name in ("place", "exit", "report")}
    piece = play["piece"] if play["piece"] in IDS else play["piece"].upper()
    return Play(seat, piece, play["to"].upper(), player=None if play["player"] is None else Color(play["player"]), **optional)


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
    if not isinstance(command, Play):
        return {"type": next(name for name, type_ in BARE.items() if isinstance(command, type_))}
    body: dict[str, Any] = {"type": "play", "piece": command.piece, "to": command.to}
    for name in ("place", "exit", "report"):
        if (value := getattr(command, name)) is not None:
            body[name] = value
    return body
