"""API v1 for registered players: who they are, their inbox of games and invitations, the players
they block, their webhooks and the log of deliveries to them."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, current_app, request

from application import conversations, tournaments
from application.conversations import Inbox
from application.deadlines import due, game_clocks
from application.tokens import new_id, new_token
from application.vacations import come_back, go_on_vacation
from events import clock
from events.tournaments import Tournaments
from players import egress
from players.accounts import Player
from players.errors import VacationRefused, WebhookLimitReached
from players.vacations import Allowance
from service import auth, limits
from service.api.context import executor, invitations, json_body, known_game, players, seen_by, vacations, webhooks
from service.errors import ApiError
from service.limits import limit_vacations
from service.schemas import responses
from service.schemas.common import (
    DeliveriesQuerySchema,
    RegisterSchema,
    TimeZoneSchema,
    VacationSchema,
    WebhookSchema,
    parse,
)

bp = Blueprint("players", __name__, url_prefix="/v1/players")


@bp.post("")
def register() -> tuple[dict[str, Any], int]:
    """Register a player: a name, an id and a token that can join games and act in them."""
    body = parse(RegisterSchema, json_body())
    limits.limit_registrations(executor().store.redis, current_app.config["MEEPLE_REGISTRATIONS_PER_ADDRESS"])
    token = new_token()
    player = players().register(new_id(), body["name"], token, body["device"])
    return {"id": player.id, "name": player.name, "created": player.created, "token": token}, 201


def caller() -> Player:
    player = auth.player(players())
    assert player is not None
    return player


@bp.get("/me")
def me() -> dict[str, Any]:
    player = caller()
    return {"id": player.id, "name": player.name, "created": player.created, "time_zone": player.time_zone,
            **_vacation(vacations().allowance(player.id, clock.now()))}


def _vacation(allowance: Allowance) -> dict[str, Any]:
    return {"vacation_until": allowance.until, "vacation_days_left": allowance.days_left,
            "vacation_days_per_year": allowance.days_per_year}


@bp.put("/me/vacation")
def start_vacation() -> dict[str, Any]:
    """Go on vacation until a time (or move the end of the vacation underway): every clock of the
    player's stands still until then (a per-move deadline waits up to the days its game allows).
    Each day it spans, begun or whole, is spent from the player's yearly allowance."""
    player = caller()
    until = parse(VacationSchema, json_body())["until"]
    now = clock.now()
    if not now < until <= now + 366 * 86_400_000:
        raise ApiError(422, "validation_error", "A vacation ends within a year from now.", errors={"until": ["Out of range."]})
    if (underway := vacations().allowance(player.id, now)).until == until:
        return _vacation(underway)  # nothing moves, nothing is announced: not counted
    limit_vacations(executor().store.redis, player.id, current_app.config["MEEPLE_VACATIONS_PER_PLAYER"])
    try:
        return _vacation(go_on_vacation(executor().store, vacations(), player.id, until, now))
    except VacationRefused as error:
        raise ApiError(409, "no_vacation_days_left", str(error)) from None


@bp.delete("/me/vacation")
def end_vacation() -> Response:
    """Come back from vacation now: the clocks run again and the days not begun are given back."""
    come_back(executor().store, vacations(), caller().id, clock.now())
    return Response(status=204)


@bp.put("/me/time-zone")
def set_time_zone() -> dict[str, Any]:
    """Where the player's weekends fall, for games whose clocks stop on weekends: fixed for each game as it starts."""
    zone = parse(TimeZoneSchema, json_body())["time_zone"]
    players().set_time_zone(caller().id, zone)
    return {"time_zone": zone}


@bp.post("/me/webhooks")
def add_webhook() -> tuple[dict[str, Any], int]:
    """Register a URL for the player's notifications; the answer holds its signing secret. A player
    has at most MEEPLE_WEBHOOKS_PER_PLAYER of them, each notification being POSTed to every one."""
    player = caller()
    body = parse(WebhookSchema, json_body())
    url = body["url"]
    found = egress.destination(url)  # an address that is not public is refused by the schema; a name, here
    if egress.resolves_privately(found, current_app.config["MEEPLE_WEBHOOK_RESOLVE_SECONDS"]):
        raise ApiError(422, "validation_error", "The request is not valid.", errors={"url": [
            f"A webhook must reach a public address, not a private, loopback or link-local one; {found.host} "
            "resolves to no public address."]})
    try:
        hook = webhooks().add(player.id, new_token()[:12], url, secrets.token_hex(32), body["form"])
    except WebhookLimitReached as error:
        raise ApiError(409, "too_many_webhooks", f"A player has at most {error.limit} webhooks: remove one first.",
                       limit=error.limit) from None
    return {"id": hook.id, "url": hook.url, "format": hook.form, "created": hook.created, "secret": hook.secret}, 201


@bp.get("/me/webhooks")
def list_webhooks() -> dict[str, Any]:
    return {"webhooks": [{"id": h.id, "url": h.url, "format": h.form, "created": h.created} for h in webhooks().of(caller().id)]}


@bp.delete("/me/webhooks/<webhook_id>")
def remove_webhook(webhook_id: str) -> Response:
    if not webhooks().remove(caller().id, webhook_id):
        raise ApiError(404, "webhook_not_found", "No such webhook.")
    return Response(status=204)


@bp.get("/me/deliveries")
def deliveries() -> dict[str, Any]:
    """The latest delivery attempts to the player's webhooks, newest first."""
    query = parse(DeliveriesQuerySchema, request.args.to_dict())
    return {"deliveries": webhooks().attempts(caller().id, query["limit"])}


