"""Request schemas of a game's chat and a seat's notes."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate

from application.chat import MAX_LENGTH, NOTES_LENGTH, PAGE
from events.chat import MESSAGE_ID, START
from service.schemas.common import FullMatch


def unicode_text(text: str) -> None:
    """Text that can be stored: valid Unicode, with no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Must be valid Unicode text.") from None


def not_only_spaces(text: str) -> None:
    """Text that says something: not only spaces."""
    if not text.strip():
        raise ValidationError("Say something: not only spaces.")


class ChatMessageSchema(Schema):
    """A message for a room of the game's chat: plain text, shown as it is written, never as HTML."""

    text = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_LENGTH), unicode_text, not_only_spaces], metadata={
        "description": f"1 to {MAX_LENGTH} characters (code points), not only spaces."})


class NotesSchema(Schema):
    """A seat's private notes on the game, replacing those it kept; empty ones are forgotten."""

    text = fields.String(required=True, validate=[validate.Length(max=NOTES_LENGTH), unicode_text], metadata={
        "description": f"At most {NOTES_LENGTH} characters."})


class ExportQuerySchema(Schema):
    chat = fields.String(load_default=None, validate=validate.OneOf(["table"]), metadata={
        "description": "`table`: the header also holds the table's chat, its messages as GET /v1/games/{game_id}/chat/table "
                       "gives them, oldest first."})


class ChatQuerySchema(Schema):
    after = fields.String(load_default=START, validate=FullMatch(MESSAGE_ID), metadata={
        "description": "Only messages after the one with this id (the page's `next`); left out, from the first."})
    limit = fields.Integer(validate=validate.Range(min=1, max=PAGE), load_default=50)


class RoomQuerySchema(ChatQuerySchema):
    hides_after = fields.String(validate=FullMatch(MESSAGE_ID), metadata={
        "description": "Also list in `hidden` the room's messages the admin hid after this hide (a page's `hides`; `0-0`: "
                       "every hide): what a client that was away reads to catch up, with `after` its last message."})
