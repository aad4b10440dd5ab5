"""API v1 for messages between players: the player's conversations with their unread counts, one
conversation read page by page and written to, and a report of one of its messages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, request

from application import conversations
from application.reports import report_private
from players.accounts import Player
from players.conversations import PrivateMessage
from service import limits
from service.api.context import executor, json_body, players
from service.api.moderation import filing, report_answer
from service.api.players import caller, messages
from service.errors import ApiError
from service.schemas.chat import ChatMessageSchema, ChatQuerySchema
from service.schemas.common import parse
from service.schemas.moderation import ReportSchema

bp = Blueprint("conversations", __name__, url_prefix="/v1/players/me/conversations")


def private_message(message: PrivateMessage) -> dict[str, Any]:
    """A message between players as the API shows it."""
    return {"id": message.id, "author": message.author, "text": message.text, "time": message.time}


def _other(player_id: str) -> Player:
    other = players().get(player_id)
    if other is None:
        raise ApiError(404, "player_not_found", "No registered player has this id.")
    return other


@bp.get("")
def list_conversations() -> dict[str, Any]:
    """The caller's conversations, latest first, each with how many of its messages they have not read."""
    listed = conversations.listing(messages(), caller().id)
    found = list(zip(players().many([conversation.other for conversation in listed]), listed, strict=True))
    return {"conversations": [{"player": {"id": other.id, "name": other.name}, "latest": conversation.latest,
                               "unread": conversation.unread} for other, conversation in found if other],
            "unread": sum(conversation.unread for _, conversation in found)}


@bp.get("/<player_id>")
def read_conversation(player_id: str) -> dict[str, Any]:
    """A page of the caller's conversation with a player, oldest first; it is read from now on."""
    me, other = caller(), _other(player_id)
    query = parse(ChatQuerySchema, request.args.to_dict())
    page, following = conversations.read(messages(), me.id, other.id, query["after"], query["limit"])
    return {"player": {"id": other.id, "name": other.name}, "messages": [private_message(said) for said in page],
            "next": following}


@bp.post("/<player_id>")
def write_message(player_id: str) -> tuple[dict[str, Any], int]:
    """Write to a player."""
    me, other = caller(), _other(player_id)
    text = parse(ChatMessageSchema, json_body())["text"]
    limits.limit_chat(executor().store.redis, me.id, current_app.config["MEEPLE_CHAT_PER_MINUTE"])
    return private_message(conversations.send(messages(), me, other.id, text)), 201


@bp.post("/<player_id>/messages/<message_id>/reports")
def report_message(player_id: str, message_id: str) -> tuple[dict[str, Any], int]:
    """Report a message of the caller's conversation with a player, for the admin."""
    me, other = caller(), _other(player_id)
    reason = parse(ReportSchema, json_body())["reason"]
    limits.limit_chat(executor().store.redis, me.id, current_app.config["MEEPLE_CHAT_PER_MINUTE"])
    found = report_private(messages(), players(), filing(), me.id, other.id, message_id, reason)
    return report_answer(found), 201
