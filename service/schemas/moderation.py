"""Request schemas of messages between players and of moderation: a report's reason, the admin's
decision on a report, a mute's length."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from application.moderation import MAX_MUTE_MINUTES, MAX_REASON
from players.moderation import QUEUE
from service.schemas.chat import not_only_spaces, unicode_text
from service.schemas.common import Flag, FullMatch, Whole


class ReportSchema(Schema):
    """Why a message is reported, for the admin to read."""

    reason = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_REASON), unicode_text, not_only_spaces],
                           metadata={"description": f"1 to {MAX_REASON} characters, not only spaces: what is wrong with the message."})


class DecisionSchema(Schema):
    """What the admin decides of a report."""

    hide = Flag(required=True, metadata={"description": (
        "true: hide the reported message (kept, marked hidden, shown to no player) and close every report of it; "
        "false: dismiss this report.")})


class MuteSchema(Schema):
    """How long a player stays muted."""

    minutes = Whole(required=True, validate=validate.Range(min=1, max=MAX_MUTE_MINUTES), metadata={
        "description": f"1 to {MAX_MUTE_MINUTES} (a year): the player writes nothing until then."})


class ReportsQuerySchema(Schema):
    status = fields.String(load_default="open", validate=validate.OneOf(["open", "closed"]), metadata={
        "description": f"open: the queue, oldest first; closed: the decided, latest first; {QUEUE} a page."})
    after = fields.String(load_default=None, validate=FullMatch(r"^[0-9]{1,15}-[0-9a-f]{24}$"), metadata={
        "description": "Only reports after this cursor (the previous page's `next`); left out, from the first."})
