"""API v1 for a game's chat: its rooms read page by page and written to, and each seat's notes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from application import chat, moderation
from events.chat import ROOMS, ChatStore, Message
from events.envelope import GameRecord
from players.moderation import Mutes
from service import auth, limits
from service.api.context import executor, invitations, json_body, known_game, players, visible_version
from service.errors import ApiError
from service.schemas.chat import ChatMessageSchema, NotesSchema, RoomQuerySchema
from service.schemas.common import parse

bp = Blueprint("chat", __name__, url_prefix="/v1")


def chat_store() -> ChatStore:
    store = executor().store
    return ChatStore(store.redis, store.streams.waiting, current_app.config["MEEPLE_CHAT_MESSAGES_PER_ROOM"])


def chat_message(said: Message) -> dict[str, Any]:
    """A message as the API shows it."""
    return {"id": said.id, "room": said.room, "text": said.text, "name": said.name, "seat": said.seat,
            "player_id": said.player_id, "version": said.version, "time": said.time, "hidden": said.hidden}


def game_with_room(game_id: str, room: str | None = None) -> GameRecord:
    """The game's record, if it is a game and `room` (if given) is one of its chat's rooms; 404 otherwise."""
    if room is not None and room not in ROOMS:
        raise ApiError(404, "room_not_found", f"A game's chat has the rooms {' and '.join(ROOMS)}.")
    return executor().store.games.get(known_game(game_id))


def _seat(record: GameRecord) -> int | None:
    """The seat the request's token holds here; None without one, for a player holding no seat and for the admin."""
    token = auth.bearer_token()
    if token is None or auth.is_admin():
        return None
    seat = auth.seat_for(executor().store, record, required=False)
    if seat is None and players().by_token(token) is None:
        raise auth.unauthorized("token_unknown", "This token holds no seat in this game and is no player's.")
    return seat


def blocked_by(player_id: str | None) -> frozenset[str]:
    """The players `player_id` blocks, whose chat they do not see (none for a seat held without a player)."""
    return frozenset(blocked for blocked, _ in invitations().blocks.of(player_id)) if player_id else frozenset()


def reader(record: GameRecord) -> chat.Reader:
    seat = _seat(record)
    player = record.holders.get(seat) if seat is not None else _player_id()
    return chat.Reader(seat, visible_version(record, seat), admin=auth.is_admin(), player_id=player,
                       blocked=blocked_by(player))


def _player_id() -> str | None:
    """The id of the player whose token the request sends, if it is a player's."""
    token = auth.bearer_token()
    found = players().by_token(token) if token is not None and not auth.is_admin() else None
    return None if found is None else found.id


def speaker(record: GameRecord, action: str) -> tuple[int | None, str | None, str]:
    """Who writes or reports (`action`): the seat they hold here, their registered player, and the key their
    quota, reports and mutes go by (application.moderation.speaker); 401 without a seat's or a player's token."""
    if auth.bearer_token() is None:
        raise auth.unauthorized("token_missing", f"{action} needs a seat's or a player's token.")
    seat = _seat(record)
    player = record.holders.get(seat) if seat is not None else _player_id()
    key = moderation.speaker(record, seat, player)
    if key is None:
        raise auth.unauthorized("token_unknown", f"The admin token is no writer: {action.lower()} needs a seat's or a player's token.")
    return seat, player, key


def _writer(record: GameRecord) -> tuple[chat.Writer, str]:
    """Who writes, and the key their count of messages and mute go by."""
    seat, player, key = speaker(record, "Writing")
    found = players().get(player) if seat is None and player is not None else None
    name = record.names[seat] or "" if seat is not None else found.name if found else ""
    return chat.Writer(seat, player, name, Mutes(executor().store.redis).until(key), key), key


@bp.get("/games/<game:game_id>/chat/<room>")
def read_chat(game_id: str, room: str) -> dict[str, Any]:
    """A page of a room, oldest first, after the message `after`, as the caller may read it."""
    record = game_with_room(game_id, room)
    query = parse(RoomQuerySchema, request.args.to_dict())
    store = chat_store()
    hidden = chat.hidden_since(store, record, room, query.get("hides_after"))  # before the page: see hidden_since
    messages, following = chat.read(store, record, room, reader(record), query["after"], query["limit"])
    return {"messages": [chat_message(said) for said in messages], "next": following, "hidden": hidden.ids,
            "hides": hidden.last}


@bp.post("/games/<game:game_id>/chat/<room>")
def write_chat(game_id: str, room: str) -> tuple[dict[str, Any], int]:
    """Write a message in a room: the table's with a seat's token, the spectators' with a player token holding no seat."""
    record = game_with_room(game_id, room)
    text = parse(ChatMessageSchema, json_body())["text"]
    writer, counted = _writer(record)
    limits.limit_chat(executor().store.redis, counted, current_app.config["MEEPLE_CHAT_PER_MINUTE"])
    mentions = chat.Mentions(invitations().blocks, current_app.config["MEEPLE_CHAT_MAIL_SECONDS"])
    closing = chat.Closing(executor().store.games.ended(record.id) if chat.is_over(record) else None,
                           current_app.config["MEEPLE_CHAT_SECONDS_AFTER_END"])
    return chat_message(chat.post(chat_store(), record, room, writer, text, mentions,
                                   visible_version(record, None), closing)), 201


def _noting(record: GameRecord) -> int | None:
    """The seat whose notes the request's token reaches: the one it holds (None for the admin or a player
    holding no seat, refused as any other seat's holder is); 401 without a token."""
    if auth.bearer_token() is None:
        raise auth.unauthorized("token_missing", "A seat's notes need its token: send 'Authorization: Bearer <token>'.")
    return _seat(record)


@bp.get("/games/<game:game_id>/seats/<int:seat>/notes")
def read_notes(game_id: str, seat: int) -> dict[str, Any]:
    """The seat's private notes, to the one who holds it only."""
    record = game_with_room(game_id)
    return {"seat": seat, "text": chat.notes(chat_store(), record, seat, _noting(record))}


@bp.put("/games/<game:game_id>/seats/<int:seat>/notes")
def keep_notes(game_id: str, seat: int) -> dict[str, Any]:
    """Replace the seat's private notes, for the one who holds it only."""
    record = game_with_room(game_id)
    text = parse(NotesSchema, json_body())["text"]
    chat.keep_notes(chat_store(), record, seat, _noting(record), text)
    return {"seat": seat, "text": text}
