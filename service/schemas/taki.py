"""TAKI commands as JSON (rules §17.1): `{"type": "taki.play", "card": "red.5.1"}` and the like."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.taki.cards import Color
from domain.taki.commands import AnnounceLastCard, CloseTaki, Command, Draw, EndTurn, Forfeit, Pass, Play
from service.schemas.common import BareSchema, Flag, bare_or_play, qualified

GAME = "taki"
COLOR = validate.OneOf([color.value for color in Color], error="invalid_color: must be red, blue, green or yellow.")


def _card_id(description: str) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=64), metadata={"description": description, "examples": ["red.5.1"]})


class PlaySchema(Schema):
    card = _card_id("The card, by id such as red.5.1; give either `card` or `cards`.")
    cards = fields.List(_card_id("A card id."), validate=validate.Length(min=1, max=120),
                        metadata={"description": "A batch, played one card after the other, all or nothing."})
    color = fields.String(validate=COLOR, metadata={"description": "The colour for the card that needs one."})
    colors = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)), values=fields.String(validate=COLOR),
                         metadata={"description": "A colour per card id, for a batch that needs two."})
    announce_last_card = Flag(metadata={"description": 'Say "Last card!" with the play.'})
    close_taki = Flag(metadata={
        "description": "After the batch: true closes the run, false leaves it open; absent, as the game's `taki_close` says."})
    EXACTLY_ONE: ClassVar[tuple[str, ...]] = ("card", "cards")  # one of them, alone (the contract's oneOf)

    @validates_schema
    def _one_card_field(self, data: dict[str, Any], **_: Any) -> None:
        if sum(name in data for name in self.EXACTLY_ONE) != 1:
            raise ValidationError("Give either `card` or `cards`.", "card")


BARE: dict[str, type[Draw | CloseTaki | EndTurn | Pass | AnnounceLastCard | Forfeit]] = {
    "draw": Draw, "close_taki": CloseTaki, "end_turn": EndTurn, "pass": Pass, "announce_last_card": AnnounceLastCard,
    "forfeit": Forfeit}
COMMAND_BODIES: dict[str, tuple[type[Command], type[Schema]]] = {  # type → (the command, its body's fields)
    "play": (Play, PlaySchema), **{kind: (command, BareSchema) for kind, command in BARE.items()}}


def load_command(seat: int, data: dict[str, Any]) -> Command:
    """The TAKI command a JSON body asks for, for the seat the token holds."""
    return bare_or_play(seat, data, GAME, BARE, PlaySchema, _play)


def _play(seat: int, play: dict[str, Any]) -> Play:
    cards = (play["card"],) if "card" in play else tuple(play["cards"])
    return Play(
        seat, cards,
        color=Color(play["color"]) if "color" in play else None,
        colors=tuple((card, Color(color)) for card, color in play.get("colors", {}).items()),
        announce_last_card=play.get("announce_last_card", False),
        close_taki=play.get("close_taki"),
    )


def dump_command(command: Command) -> dict[str, Any]:
    """JSON for a command, in the form `load_command` reads back."""
    if not isinstance(command, Play):
        kind = next(name for name, type_ in BARE.items() if isinstance(command, type_))
        return qualified(GAME, {"type": kind})
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
    return qualified(GAME, body)
