"""What the mail operations read: an address, the choices of what to receive, a confirmation token."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from players.mail import KINDS

TOKEN = validate.Regexp(r"^[A-Za-z0-9_-]{16,128}$", error="Must be a token as the mail gave it.")


class MailAddressSchema(Schema):
    address = fields.Email(required=True, validate=validate.Length(max=254),
                           metadata={"description": "Where mail goes once confirmed (at most 254 characters)."})


class MailConfirmationSchema(Schema):
    token = fields.String(required=True, validate=TOKEN,
                          metadata={"description": "The token of the mailed link: what follows `#confirm-mail=`."})


class _Choices(Schema):
    """What the player gets of each kind named; the kinds not named stay as they are."""

    CONTRACT = {"minProperties": 1}

    @validates_schema
    def _some(self, data: dict[str, Any], **kwargs: Any) -> None:
        if not data:
            raise ValidationError("Name at least one kind of mail.")


MailChoicesSchema = type("MailChoicesSchema", (_Choices,), {
    kind: fields.String(validate=validate.OneOf([str(choice) for choice in spec.choices]),
                        metadata={"description": f"One of {', '.join(spec.choices)}; {spec.default} unless chosen."})
    for kind, spec in KINDS.items()})


class UnsubscribeQuerySchema(Schema):
    token = fields.String(required=True, validate=TOKEN, metadata={"description": "The token of the mail's unsubscribe link."})
