"""What the mail operations read: an address, the choices of what to receive, a confirmation token."""

from __future__ import annotations

from typing import Any

from email_validator import EmailNotValidError, validate_email
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from events.bearer import TOKEN as BEARER
from players.mail import KINDS
from service.schemas.common import FullMatch

TOKEN = FullMatch(f"^{BEARER}$", error="Must be a token as the mail gave it.")


def deliverable(address: str) -> None:
    """An address mail can go to on the internet: no domain literal (`a@[10.0.0.1]`), no name without a
    dot (`root@localhost`) or of special use (`.local`, `.test`); whether the domain takes mail is not asked."""
    try:
        validate_email(address, check_deliverability=False)
    except EmailNotValidError as error:
        raise ValidationError(str(error)) from None


class MailAddressSchema(Schema):
    address = fields.String(required=True, validate=[validate.Length(max=254), deliverable],
                            metadata={"description": "Where mail goes once confirmed (at most 254 characters): an address "
                                                     "on the internet, not an IP address in brackets nor a name without a dot.",
                                      "format": "email"})


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
