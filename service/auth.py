"""Bearer tokens: each acts for one seat of one game."""

from __future__ import annotations

import hmac
import re
import secrets

from flask import current_app, request

from events.envelope import GameRecord
from events.store import EventStore
from players.accounts import Player, PlayerStore
from service.errors import ApiError

BEARER = re.compile(r"^Bearer ([A-Za-z0-9_-]{16,128})$")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def bearer_token() -> str | None:
    """The request's bearer token, or None when it sends none."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    match = BEARER.match(header)
    if match is None:
        raise ApiError(401, "unauthorized", "Send a token as 'Authorization: Bearer <token>'.")
    return match.group(1)


def is_admin() -> bool:
    """Whether the request carries the server's admin token (MEEPLE_ADMIN_TOKEN)."""
    admin, token = current_app.config.get("MEEPLE_ADMIN_TOKEN"), bearer_token()
    return bool(admin and token and hmac.compare_digest(admin.encode(), token.encode()))


def seat_for(store: EventStore, record: GameRecord) -> int | None:
    """The seat the request's token (a seat's or a player's) acts for, or None without a token."""
    token = bearer_token()
    if token is None:
        return None
    seat = store.seats.for_token(record, token)
    if seat is None:
        raise ApiError(401, "unauthorized", "This token holds no seat in this game.")
    return seat


def player(players: PlayerStore, required: bool = True) -> Player | None:
    """The registered player whose token the request sends."""
    token = bearer_token()
    if token is None:
        if required:
            raise ApiError(401, "unauthorized", "This needs a player token.")
        return None
    found = players.by_token(token)
    if found is None:
        raise ApiError(401, "unauthorized", "This is not a player token.")
    return found


def require_seat(store: EventStore, record: GameRecord) -> int:
    seat = seat_for(store, record)
    if seat is None:
        raise ApiError(401, "unauthorized", "This needs the token of a seat in this game.")
    return seat