@bp.delete("/me/invitations/<game_id>")
def decline_invitation(game_id: str) -> Response:
    """Decline an invitation: the seat reserved for the player is free for anyone from now on, and
    the game leaves their inbox for good."""
    player = caller()
    record = executor().store.games.get(known_game(game_id))
    if player.id not in record.reserved.values() or record.seat_of(player.id) is not None:
        raise ApiError(404, "invitation_not_found", "No invitation of yours to this game (a seat you hold is left "
                       "with POST /v1/games/{id}/leave).")
    invitations().decline(game_id, record.reserved, player.id)
    executor().store.feed.tell(game_id)  # the player's inbox streams
    return Response(status=204)


@bp.get("/me/contacts")
def contacts() -> dict[str, Any]:
    """The players the caller has sat beside in a game that started, by name: those a seat may be
    reserved for by name."""
    found = [other for contact in invitations().contacts(caller().id) if (other := players().get(contact)) is not None]
    return {"contacts": [{"id": other.id, "name": other.name}
                         for other in sorted(found, key=lambda other: (other.name.casefold(), other.id))]}


@bp.get("/me/blocks")
def list_blocks() -> dict[str, Any]:
    """The players the caller blocks, newest first."""
    found = [(players().get(blocked), since) for blocked, since in invitations().blocks.of(caller().id)]
    return {"blocks": [{"player": other.id, "name": other.name, "since": since} for other, since in found if other]}


@bp.put("/me/blocks/<player_id>")
def block(player_id: str) -> Response:
    """Block a player: their invitations never reach the caller (they are not told)."""
    player = caller()
    if players().get(player_id) is None:
        raise ApiError(404, "player_not_found", "No registered player has this id.")
    if player_id == player.id:
        raise ApiError(422, "validation_error", "A player cannot block themselves.", errors={"player_id": ["Is yours."]})
    if not invitations().blocks.block(player.id, player_id):
        limit = invitations().blocks.limit
        raise ApiError(409, "too_many_blocks", f"A player blocks at most {limit} players.", limit=limit)
    return Response(status=204)


@bp.delete("/me/blocks/<player_id>")
def unblock(player_id: str) -> Response:
    if not invitations().blocks.unblock(caller().id, player_id):
        raise ApiError(404, "block_not_found", "The caller does not block this player.")
    return Response(status=204)


@bp.get("/me/inbox")
def inbox() -> dict[str, Any]:
    return inbox_of(caller().id)


def inbox_of(player_id: str) -> dict[str, Any]:
    """The player's games: those waiting for their move first (least time left on their clock first,
    then soonest deadline), then their invitations (games with a seat reserved for them, not yet
    taken), then the rest; their invitations to tournaments; their unread messages."""
    entries = [entry for game_id in players().games(player_id) if is_listed(entry := inbox_entry(game_id, player_id))]
    entries.sort(key=lambda entry: (not entry["your_turn"], entry["invitation"] is None, entry["time_left"] is None,
                                    entry["time_left"] or 0, entry["deadline"] is None, entry["deadline"] or 0))
    return {"games": entries, "tournaments": tournament_invitations(player_id),
            "unread_messages": conversations.unread(messages(), player_id)}


def tournament_invitations(player_id: str) -> list[dict[str, Any]]:
    """The player's invitations to tournaments signing up, latest first, but those declined or signed up for and
    those from a player they block: each tournament's summary and who invited them (its creator)."""
    found = tournaments.invitations(Tournaments(executor().store.redis), invitations().blocks, player_id)
    creators = players().many([record.creator for record in found])
    return [{"tournament": responses.tournament_summary(record), "invited_by": _named(creator)}
            for record, creator in zip(found, creators, strict=True)]


def _player(player_id: str) -> dict[str, str] | None:
    return _named(players().get(player_id))


def _named(found: Player | None) -> dict[str, str] | None:
    return None if found is None else {"id": found.id, "name": found.name}


def messages() -> Inbox:
    """The stores of the players' messages."""
    return Inbox.on(executor().store.redis, invitations().blocks, current_app.config["MEEPLE_CHAT_MAIL_SECONDS"],
                    current_app.config["MEEPLE_CONVERSATION_KEPT"])


def is_listed(entry: dict[str, Any]) -> bool:
    """Whether the inbox lists a game of the player's: a seat they hold or one it invites them to; a seat given up,
    or an invitation to a game that was cancelled, may linger among their games."""
    return entry["seat"] is not None or entry["invitation"] is not None


def inbox_entry(game_id: str, player_id: str) -> dict[str, Any]:
    """One of a player's games: its summary, their seat (or the seat it invites them to, and who
    invited them), whether it is their turn, until when and how much time their clock has left."""
    loaded = executor().load(game_id)
    seat = loaded.record.seat_of(player_id)
    status = loaded.game.status(loaded.state)
    your_turn = loaded.version > 0 and seat in status.to_move
    clocks = game_clocks(executor().store, loaded) if your_turn else None
    deadline = due(executor().store, loaded, seat, clocks) if your_turn and seat is not None else None
    ticking = clocks[seat] if clocks is not None and seat is not None else None
    invitation = loaded.record.invitation(player_id)
    return {
        "game": responses.summary(seen_by(loaded.record, seat), seated=seat is not None, viewer=player_id),
        "seat": seat,
        "invitation": invitation,
        "invited_by": None if invitation is None or loaded.record.creator is None else _player(loaded.record.creator),
        "your_turn": your_turn,
        "deadline": None if deadline is None else deadline.at,
        "time_left": None if ticking is None else ticking.remaining,
    }
