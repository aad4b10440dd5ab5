"""Bearer tokens: each acts for one seat of one game."""

from __future__ import annotations

import re
import secrets

from flask import request

from events.store import EventStore
from service.errors import ApiError

BEARER = re.compile(r"^Bearer ([A-Za-z0-9_-]{16,128})$")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def seat_for(store: EventStore, game_id: str) -> int | None:
    """The seat the request's token acts for, or None for a request without a token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    match = BEARER.match(header)
    if match is None:
        raise ApiError(401, "unauthorized", "Send a seat token as 'Authorization: Bearer <token>'.")
    seat = store.seat_for_token(game_id, match.group(1))
    if seat is None:
        raise ApiError(401, "unauthorized", "This token holds no seat in this game.")
    return seat


def require_seat(store: EventStore, game_id: str) -> int:
    seat = seat_for(store, game_id)
    if seat is None:
        raise ApiError(401, "unauthorized", "This needs the token of a seat in this game.")
    return seat
