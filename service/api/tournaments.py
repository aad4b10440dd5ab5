"""API v1: tournaments: create and list them, sign up and withdraw, enter AIs, read one with its
rounds and standings, and follow its standings live (Server-Sent Events)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for

from application import tournaments as desk
from application.tournament_rounds import table_rated
from application.tournaments import TournamentSettings, TournamentView, rules
from domain import GAMES
from events.envelope import TurnDeadline
from events.tournaments import Entrant, Stage, Tournaments
from service import auth
from service.api.caller import RequestCaller
from service.api.context import executor, invitations, json_body, players
from service.api.streams import RECONNECT_MS, event_stream, sse
from service.schemas.common import parse
from service.schemas.responses import tournament_summary
from service.schemas.tournaments import CreateTournamentSchema, NewEntrantSchema, TournamentsQuerySchema

bp = Blueprint("tournaments", __name__, url_prefix="/v1")

OWN_READ = 200  # the latest tournaments of a player's read to find those of the stage a list asks for


def tournaments() -> Tournaments:
    store = executor().store
    return Tournaments(store.redis, store.streams.waiting)


@bp.get("/tournaments")
def list_tournaments() -> dict[str, Any]:
    """A page of the listed tournaments open (signing up or under way) or ended, and on the first page,
    with a player token, before them those of that stage the player was invited to (`invited`, until
    declined) or signed up for."""
    query = parse(TournamentsQuerySchema, request.args.to_dict())
    ended, first = query["stage"] == "ended", query.get("cursor") is None
    player = auth.player(players(), required=False)
    found = tournaments()
    own, invited = found.of_player(player.id, OWN_READ) if player else ([], set())
    page, following = found.listed(ended, query.get("cursor"), query["limit"])
    records = found.many(list(dict.fromkeys([*own, *page])))
    of_stage = [record for record in records
                if record is not None and record.stage.over == ended]
    yours = [record.id for record in of_stage if record.id in own][:query["limit"]]  # the first page's, ahead of the rest
    shown = [record for record in of_stage if record.id in yours] if first else []
    shown += [record for record in of_stage if record.id in page and record.id not in yours]
    return {"tournaments": [tournament_summary(record) | {"invited": record.id in invited} for record in shown],
            "next": following.code() if following else None}


@bp.post("/tournaments")
def create_tournament() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create a tournament signing up; it needs a player token."""
    creator = auth.player(players())
    assert creator is not None
    body = parse(CreateTournamentSchema, json_body())
    GAMES[body["game"]].parse_options(body["options"], body["seats"])  # 422 naming each bad option
    deadline = body["turn_deadline"]
    settings = TournamentSettings(body["name"], body["game"], body["options"], body["seats"], body["format"],
                                  TurnDeadline(**deadline), body["starts"], body["rounds"], body["unlisted"],
                                  body["invited"], body["invited_names"])
    record = desk.create(tournaments(), players(), invitations(), RequestCaller(), creator.id, settings)
    return _tournament(desk.view(tournaments(), record)), 201, {
        "Location": url_for(".get_tournament", tournament_id=record.id)}


@bp.get("/tournaments/<tournament_id>")
def get_tournament(tournament_id: str) -> dict[str, Any]:
    """The tournament: its settings, entrants, rounds with their tables and results, standings and rules."""
    return _tournament(desk.view(tournaments(), desk.find(tournaments(), tournament_id)))


@bp.post("/tournaments/<tournament_id>/entrants")
def add_entrant(tournament_id: str) -> tuple[dict[str, Any], int]:
    """Sign the caller up, or (the creator, with `level`) enter an AI, while the tournament signs up."""
    player = auth.player(players())
    assert player is not None
    body = parse(NewEntrantSchema, json_body() if request.get_data() else {})
    found = tournaments()
    record = desk.find(found, tournament_id)
    if body["level"] is None:
        entrant = desk.sign_up(found, record, player)
    else:
        entrant = desk.enter_ai(found, record, RequestCaller(), player.id, body["level"])
    return _entrant(entrant), 201


