"""API v1: each game's leaderboard, and a player's (or an AI level's) ratings, latest rated games,
opponents met and record against another (application.leaderboards)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, current_app, request

from application import leaderboards
from application.leaderboards import Point, Ranked
from application.ratings import Ratings
from application.results import AI, is_ai, shown_name
from domain import GAMES
from events import clock
from events.ratings import HeadToHead, Result
from players.mail import DAY_MS
from service.api.context import executor, players
from service.errors import ApiError
from service.schemas.common import parse
from service.schemas.ratings import (
    MAX_AFTER,
    PLAYER_OR_AI,
    LeaderboardQuerySchema,
    OpponentsQuerySchema,
    RecentQuerySchema,
)

bp = Blueprint("ratings", __name__, url_prefix="/v1")


def _ratings() -> Ratings:
    return Ratings(executor().store.redis, float(current_app.config["MEEPLE_PROVISIONAL_SIGMA"]))


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


def _ranked(ranked: Ranked) -> dict[str, Any]:
    rating = ranked.rating
    return {"player": ranked.identity, "name": ranked.name, "ai": is_ai(ranked.identity),
            "rating": rating.value, "mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
            "last_played": rating.last, "provisional": ranked.provisional}


def _record(record: HeadToHead) -> dict[str, int]:
    return {"played": record.played, "ahead": record.ahead, "behind": record.behind, "tied": record.tied}


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
    start, end = query["after"], query["after"] + query["limit"]
    total, listed = leaderboards.leaderboard(_ratings(), players(), game, query["provisional"], clock.now() - days * DAY_MS,
                                             start, query["limit"])
    return {"game": game, "days": days, "provisional": query["provisional"], "total": total,
            "ratings": [{"rank": rank, **_ranked(each)} for rank, each in enumerate(listed, start=start + 1)],
            "next": end if end < total and end <= MAX_AFTER else None}


@bp.get("/players/<player>/ratings")
def player_ratings(player: str) -> dict[str, Any]:
    """A player's (or an AI level's) rating in each game, its latest history, and how often it finished at each place."""
    identity = _identity(player)
    found = leaderboards.careers(_ratings(), players(), list(GAMES), identity, int(current_app.config["MEEPLE_RATING_HISTORY_POINTS"]))
    registered = None if is_ai(identity) else players().get(identity)
    name = found[0].ranked.name if found else shown_name(identity, None if registered is None else registered.name)
    return {"player": identity, "name": name, "ai": is_ai(identity), "games": [
        {"game": career.game, **_ranked(career.ranked), "won": career.places[0] if career.places else 0,
         "places": career.places, "history": [_point(point) for point in career.history],
         "history_total": career.history_total} for career in found]}


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
        {"game": each.game, **_record(each.record)} for each in leaderboards.versus(_ratings(), list(GAMES), identity, opponent)]}


@bp.get("/players/<player>/opponents")
def opponents(player: str) -> dict[str, Any]:
    """Every identity a player (or an AI level) met in a game's rated games, most met first, a page at a time."""
    identity, query = _identity(player), parse(OpponentsQuerySchema, request.args.to_dict())
    start = query["after"]
    total, met = leaderboards.opponents(_ratings(), players(), query["game"], identity, start, query["limit"])
    end = start + query["limit"]
    return {"player": identity, "game": query["game"], "total": total, "opponents": [
        {"player": each.record.other, "name": each.name, "ai": is_ai(each.record.other), **_record(each.record)} for each in met],
        "next": end if end < total and end <= MAX_AFTER else None}
