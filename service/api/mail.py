"""API v1 for players' mail: their address and its confirmation, what they get of each kind of
mail, and the one-click unsubscribe that every mail of a chosen kind carries (RFC 8058)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request
from jinja2 import Environment, PackageLoader

from application.addresses import ask_confirmation
from players.errors import MailAddressTaken
from players.mail import Choice, Mailboxes
from service.api.context import executor, json_body
from service.api.players import caller
from service.errors import ApiError
from service.limits import limit_confirmations
from service.schemas.common import parse
from service.schemas.mail import MailAddressSchema, MailChoicesSchema, MailConfirmationSchema, UnsubscribeQuerySchema

bp = Blueprint("mail", __name__, url_prefix="/v1")
PAGE = Environment(loader=PackageLoader("service.api", "pages"), autoescape=True).get_template("unsubscribe.html")


def mailboxes() -> Mailboxes:
    return Mailboxes(executor().store.redis)


def settings_of(player_id: str) -> dict[str, Any]:
    found = mailboxes().of(player_id)
    return {"address": found.address, "confirmed": found.confirmed, "pending": found.pending,
            "kinds": {k: str(c) for k, c in found.choices.items()}}


@bp.get("/players/me/mail")
def mail_settings() -> dict[str, Any]:
    """The player's mail address, whether it is confirmed, and what they get of each kind of mail."""
    return settings_of(caller().id)


@bp.put("/players/me/mail/address")
def set_mail_address() -> tuple[dict[str, Any], int]:
    """Make an address the player's, unconfirmed, and mail it a link that confirms it."""
    player = caller()
    address = parse(MailAddressSchema, json_body())["address"]
    limit_confirmations(executor().store.redis, address, *current_app.config["MEEPLE_CONFIRMATIONS"])
    per_day = current_app.config["MEEPLE_CONFIRMATIONS_PER_PLAYER"]
    if not ask_confirmation(executor().store.redis, player, address, current_app.config["MEEPLE_PUBLIC_URL"], per_day):
        raise ApiError(429, "too_many_confirmations", f"A player may ask for {per_day} confirmation "
                       "mails a day; try again tomorrow.", limit=per_day)
    return settings_of(player.id), 202


@bp.delete("/players/me/mail/address")
def remove_mail_address() -> Response:
    mailboxes().remove(caller().id)
    return Response(status=204)


@bp.patch("/players/me/mail/kinds")
def choose_mail() -> dict[str, Any]:
    """Choose what the player gets of each kind named."""
    player = caller()
    mailboxes().choose(player.id, {kind: Choice(value) for kind, value in parse(MailChoicesSchema, json_body()).items()})
    return settings_of(player.id)


@bp.post("/mail/confirmations")
def confirm_mail_address() -> dict[str, Any]:
    """Confirm an address with the token its link carries; no token of the player's is needed."""
    try:
        player_id = mailboxes().confirm(parse(MailConfirmationSchema, json_body())["token"])
    except MailAddressTaken:
        raise ApiError(409, "mail_address_taken", "This address is another account's confirmed address: "
                       "it can sign in one account only.") from None
    if player_id is None:
        raise ApiError(404, "confirmation_not_found", "This link is used, expired, or for an address since changed: "
                       "set the address again for a new one.")
    return settings_of(player_id)


@bp.get("/mail/unsubscribe")
def unsubscribe_page() -> Response:
    """The page the unsubscribe link opens in a browser: which mail it stops, and a button that POSTs; it stops nothing."""
    token = parse(UnsubscribeQuerySchema, request.args.to_dict())["token"]
    found = mailboxes().stopped_by(token)
    if found is None:
        return page(404, "Unknown link", "This unsubscribe link is not one of ours.")
    return page(200, "Stop these mails?", f"This link stops Meeple's mail of the kind “{kind_name(found[1])}”.",
                token=token)


@bp.post("/mail/unsubscribe")
def unsubscribe() -> Response | dict[str, Any]:
    """Stop the kind of mail the token names, as a mail client's one-click unsubscribe does: any body, no sign-in.
    A browser (its form on the page above) is answered a page; a mail client, JSON."""
    found = mailboxes().stop(parse(UnsubscribeQuerySchema, request.args.to_dict())["token"])
    if found is None:
        raise ApiError(404, "unsubscribe_token_unknown", "This unsubscribe link is not one of ours.")
    if request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html":
        return page(200, "Stopped", f"Meeple sends you no more mail of the kind “{kind_name(found[1])}”.")
    return {"kind": found[1], "choice": str(Choice.OFF)}


def kind_name(kind: str) -> str:
    return kind.replace("_", " ")


def page(status: int, title: str, said: str, token: str | None = None) -> Response:
    """A page of text with, given a token, the button that stops its mail: no script, nothing from elsewhere."""
    answer = Response(PAGE.render(title=title, said=said, token=token, asking=token is not None), status=status,
                      mimetype="text/html")
    answer.headers["Content-Security-Policy"] = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
                                                 "base-uri 'none'; frame-ancestors 'none'")
    answer.headers["Cache-Control"] = "no-store"
    return answer
