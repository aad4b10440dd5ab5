"""What every route needs: the app's stores, the request's JSON body, a game id that can exist."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from flask import current_app, request

from application.lobby import Lobby
from events import keys
from events.envelope import GameRecord, Lifecycle
from events.errors import GameNotFound
from events.execute import Executor
from events.tickets import StreamTickets
from players.accounts import PlayerStore
from players.devices import PlayerTokens
from players.invitations import Invitations
from players.vacations import Vacations
from players.webhooks import Webhooks
from service.announcements import Announcements
from service.errors import ApiError
from service.legal import LegalCommands


def executor() -> Executor:
    return current_app.extensions["meeple"]  # type: ignore[no-any-return]


def players() -> PlayerStore:
    return current_app.extensions["meeple.players"]  # type: ignore[no-any-return]


def json_body() -> dict[str, Any]:
    """The request's JSON object; 415 for another content type, 400 for broken JSON."""
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    try:
        body = json.loads(request.get_data(cache=True) or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "invalid_json", "The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(422, "validation_error", "The body must be a JSON object.")
    return body


def known_game(game_id: str) -> str:
    if not keys.GAME_ID.fullmatch(game_id):
        raise GameNotFound(game_id)
    return game_id


def lobby() -> Lobby:
    return current_app.extensions["meeple.lobby"]  # type: ignore[no-any-return]


def invitations() -> Invitations:
    return current_app.extensions["meeple.invitations"]  # type: ignore[no-any-return]


def webhooks() -> Webhooks:
    return current_app.extensions["meeple.webhooks"]  # type: ignore[no-any-return]


def vacations() -> Vacations:
    return current_app.extensions["meeple.vacations"]  # type: ignore[no-any-return]


def tokens() -> PlayerTokens:
    return current_app.extensions["meeple.tokens"]  # type: ignore[no-any-return]


def announcements() -> Announcements:
    return current_app.extensions["meeple.announcements"]  # type: ignore[no-any-return]


def legal() -> LegalCommands:
    return current_app.extensions["meeple.legal"]  # type: ignore[no-any-return]


def tickets() -> StreamTickets:
    return current_app.extensions["meeple.tickets"]  # type: ignore[no-any-return]


def visible_version(record: GameRecord, seat: int | None) -> int:
    """The version the caller may see: all of it for a seat, or once the game is over; a
    spectator of a game with a `spectator_delay` sees it that many moves behind."""
    if seat is not None or not record.spectator_delay or record.status is Lifecycle.FINISHED:
        return record.version
    return executor().store.streams.version_before_moves(record.id, record.version, record.spectator_delay)


def seen_by(record: GameRecord, seat: int | None) -> GameRecord:
    """The record as the caller may see it: at the visible version, so that no summary (the
    listing's included) tells a spectator more of a delayed game than its view does."""
    visible = visible_version(record, seat)
    return record if visible == record.version else dataclasses.replace(record, version=visible)
