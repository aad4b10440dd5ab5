"""API v1 for keeping it civil: a report of a game chat's message or of a player, and the admin's queue of
reports, their decisions and the players' mutes (the admin token only)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request

from application import moderation
from application.reports import report_chat, report_player
from events.seats import hash_token
from players.conversations import Conversations
from players.moderation import Mutes, Report, Reports
from service import auth, limits
from service.api.chat import chat_store, game_with_room, reader, speaker
from service.api.context import executor, json_body, players
from service.errors import ApiError
from service.schemas.common import parse
from service.schemas.moderation import DecisionSchema, MuteSchema, ReportSchema, ReportsQuerySchema

bp = Blueprint("moderation", __name__, url_prefix="/v1")


def reports() -> Reports:
    return Reports(executor().store.redis, current_app.config["MEEPLE_CLOSED_REPORTS_DAYS"])


def filing() -> moderation.Filing:
    """Where the request's report is filed."""
    redis = executor().store.redis
    return moderation.Filing(reports(), Mutes(redis), current_app.config["MEEPLE_OPEN_REPORTS_PER_REPORTER"],
                             hash_token(limits.client_address()), current_app.config["MEEPLE_OPEN_REPORTS_PER_ADDRESS"])


def report_answer(report: Report) -> dict[str, Any]:
    """A report as the API shows it, with the copy of its message (null for a report of a player, who is `player`)."""
    message = report.message
    answer = {"id": report.id, "reason": report.reason, "time": report.time, "status": report.status}
    if message.place == "player":
        return answer | {"message": None, "player": {"id": message.author, "name": message.name}}
    return answer | {"player": None, "message": {
        "place": message.place, "game_id": message.game_id, "room": message.room,
        "players": list(message.pair) if message.pair is not None else None,
        "id": message.message_id, "author": message.author, "name": message.name, "text": message.text}}


def _admin() -> None:
    """Refuse a request without the admin token."""
    if auth.bearer_token() is None:
        raise auth.unauthorized("token_missing", "This needs the admin token (MEEPLE_ADMIN_TOKEN).")
    if not auth.is_admin():
        raise ApiError(403, "admin_only", "Only the admin token moderates.")


@bp.post("/games/<game:game_id>/chat/<room>/messages/<message_id>/reports")
def report_chat_message(game_id: str, room: str, message_id: str) -> tuple[dict[str, Any], int]:
    """Report a message of a game's chat that the caller reads, for the admin."""
    record = game_with_room(game_id, room)
    reason = parse(ReportSchema, json_body())["reason"]
    _, _, reporter = speaker(record, "Reporting")
    found_reader = reader(record)
    limits.limit_chat(executor().store.redis, reporter, current_app.config["MEEPLE_CHAT_PER_MINUTE"])
    found = report_chat(chat_store(), filing(), record, room, message_id, found_reader, reporter, reason)
    return report_answer(found), 201


@bp.post("/players/<player_id>/reports")
def report_a_player(player_id: str) -> tuple[dict[str, Any], int]:
    """Report a player, for the admin."""
    me = auth.player(players())
    assert me is not None
    reason = parse(ReportSchema, json_body())["reason"]
    limits.limit_chat(executor().store.redis, me.id, current_app.config["MEEPLE_CHAT_PER_MINUTE"])
    return report_answer(report_player(players(), filing(), me.id, player_id, reason)), 201


@bp.get("/admin/reports")
def list_reports() -> dict[str, Any]:
    """A page of the open reports, oldest first (or, with status=closed, of the closed, latest first)."""
    _admin()
    query = parse(ReportsQuerySchema, request.args.to_dict())
    found, following = reports().listed(query["status"], query["after"])
    return {"reports": [report_answer(report) for report in found], "next": following}


@bp.post("/admin/reports/<report_id>/decision")
def decide_report(report_id: str) -> dict[str, Any]:
    """Hide the reported message, or dismiss the report."""
    _admin()
    hide = parse(DecisionSchema, json_body())["hide"]
    found = reports().get(report_id) if report_id.isalnum() else None
    if found is None:
        raise ApiError(404, "report_not_found", "No report has this id.")
    store = executor().store
    moderation.decide(reports(), found, hide, chat_store(), Conversations(store.redis, current_app.config["MEEPLE_CONVERSATION_KEPT"]))
    return report_answer(reports().get(report_id) or found)


@bp.put("/admin/mutes/<player_id>")
def mute(player_id: str) -> dict[str, Any]:
    """Mute a player for some minutes: they write nothing, and are told until when."""
    _admin()
    minutes = parse(MuteSchema, json_body())["minutes"]
    if players().get(player_id) is None:
        raise ApiError(404, "player_not_found", "No registered player has this id.")
    return {"player": player_id, "until": moderation.mute(Mutes(executor().store.redis), player_id, minutes)}


@bp.put("/admin/games/<game:game_id>/chat/<room>/messages/<message_id>/mute")
def mute_writer(game_id: str, room: str, message_id: str) -> dict[str, Any]:
    """Mute the writer of a message of a game's chat for some minutes: its player, or the guest seat that wrote it."""
    _admin()
    minutes = parse(MuteSchema, json_body())["minutes"]
    player, seat, subject = _writer(game_id, room, message_id)
    return {"player": player, "seat": seat, "until": moderation.mute(Mutes(executor().store.redis), subject, minutes)}


@bp.delete("/admin/games/<game:game_id>/chat/<room>/messages/<message_id>/mute")
def unmute_writer(game_id: str, room: str, message_id: str) -> Response:
    """Lift the mute of a message's writer."""
    _admin()
    _, _, subject = _writer(game_id, room, message_id)
    if not Mutes(executor().store.redis).unmute(subject):
        raise ApiError(404, "mute_not_found", "The message's writer is not muted.")
    return Response(status=204)


def _writer(game_id: str, room: str, message_id: str) -> tuple[str | None, int | None, str]:
    return moderation.writer(chat_store(), game_with_room(game_id, room), room, message_id)


@bp.delete("/admin/mutes/<player_id>")
def unmute(player_id: str) -> Response:
    """Lift a player's mute."""
    _admin()
    if not Mutes(executor().store.redis).unmute(player_id):
        raise ApiError(404, "mute_not_found", "The player is not muted.")
    return Response(status=204)
