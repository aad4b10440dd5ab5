"""Djambi commands as JSON (rules §18): `{"type": "djambi.play", "piece": "E3", "to": "F2", "place": "E3"}`."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from domain.djambi.commands import AcceptDraw, Command, DeclineDraw, Play, ProposeDraw, Resign
from domain.djambi.pieces import IDS, Color
from service.schemas.common import BareSchema, FullMatch, bare_or_play, qualified

GAME = "djambi"
PLAY = qualified(GAME, {"type": "play"})["type"]  # a play's `type`, as it is written
SQUARE_RULE = re.compile(r"^[A-Ia-i][1-9]$")
SQUARE = FullMatch(SQUARE_RULE, error="Must be a square from A1 to I9, such as E5.")


PIECE_PATTERN = rf"^([A-Ia-i][1-9]|({'|'.join(color.value for color in Color)})\.[a-z]+[1-9]?)$"  # a square or a piece id


def _square_or_piece(text: str) -> None:
    if not SQUARE_RULE.fullmatch(text) and text not in IDS:
        raise ValidationError("Must be a square such as E3, or a piece id such as red.militant1.")


def _square(description: str, **kwargs: Any) -> fields.String:
    return fields.String(validate=SQUARE, metadata={"description": description, "pattern": SQUARE_RULE.pattern,
                                                    "examples": ["E5"]}, **kwargs)


class PlaySchema(Schema):
    piece = fields.String(required=True, validate=_square_or_piece, metadata={
        "description": "The square of the acting piece, or its id such as red.militant1.", "examples": ["E3"],
        "pattern": PIECE_PATTERN})
    to = _square("Where the piece goes.", required=True)
    place = _square("Where the piece the action displaced (a corpse or a manipulated piece) is put down.")
    exit = _square("Where a piece that entered the maze leaves to.")
    report = _square("The square of the piece a reporter kills.")
    player = fields.String(validate=validate.OneOf([c.value for c in Color]),
                           metadata={"description": "Optional; when given, the colour of the caller's seat."})


BARE: dict[str, type[ProposeDraw | AcceptDraw | DeclineDraw | Resign]] = {
    "propose_draw": ProposeDraw, "accept_draw": AcceptDraw, "decline_draw": DeclineDraw, "resign": Resign}
COMMAND_BODIES: dict[str, tuple[type[Command], type[Schema]]] = {  # type → (the command, its body's fields)
    "play": (Play, PlaySchema), **{kind: (command, BareSchema) for kind, command in BARE.items()}}


def load_command(seat: int, data: dict[str, Any]) -> Command:
    """The Djambi command a JSON body asks for, for the seat the token holds."""
    return bare_or_play(seat, data, GAME, BARE, PlaySchema, _play)


def _play(seat: int, play: dict[str, Any]) -> Play:
    optional: dict[str, str | None] = {name: play[name].upper() if name in play else None for name in ("place", "exit", "report")}
    piece = play["piece"] if play["piece"] in IDS else play["piece"].upper()
    return Play(seat, piece, play["to"].upper(), player=Color(play["player"]) if "player" in play else None, **optional)


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
    if not isinstance(command, Play):
        return qualified(GAME, {"type": next(name for name, type_ in BARE.items() if isinstance(command, type_))})
    body: dict[str, Any] = {"type": PLAY, "piece": command.piece, "to": command.to}
    if command.place is not None:
        body["place"] = command.place
    if command.exit is not None:
        body["exit"] = command.exit
    if command.report is not None:
        body["report"] = command.report
    return body
