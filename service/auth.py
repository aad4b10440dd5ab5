"""Bearer tokens: each acts for one seat of one game, or for a registered player; and the stream
tickets that stand in for them where a browser cannot send `Authorization` (EventSource).

A refused request is answered 401 `unauthorized` with a `reason` and a `WWW-Authenticate`
challenge (service.errors.challenge): `token_missing` (none sent where one is needed),
`token_malformed` (not `Bearer <token>`), `token_unknown` (no such token, or not one that may act
here), `device_signed_out` (a seat's token given to a device whose player token was revoked since)
and `ticket_invalid` (a stream ticket unknown, used, expired or for another stream)."""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable
from typing import cast

from flask import current_app, g, request

from events.bearer import TOKEN
from events.envelope import GameRecord
from events.errors import DeviceSignedOut
from events.seats import hash_token, player_of_token
from events.store import EventStore
from events.tickets import StreamGrant, StreamTickets
from players.accounts import Player, PlayerStore
from service.errors import ApiError

BEARER = re.compile(f"^Bearer ({TOKEN})$")
TICKET = re.compile(f"^{TOKEN}$")


def unauthorized(reason: str, detail: str) -> ApiError:
    return ApiError(401, "unauthorized", detail, reason=reason)


def bearer_token() -> str | None:
    """The request's bearer token, or None when it sends none."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    match = BEARER.match(header)
    if match is None:
        raise unauthorized("token_malformed", "The Authorization header is not 'Bearer <token>' with a token of "
                           "16 to 128 letters, digits, '-' or '_'.")
    return match.group(1)


def is_admin() -> bool:
    """Whether the request carries the server's admin token (MEEPLE_ADMIN_TOKEN)."""
    admin, token = current_app.config.get("MEEPLE_ADMIN_TOKEN"), bearer_token()
    return bool(admin and token and hmac.compare_digest(admin.encode(), token.encode()))


def seat_for(store: EventStore, record: GameRecord, required: bool = True) -> int | None:
    """The seat the request's token (a seat's or a player's) acts for, or None without a token (and, unless
    `required`, for a token holding none)."""
    token = bearer_token()
    if token is None:
        return None
    try:
        seat = store.seats.for_token(record, token)
    except DeviceSignedOut:
        raise unauthorized("device_signed_out", "This seat's token was given to a device that has since been "
                           "signed out (its player token revoked): sign in again to play this seat.") from None
    if seat is None and required:
        raise unauthorized("token_unknown", "This token holds no seat in this game.")
    return seat


def player(players: PlayerStore, required: bool = True) -> Player | None:
    """The registered player whose token the request sends."""
    token = bearer_token()
    if token is None:
        if required:
            raise unauthorized("token_missing", "This needs a player token: send 'Authorization: Bearer <token>'.")
        return None
    found = players.by_token(token)
    if found is None:
        raise unauthorized("token_unknown", "This is not a player token.")
    return found


def device(holder: Player | None) -> str | None:
    """The SHA-256 of the player token the request is sent with, by `holder` (found by `player`): their device's."""
    return None if holder is None else hash_token(bearer_token() or "")


def require_seat(store: EventStore, record: GameRecord) -> int:
    seat = seat_for(store, record)
    if seat is None:
        raise unauthorized("token_missing", "This needs the token of a seat in this game: send "
                           "'Authorization: Bearer <token>'.")
    return seat


def seat_grant(store: EventStore, record: GameRecord, players: PlayerStore) -> StreamGrant:
    """What a ticket for the game's stream grants the request's token: its seat, as long as the
    token (or its player) still holds it, and no longer than the player token it is or was given to;
    to a player holding no seat, the stream as that player watches it, for as long as their token."""
    if (watcher := _watcher(players, record)) is not None:
        return StreamGrant(watcher.id, record.id, None, token=hash_token(bearer_token() or ""))
    seat = require_seat(store, record)
    digest = hash_token(bearer_token() or "")
    if record.token_seats.get(digest) == seat:
        return StreamGrant(digest, record.id, seat, token=record.devices.get(seat))
    return StreamGrant(record.holders[seat], record.id, seat, token=digest)


