"""API v1 for signing in anywhere: the tokens a player holds, one per device or program, listed,
named, made and revoked; and a sign-in link, mailed to a player's confirmed address, that gives a
new device its own token."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app

from application.signing_in import request_sign_in_link, revoke, sign_in
from application.tokens import new_token
from events.seats import hash_token
from players.devices import HeldToken
from players.devices import token_id as id_of
from players.errors import LastToken, SignInLinkRefused, TokenLimitReached
from players.sign_in import LINK_SECONDS
from service import auth, limits
from service.api.context import executor, json_body, tokens
from service.api.players import caller
from service.errors import ApiError
from service.schemas.common import SignInLinkSchema, SignInSchema, TokenNameSchema, parse

bp = Blueprint("signing_in", __name__, url_prefix="/v1")


def held(token: HeldToken, current: str | None = None) -> dict[str, Any]:
    """A token as its player sees it; `current`: the id of the token the request sends."""
    return {"id": token.id, "name": token.name, "created": token.created, "last_used": token.last_used,
            "current": token.id == current}


def too_many(error: TokenLimitReached) -> ApiError:
    return ApiError(409, "too_many_tokens", f"A player holds at most {error.limit} tokens: revoke one first.",
                    limit=error.limit)


@bp.get("/players/me/tokens")
def list_tokens() -> dict[str, Any]:
    """The player's tokens, oldest first, the one the request sends marked `current`."""
    player = caller()
    current = id_of(hash_token(auth.bearer_token() or ""))
    return {"tokens": [held(token, current) for token in tokens().of(player.id)]}


@bp.post("/players/me/tokens")
def add_token() -> tuple[dict[str, Any], int]:
    """A new token of the player's, for a device or program; the answer holds it, once."""
    player = caller()
    name = parse(TokenNameSchema, json_body())["name"]
    token = new_token()
    try:
        added = tokens().add(player.id, name, token)
    except TokenLimitReached as error:
        raise too_many(error) from None
    return held(added) | {"token": token}, 201


@bp.patch("/players/me/tokens/<token_id>")
def rename_token(token_id: str) -> dict[str, Any]:
    """Name one of the player's tokens anew."""
    player = caller()
    name = parse(TokenNameSchema, json_body())["name"]
    if not tokens().rename(player.id, token_id, name):
        raise ApiError(404, "token_not_found", "The player holds no token with this id.")
    return {"id": token_id, "name": name}


@bp.delete("/players/me/tokens/<token_id>")
def revoke_token(token_id: str) -> Response:
    """Revoke one of the player's tokens (the request's own too): refused from now on, everywhere; their only one
    is refused 409 `last_token` while they have no confirmed address to sign in by."""
    try:
        revoked = revoke(executor().store.redis, tokens(), caller().id, token_id)
    except LastToken:
        raise ApiError(409, "last_token", "This is the player's only token and they have no confirmed mail address to "
                       "sign in by: revoked, the account could not be reached again. Confirm an address first.") from None
    if not revoked:
        raise ApiError(404, "token_not_found", "The player holds no token with this id.")
    return Response(status=204)


@bp.post("/sign-in-links")
def ask_sign_in_link() -> tuple[dict[str, Any], int]:
    """Mail a sign-in link to a player's confirmed address; the same answer, after the same work, whether it is one or not."""
    address = parse(SignInLinkSchema, json_body())["address"]
    limits.limit_sign_in_links(executor().store.redis, address, *current_app.config["MEEPLE_SIGN_IN_LINKS"])
    request_sign_in_link(executor().store.redis, address)
    return {"expires_in": LINK_SECONDS}, 202


@bp.post("/sign-ins")
def use_sign_in_link() -> tuple[dict[str, Any], int]:
    """Sign a new device in with a mailed link's secret: its own token of the player's."""
    body = parse(SignInSchema, json_body())
    try:
        signed = sign_in(executor().store.redis, tokens(), body["link"], body["device"])
    except SignInLinkRefused as error:
        raise ApiError(410, "sign_in_link_refused", str(error), reason=error.reason) from None
    except TokenLimitReached as error:
        raise too_many(error) from None
    player = signed.player
    return {"id": player.id, "name": player.name, "created": player.created, "token": signed.token,
            "token_id": signed.held.id}, 201
