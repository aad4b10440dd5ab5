"""API v1 for registered players: who they are, and their inbox of games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from events.deadlines import due
from service import auth
from service.api.games import executor, json_body, players
from service.schemas import responses
from service.schemas.common import RegisterSchema

bp = Blueprint("players", __name__, url_prefix="/v1/players")


@bp.post("")
def register() -> tuple[dict[str, Any], int]:
    """Register a player: a name, an id and a token that can join games and act in them."""
    body = RegisterSchema().load(json_body())
    token = auth.new_token()
    player = players().register(auth.new_token()[:16], body["name"], token)
    return {"id": player.id, "name": player.name, "created": player.created, "token": token}, 201


@bp.get("/me")
def me() -> dict[str, Any]:
    player = auth.player(players())
    assert player is not None
    return {"id": player.id, "name": player.name, "created": player.created}


@bp.get("/me/inbox")
def inbox() -> dict[str, Any]:
    """The player's games: those waiting for them first (soonest deadline first), then the rest."""
    player = auth.player(players())
    assert player is not None
    entries = []
    for game_id in players().games(player.id):
        loaded = executor().load(game_id)
        seat = executor().store.seat_of_player(game_id, player.id)
        status = loaded.game.status(loaded.state)
        your_turn = loaded.version > 0 and seat in status.to_move
        deadline = due(executor().store, loaded, seat) if your_turn and seat is not None else None
        entries.append({
            "game": responses.summary(loaded.record),
            "seat": seat,
            "your_turn": your_turn,
            "deadline": None if deadline is None else deadline.at,
        })
    entries.sort(key=lambda entry: (not entry["your_turn"], entry["deadline"] is None, entry["deadline"] or 0))
    return {"games": entries}
