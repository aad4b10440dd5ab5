"""API v1: each game's leaderboard, and a player's (or an AI level's) ratings, latest rated games
and record against another (application.leaderboards)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, request

from application import leaderboards
from application.leaderboards import Point, Standing
from application.ratings import Ratings
from application.results import AI, Result, is_ai, shown_name
from domain import GAMES
from events import clock
from players.mail import DAY_MS
from service.api.context import executor, players
from service.errors import ApiError
from service.schemas.common import parse
from service.schemas.ratings import PLAYER_OR_AI, LeaderboardQuerySchema, RecentQuerySchema

bp = Blueprint("ratings", __name__, url_prefix="/v1")


def _ratings() -> Ratings:
    return Ratings(executor().store.redis)


def _sigma() -> float:
    return float(current_app.config["MEEPLE_PROVISIONAL_SIGMA"])


def _identity(player: str) -> str:
    """`player` if it names a registered player or an AI level of some game; 404 otherwise."""
    if re.fullmatch(PLAYER_OR_AI, player) is None:
        raise ApiError(404, "player_not_found", "No registered player has this id.")
    if is_ai(player):
        if not any(player[len(AI):] in game.bots for game in GAMES.values()):
            raise ApiError(404, "player_not_found", "No AI level has this name.")
    elif players().get(player) is None:
        raise ApiError(404, "player_not_found", "No registered player has this id.")
    return player


def _standing(standing: Standing) -> dict[str, Any]:
    rating = standing.rating
    return {"player": standing.identity, "name": standing.name, "ai": is_ai(standing.identity),
            "rating": rating.value, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
            "last_played": rating.last, "provisional": standing.provisional}


def _point(point: Point) -> dict[str, Any]:
    return {"game_id": point.game_id, "at": point.at, "rating": point.rating.value, "mu": point.rating.mu,
            "sigma": point.rating.sigma}


def _result(result: Result, identity: str) -> dict[str, Any]:
    return {"game_id": result.public_id, "game": result.game, "at": result.at, "place": result.place_of(identity),
            "places": [[{"player": each, "name": result.names.get(each, each)} for each in place] for place in result.places]}


@bp.get("/ratings/<game>")
def leaderboard(game: str) -> dict[str, Any]:
    """A game's leaderboard: those who played it rated lately, best first, established or provisional."""
    if game not in GAMES:
        raise ApiError(404, "not_found", "No such path: the games are " + ", ".join(GAMES) + ".")
    query = parse(LeaderboardQuerySchema, request.args.to_dict())
    days = query["days"] or int(current_app.config["MEEPLE_RATING_DAYS"])
    established, provisional = leaderboards.leaderboard(_ratings(), players(), game, clock.now() - days * DAY_MS, _sigma())
    listed = provisional if query["provisional"] else established
    start, end = query["after"], query["after"] + query["limit"]
    return {"game": game, "days": days, "provisional": query["provisional"], "total": len(listed),
            "ratings": [{"rank": rank, **_standing(each)} for rank, each in enumerate(listed[start:end], start=start + 1)],
            "next": end if end < len(listed) else None}


@bp.get("/players/<player>/ratings")
def player_ratings(player: str) -> dict[str, Any]:
    """A player's (or an AI level's) rating in each game, its history, and how often it finished at each place."""
    identity = _identity(player)
    found = leaderboards.careers(_ratings(), players(), list(GAMES), identity, _sigma())
    registered = None if is_ai(identity) else players().get(identity)
    name = found[0].standing.name if found else shown_name(identity, None if registered is None else registered.name)
    return {"player": identity, "name": name, "ai": is_ai(identity), "games": [
        {"game": career.game, **_standing(career.standing), "won": career.places[0] if career.places else 0,
         "places": career.places, "history": [_point(point) for point in career.history]} for career in found]}


@bp.get("/players/<player>/results")
def player_results(player: str) -> dict[str, Any]:
    """A player's (or an AI level's) latest rated games, newest first, with every seat's place."""
    identity, query = _identity(player), parse(RecentQuerySchema, request.args.to_dict())
    games = [query["game"]] if query["game"] else list(GAMES)
    return {"player": identity, "results": [_result(result, identity)
                                            for result in leaderboards.recent(_ratings(), players(), games, identity, query["limit"])]}


@bp.get("/players/<player>/versus/<other>")
def head_to_head(player: str, other: str) -> dict[str, Any]:
    """How a player (or an AI level) fared against another in the rated games they played together, game by game."""
    identity, opponent = _identity(player), _identity(other)
    return {"player": identity, "other": opponent, "games": [
        {"game": each.game, "played": each.played, "ahead": each.ahead, "behind": each.behind, "tied": each.tied}
        for each in leaderboards.versus(_ratings(), list(GAMES), identity, opponent)]}