@bp.delete("/tournaments/<tournament_id>/entrants/<entrant_id>")
def withdraw(tournament_id: str, entrant_id: str) -> tuple[str, int]:
    """Withdraw an entrant: the caller themselves, or an AI the caller (the creator) entered."""
    player = auth.player(players())
    assert player is not None
    found = tournaments()
    desk.withdraw(executor(), found, desk.find(found, tournament_id), entrant_id, by=player.id)
    return "", 204


@bp.delete("/players/me/tournament-invitations/<tournament_id>")
def decline_invitation(tournament_id: str) -> tuple[str, int]:
    """Decline an invitation to a tournament."""
    player = auth.player(players())
    assert player is not None
    desk.decline(tournaments(), tournament_id, player.id)
    return "", 204


@bp.get("/tournaments/<tournament_id>/stream")
def tournament_stream(tournament_id: str) -> Response:
    """The whole tournament now (a `tournament` message), then a `change` message each time it changes
    holding only the parts that changed, and an `end` message once it is over."""
    found = tournaments()
    record = desk.find(found, tournament_id)
    if record.stage.over:
        return Response(status=204)  # nothing more will change: EventSource does not reconnect
    return event_stream(_changes(found, tournament_id, current_app.config["MEEPLE_STREAM_HEARTBEAT_MS"]), None, None)


def _changes(found: Tournaments, tournament_id: str, heartbeat_ms: int) -> Iterator[str]:
    yield f"retry: {RECONNECT_MS}\n\n"
    shown = _tournament(desk.view(found, desk.find(found, tournament_id)))
    yield sse(shown, event="tournament")
    while not Stage(shown["stage"]).over:
        while found.news(tournament_id, shown["version"], heartbeat_ms) is None:
            yield ": still here\n\n"
        now = _tournament(desk.view(found, desk.find(found, tournament_id)))
        yield sse(change(shown, now), event="change")
        shown = now
    yield sse({"stage": shown["stage"]}, event="end")


def change(before: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """What a follower of the tournament `before` reads to have it `now`: the versions it goes from
    (`since`) and to, each other part that changed whole (`stage`, `rounds` planned, `entrants`, `standings` …),
    and in `paired` each round whose tables or byes changed (a new round, a table finished)."""
    parts = {key: value for key, value in now.items() if key not in ("paired", "version") and value != before.get(key)}
    rounds = [each for each in now["paired"] if each not in before["paired"]]
    return {"since": before["version"], "version": now["version"]} | parts | ({"paired": rounds} if rounds else {})


def _tournament(view: TournamentView) -> dict[str, Any]:
    """A tournament as the API shows it."""
    record = view.record
    by_id = {entrant.id: entrant for entrant in view.entrants}
    return tournament_summary(record) | {
        "version": view.version, "options": record.options, "turn_deadline": _deadline(record.deadline), "creator": record.creator,
        "created": record.created, "rounds": record.rounds,
        "entrants": [_entrant(entrant) for entrant in view.entrants],
        "paired": [{"number": number, "byes": list(paired.byes), "tables": [
            {"game_id": table.game_id, "entrants": list(table.entrants), "rated": table_rated(table, by_id, record.seats),
             "places": [list(place) for place in view.results[table.game_id].places] if table.game_id in view.results else None}
            for table in paired.tables]} for number, paired in enumerate(view.rounds, 1)],
        "standings": [{"entrant": row.entrant, "name": by_id[row.entrant].name if row.entrant in by_id else row.entrant, "points": row.points,
                       "buchholz": row.buchholz, "firsts": row.firsts, "played": row.played, "byes": row.byes}
                      for row in view.standings],
        "rules": list(rules(record.format))}


def _entrant(entrant: Entrant) -> dict[str, Any]:
    return {"id": entrant.id, "name": entrant.name, "level": entrant.level, "withdrawn": entrant.withdrawn,
            "timed_out": entrant.timed_out}


def _deadline(deadline: TurnDeadline) -> dict[str, Any]:
    return {key: value for key, value in dataclasses.asdict(deadline).items() if value is not None}