def _watcher(players: PlayerStore, record: GameRecord) -> Player | None:
    """The registered player whose token the request sends, if they hold no seat in the game."""
    token = bearer_token()
    found = players.by_token(token) if token is not None else None
    return found if found is not None and record.seat_of(found.id) is None else None


def _redeemed(tickets: StreamTickets) -> StreamGrant:
    ticket = request.args["ticket"]
    if "Authorization" in request.headers:
        raise ApiError(422, "validation_error", "Send a token or a stream ticket, not both.")
    grant = tickets.redeem(ticket) if TICKET.fullmatch(ticket) else None
    if grant is None:
        raise unauthorized("ticket_invalid", "This stream ticket is unknown, used or expired: "
                           "POST /v1/stream-tickets gives a new one.")
    g.stream_grant = grant
    return grant


def stream_token(players: PlayerStore) -> str | None:
    """The SHA-256 of the player token a stream is opened with (by its ticket, or sent itself), or
    that the seat token it is opened with was given to, which the stream lasts no longer than; None
    for a seat's token taken without one, or a spectator."""
    if (grant := g.get("stream_grant")) is not None:
        return cast(StreamGrant, grant).token
    token = bearer_token()
    return hash_token(token) if token is not None and players.by_token(token) is not None else None


def stream_holds(store: EventStore, players: PlayerStore, record: GameRecord | None = None) -> Callable[[], bool]:
    """Whether what a stream was opened with still holds, asked as it goes on: the player token it was
    opened with or given to (stream_token) is still its player's, and a seat's own token of `record`'s,
    if it was opened with one, is still that seat's (not replaced)."""
    token, grant = stream_token(players), cast(StreamGrant | None, g.get("stream_grant"))
    seat_token: tuple[str, str] | None = None  # the game's id and the SHA-256 of the seat's token
    if record is not None and grant is not None and grant.seat is not None and grant.holder in record.token_seats:
        seat_token = (record.id, grant.holder)

    def holds() -> bool:
        if token is not None and player_of_token(store.redis, token) is None:
            return False
        return seat_token is None or store.seats.token_seat(*seat_token) is not None
    return holds


def stream_seat(store: EventStore, tickets: StreamTickets, players: PlayerStore, record: GameRecord) -> int | None:
    """The seat a game's stream is opened for: by its `ticket`, else by the token (granted what a
    ticket it asked for would be); None for a spectator."""
    if "ticket" not in request.args:
        if bearer_token() is None:
            return None
        g.stream_grant = grant = seat_grant(store, record, players)
        return grant.seat
    grant = _redeemed(tickets)
    holds = (grant.seat in (record.token_seats.get(grant.holder), record.seat_of(grant.holder)) if grant.seat is not None
             else record.seat_of(grant.holder) is None)  # a watcher's ticket is refused once they hold a seat
    if grant.game_id != record.id or not holds:
        raise unauthorized("ticket_invalid", "This stream ticket is for another stream.")
    return grant.seat


def stream_watcher() -> str | None:
    """The registered player holding no seat whose token (or ticket) opened a game's stream, if one did."""
    grant = cast(StreamGrant | None, g.get("stream_grant"))
    return grant.holder if grant is not None and grant.seat is None else None


def stream_player(players: PlayerStore, tickets: StreamTickets) -> Player:
    """The player whose inbox stream is opened: by its `ticket`, else by the token."""
    if "ticket" not in request.args:
        found = player(players)
        assert found is not None
        return found
    grant = _redeemed(tickets)
    found = None if grant.game_id is not None else players.get(grant.holder)
    if found is None:
        raise unauthorized("ticket_invalid", "This stream ticket is for another stream.")
    return found
