"""Meeple's own web client: one page, its ES modules and its stylesheet, shipped in the package.
The page speaks to the server only through the public API (/v1), as any other front end would;
these routes are pages and files, not API operations, so the OpenAPI document leaves them out."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

from domain import GAMES
from service.web.rules import rules_page

STATIC = Path(__file__).with_name("static")
# nothing from another host, no inline script or style; the page's own SVG images as data: URLs
CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")

bp = Blueprint("web", __name__, static_folder=STATIC, static_url_path="/web")


def page() -> Response:
    """The client's one page; its script draws what `location.pathname` names."""
    answer = send_from_directory(STATIC, "index.html", max_age=0)
    answer.headers["Content-Security-Policy"] = CSP
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.get("/")
def home() -> Response:
    """The signed-in player's inbox and the lobby."""
    return page()


@bp.get("/games/<game_id>")
def game(game_id: str) -> Response:
    """A game's table, for a seat's player or a spectator."""
    return page()


@bp.get("/games/<game_id>/replay")
def replay(game_id: str) -> Response:
    """A finished game played back, version by version, as any seat saw it."""
    return page()


@bp.get("/sign-in")
def sign_in() -> Response:
    """The page a mailed sign-in link opens: it signs this device in with the link's secret (in the fragment)."""
    return page()


@bp.get("/messages")
@bp.get("/messages/<player_id>")
def messages(player_id: str | None = None) -> Response:
    """The signed-in player's conversations with other players, or one of them."""
    return page()


@bp.get("/ratings/<game>")
def leaderboard(game: str) -> Response:
    """A game's leaderboard."""
    return page()


@bp.get("/players/<player_id>")
def player(player_id: str) -> Response:
    """A player's (or an AI level's) ratings, their history, latest rated games and head-to-head."""
    return page()


@bp.get("/tournaments")
@bp.get("/tournaments/<tournament_id>")
def tournaments(tournament_id: str | None = None) -> Response:
    """The tournaments, the form that creates one (/tournaments/new), or one tournament's page."""
    return page()


@bp.get("/admin")
def admin() -> Response:
    """The admin's queue of reported messages, for whoever holds the admin token."""
    return page()


@bp.get("/rules/<game>")
def rules(game: str) -> Response:
    """A game's rules, each section anchored by its number: `/rules/bahama_taxi#s11.8`."""
    if game not in GAMES:
        abort(404)
    answer = Response(rules_page(game), mimetype="text/html")
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@bp.after_request
def no_foreign_content(answer: Response) -> Response:
    """Every file of the client, not only the page, says what it may load."""
    answer.headers.setdefault("Content-Security-Policy", CSP)
    return answer
