"""API v1: create and list games, join them, read their views and logs, send commands, offer
rematches."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app, g, request, url_for
from marshmallow import ValidationError

from domain import GAMES
from domain.bahama_taxi import board
from domain.core.game import Budget
from events.durability import NotReplicated
from events.envelope import CANCELLED, GameRecord, Lifecycle, NewEvent, Origin, TurnDeadline, VersionConflict
from events.execute import Loaded
from events.log_file import export_lines
from players.deadlines import Due, due
from players.invitations import met
from service import auth, imports, limits
from service.api.context import executor, invitations, json_body, known_game, legal, players, seen_by, visible_version
from service.errors import ApiError, StaleIfMatch
from service.schemas import GAME_SCHEMAS, responses
from service.schemas.common import (
    CreateGameSchema,
    EventsQuerySchema,
    ExpectedVersionSchema,
    ForkSchema,
    JoinSchema,
    LegalCommandsQuerySchema,
    ListGamesSchema,
    StateQuerySchema,
    check_budget,
    check_settings,
    parse,
)

bp = Blueprint("v1", __name__, url_prefix="/v1")

T = TypeVar("T")
IF_MATCH = re.compile(r'^(?:W/)?"?(\d{1,12})"?$')
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")


def if_match() -> int | None:
    header = request.headers.get("If-Match")
    if header is None or header.strip() == "*":
        return None
    match = IF_MATCH.match(header.strip())
    if match is None:
        raise ApiError(422, "validation_error", 'If-Match must be a game version such as "12".')
    return int(match.group(1))


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


@bp.get("/health")
def health() -> dict[str, Any]:
    """Whether the API and its store answer."""
    executor().store.redis.ping()
    return {"status": "ok"}


@bp.get("/games/types")
def game_types() -> dict[str, Any]:
    """Each game with its seat range and options."""
    return {"types": [
        {"name": game.name, "title": game.title, "min_seats": game.min_seats, "max_seats": game.max_seats,
         "options": game.describe_options(), "bots": list(game.bots),
         "budgets": {level: dataclasses.asdict(budget) for level, budget in game.budgets().items()}}
        for game in GAMES.values()
    ]}


@bp.get("/games/types/bahama_taxi/board")
def bahama_taxi_board() -> dict[str, Any]:
    """Bahama Taxi's city: its areas, the pairs that are adjacent, its districts and downtown,
    and where the published board draws each area."""
    return {"areas": list(board.AREAS), "edges": [list(edge) for edge in board.EDGES],
            "districts": {suit: list(areas) for suit, areas in board.DISTRICTS.items()},
            "downtown": list(board.DOWNTOWN), "positions": {area: list(at) for area, at in board.POSITIONS.items()}}


@bp.post("/games")
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create a game waiting for its players."""
    body = parse(CreateGameSchema, json_body())
    game = GAMES[body["game"]]
    game.parse_options(body["options"], body["seats"])  # 422 naming each bad option
    return _new_game(game.name, body["options"], body["seats"], body)


def _new_game(game: str, options: dict[str, Any], seats: int, settings: dict[str, Any],
              forked_from: Origin | None = None, private_origin: bool = False) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create a game with its settings (turn deadline, spectator delay, lobby time, AI seats,
    starting it if they fill it, seats reserved for registered players, unlisted); the answer to
    its creation. A copy of an unlisted game (`private_origin`) is unlisted too."""
    reserved = {reservation["seat"]: reservation["player"] for reservation in settings["reserved"]}
    creator = _creator(reserving=bool(reserved))
    if unknown := [player_id for player_id in reserved.values() if players().get(player_id) is None]:
        raise ValidationError({"reserved": [f"No registered player {player_id!r}." for player_id in unknown]})
    _count_game()
    reached = invitations().reaching(creator, reserved.values())
    if creator is not None:
        limits.limit_invitations(executor().store.redis, invitations().strangers(creator, reached),
                                 current_app.config["MEEPLE_INVITATIONS_PER_DAY"])
    game_id = auth.new_token()[:16]
    _open_game(
        game_id, game, options, seats,
        deadline=TurnDeadline(**settings["turn_deadline"]) if settings["turn_deadline"] else None,
        spectator_delay=settings["spectator_delay"],
        lobby_seconds=settings["lobby_seconds"] or current_app.config["MEEPLE_LOBBY_SECONDS"],
        bots=[(bot["seat"], bot["level"], bot["budget"]) for bot in settings["bots"]],
        unlisted=settings["unlisted"] or private_origin, reserved=reserved, forked_from=forked_from,
        creator=creator, private_origin=private_origin,
    )
    _invite(game_id, reached)
    return (responses.summary(executor().store.games.get(game_id), viewer=creator), 201,
            {"Location": url_for(".get_game", game_id=game_id)})


def _creator(reserving: bool) -> str | None:
    """The registered player whose token the request sends, if any: who creates the game. Reserving
    a seat for a player needs one (401 otherwise), so that every invitation has a sender."""
    token = auth.bearer_token()
    found = None if token is None else players().by_token(token)
    if reserving and found is None:
        raise auth.unauthorized("token_missing" if token is None else "token_unknown",
                                "Reserving a seat for a player needs the creator's player token: "
                                "send 'Authorization: Bearer <player token>'.")
    return None if found is None else found.id


def _count_game() -> None:
    """Count one more game created from the request's client address (429 past MEEPLE_GAMES_PER_ADDRESS)."""
    limits.limit_games(executor().store.redis, current_app.config["MEEPLE_GAMES_PER_ADDRESS"])


def _open_game(game_id: str, game: str, options: dict[str, Any], seats: int, *, deadline: TurnDeadline | None,
               spectator_delay: int, lobby_seconds: int, bots: list[tuple[int, str, Budget | None]], unlisted: bool,
               reserved: Mapping[int, str], forked_from: Origin | None = None, rematch_of: str | None = None,
               creator: str | None = None, private_origin: bool = False) -> None:
    """Store a new game and seat its AIs (each a seat, a level and a budget), starting it if they fill it."""
    store = executor().store
    store.games.create(game_id, game, options, seats, deadline, spectator_delay, forked_from, lobby_seconds,
                       unlisted=unlisted, reserved=reserved, rematch_of=rematch_of, creator=creator,
                       private_origin=private_origin)
    for seat, level, budget in bots:
        seated = store.seats.claim(game_id, seat, f"{level} bot", None, bot=level, budget=budget)
        if seated.taken == seated.seats:
            _start(game_id)


def _invite(game_id: str, reached: list[str]) -> None:
    """Put the game in the inbox of each invitee it reaches (Invitations.reaching), and tell their
    inbox streams."""
    if reached:
        invitations().deliver(game_id, reached)
        executor().store.feed.tell(game_id)


@bp.post("/games/<game:game_id>/fork")
def fork(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new game that opens with this game's events up to a version and goes on from there,
    with new seats: once the game is over (or before, to the admin token)."""
    body = parse(ForkSchema, json_body())
    store = executor().store
    origin = store.games.get(known_game(game_id))
    check_settings(origin.game, origin.seats, body)
    if origin.status is not Lifecycle.FINISHED and not auth.is_admin():
        raise ApiError(409, "game_not_finished", "A game can be forked once it is over.")
    version = body["version"]
    if version > origin.version:
        raise ApiError(404, "version_not_found", f"The game is at version {origin.version}.", current=origin.version)
    at, *following = store.streams.read(game_id, after=version - 1, limit=2)
    if following and following[0].command_id == at.command_id:
        raise ApiError(422, "not_a_move_boundary", f"Version {version} falls inside a move; fork where one ends.")
    loaded = executor().load(game_id, version)
    if loaded.game.status(loaded.state).finished:
        raise ApiError(422, "game_over_at_version", f"The game is already over at version {version}.")
    return _new_game(origin.game, origin.options, origin.seats, body, forked_from=Origin(game_id, version),
                     private_origin=origin.unlisted)


@bp.post("/games/import")
def import_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new, finished, read-only game from an exported log (JSON Lines), checked as strictly as a
    live game before anything is stored (service/imports.py)."""
    request.max_content_length = current_app.config["MEEPLE_MAX_IMPORT_BYTES"]
    if request.mimetype != "application/x-ndjson":
        raise ApiError(415, "unsupported_media_type", "Send the log as application/x-ndjson, as the export gives it.")
    creator = _creator(reserving=False)
    _count_game()  # before the log is read and checked: an address past its bound costs no check
    body, limit = imports.read_body(request.stream), current_app.config["MEEPLE_MAX_IMPORT_EVENTS"]
    log = imports.off_the_loop(lambda: imports.checked_log(body, limit))
    store = executor().store
    private = imports.is_private(store, log)
    game_id = auth.new_token()[:16]
    store.games.create(game_id, log.game.name, log.options, log.seats, imported=True, unlisted=private,
                       original_id=None if private else log.original_id, creator=creator)
    for seat, name in enumerate(log.names):
        store.seats.claim(game_id, seat, name, None)
    events = [NewEvent(e["type"], e["schema_version"], e["payload"]) for e in log.envelopes]
    with contextlib.suppress(NotReplicated):  # a game's creation is not waited for, and an import creates one
        store.streams.append(game_id, 0, events, command_id=uuid.uuid4().hex, actor="import", status=Lifecycle.FINISHED)
    return responses.summary(store.games.get(game_id)), 201, {"Location": url_for(".get_game", game_id=game_id)}


@bp.get("/games")
def list_games() -> dict[str, Any]:
    """Games, newest first, by game and status; paginated by cursor."""
    query = parse(ListGamesSchema, request.args.to_dict())
    records, following = executor().store.games.page(query.get("game"), query.get("status"), query.get("cursor"), query["limit"])
    return {"games": [responses.summary(seen_by(record, None)) for record in records],
            "next": None if following is None else following.code()}


@bp.post("/games/<game:game_id>/join")
def join(game_id: str) -> tuple[dict[str, Any], int]:
    """Take a seat, as a person (answered with the seat's token; with a player token, the seat
    is also that player's) or for an AI; the game starts when the last seat is taken."""
    body = parse(JoinSchema, json_body())
    record = executor().store.games.get(known_game(game_id))
    holder = auth.player(players(), required=False)
    bot = body["bot"]
    if bot is not None and bot not in GAMES[record.game].bots:
        raise ApiError(422, "validation_error", "No such AI level.", errors={"bot": [f"One of: {', '.join(GAMES[record.game].bots)}."]})
    if problem := check_budget(record.game, bot, body["budget"]):
        raise ApiError(422, "validation_error", "This AI level takes no budget.", errors={"budget": [problem]})
    token = None if bot else auth.new_token()
    seated = executor().store.seats.claim(game_id, body["seat"], body["name"], token, bot=bot,
                                         player_id=None if holder is None or bot else holder.id, budget=body["budget"])
    if holder is not None and not bot:
        players().joined(holder.id, game_id)
    if seated.taken == seated.seats:
        _start(game_id)
    return {"game_id": game_id, "seat": seated.seat, "token": token}, 201


def _start(game_id: str) -> None:
    """Start the game whose last seat was just taken. The seat is taken whatever becomes of the
    opening: if no replica confirms it in time and a failover loses it, the reactor's sweep starts
    the game again. Its registered players become each other's contacts."""
    met(executor().store.redis, set(executor().store.games.get(game_id).holders.values()))
    with contextlib.suppress(NotReplicated):
        executor().start(game_id)


@bp.post("/games/<game:game_id>/leave")
def leave(game_id: str) -> dict[str, Any]:
    """Give up the caller's seat before the game starts; the seat's token then acts for nothing. A
    player leaving the seat reserved for them declines the invitation (it is free for anyone)."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.require_seat(store, record)
    player_id = store.seats.leave(game_id, seat)
    if player_id is not None:
        invitations().decline(game_id, record.reserved, player_id)
    return responses.summary(store.games.get(game_id), viewer=player_id)


@bp.post("/games/<game:game_id>/rematch")
def rematch(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Offer a finished game again, to one of its seats: a new unlisted game of the same game,
    options and settings, seats rotated by one, each registered player's seat reserved for them
    and each AI's kept. One rematch per game: asked again, the same one answers."""
    store = executor().store
    origin = store.games.get(known_game(game_id))
    creator = origin.holders.get(auth.require_seat(store, origin))
    if origin.status is not Lifecycle.FINISHED:
        raise ApiError(409, "game_not_finished", "A rematch is offered once the game is over.")
    if origin.rematch is not None:
        return _rematch_answer(origin.rematch, 200, creator)
    _count_game()  # its invitations are to players who held seats beside the one asking: contacts, not limited
    rematch_id = auth.new_token()[:16]
    reserved = _rotated(origin, origin.holders)
    budgets = _rotated(origin, origin.budgets)
    bots = [(seat, level, budgets.get(seat)) for seat, level in _rotated(origin, dict(enumerate(origin.bots))).items()
            if level is not None]
    lobby = (origin.lobby_until - origin.created) // 1000 if origin.lobby_until else current_app.config["MEEPLE_LOBBY_SECONDS"]
    _open_game(rematch_id, origin.game, origin.options, origin.seats, deadline=origin.deadline,
               spectator_delay=origin.spectator_delay, lobby_seconds=lobby, bots=bots, unlisted=True,
               reserved=reserved, rematch_of=game_id, creator=creator, private_origin=origin.unlisted)
    if (named := store.games.name_rematch(game_id, rematch_id)) != rematch_id:
        store.games.discard(rematch_id)  # another seat asked at the same time, and its rematch was named first
        return _rematch_answer(named, 200, creator)
    _invite(rematch_id, invitations().reaching(creator, reserved.values()))
    return _rematch_answer(rematch_id, 201, creator)


def _rotated(record: GameRecord, by_seat: Mapping[int, T]) -> dict[int, T]:
    """What each seat had, moved on to the next seat (the last seat's to seat 0)."""
    return {(seat + 1) % record.seats: value for seat, value in by_seat.items()}


def _rematch_answer(rematch_id: str, status: int, viewer: str | None) -> tuple[dict[str, Any], int, dict[str, str]]:
    return (responses.summary(executor().store.games.get(rematch_id), viewer=viewer), status,
            {"Location": url_for(".get_game", game_id=rematch_id)})


@bp.get("/games/<game:game_id>")
def get_game(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The game as the caller's seat (or a spectator, maybe some moves behind) may see it."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.seat_for(store, record)
    visible = visible_version(record, seat)
    loaded = executor().load(game_id, None if visible == record.version else visible)
    return responses.game_view(loaded, seat, _deadlines(loaded)), 200, etag(loaded.version)


@bp.get("/games/<game:game_id>/states/<int:version>")
def get_state(game_id: str, version: int) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The game as it was at a past version, as the caller may see it."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.seat_for(store, record)
    current = visible_version(record, seat)
    if version > current:
        raise ApiError(404, "version_not_found", f"The game is at version {current}.", current=current)
    asked = parse(StateQuerySchema, request.args.to_dict()).get("seat", seat)
    if asked is not None and asked >= record.seats:
        raise ApiError(422, "validation_error", "The query is not valid.",
                       errors={"seat": [f"The game's seats are 0 to {record.seats - 1}."]})
    if asked != seat and record.status is not Lifecycle.FINISHED:
        raise ApiError(409, "game_not_finished", "Another seat's view is shown once the game is over.")
    loaded = executor().load(game_id, version)
    return responses.game_view(loaded, asked, _deadlines(loaded)), 200, etag(version)


def _deadlines(loaded: Loaded) -> dict[int, Due]:
    """When each seat to move must act by, for those with a deadline: at the game's current
    version only (a past version's deadlines have passed, or moved with a vacation since)."""
    if loaded.version == 0 or loaded.version != loaded.record.version:
        return {}
    found = {seat: due(executor().store, loaded, seat) for seat in loaded.game.status(loaded.state).to_move}
    return {seat: deadline for seat, deadline in found.items() if deadline is not None}


@bp.get("/games/<game:game_id>/legal-commands")
def legal_commands(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Every command the caller's seat may send now, each ready to POST as it is: a list, or with
    `form=grouped` a tree of choices whose leaves are that list, or with `form=compact` runs that
    expand to it (listed once per version: service.legal)."""
    loaded = executor().load(known_game(game_id))
    seat = auth.require_seat(executor().store, loaded.record)
    form = parse(LegalCommandsQuerySchema, {"form": request.args["form"]} if "form" in request.args else {})["form"]
    return legal().answer(loaded, seat, form), 200, etag(loaded.version)


@bp.post("/games/<game:game_id>/commands")
def submit_command(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """One command for the caller's seat; `If-Match` makes it conditional, `Idempotency-Key` retryable."""
    loaded = executor().held(known_game(game_id)) or executor().load(game_id)
    seat = auth.require_seat(executor().store, loaded.record)
    if loaded.held and seat not in loaded.game.status(loaded.state).to_move:
        loaded = executor().load(game_id)  # another process likely served the last move: read the game
    body = json_body()
    key = request.headers.get("Idempotency-Key")
    fingerprint = "" if key is None else json.dumps({"seat": seat, "body": body}, sort_keys=True)
    conditional, expected = if_match(), _expected_version(body)
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise ApiError(422, "validation_error", "Idempotency-Key must be 1 to 128 printable ASCII characters.")
    g.game = loaded.game.name  # for the commands metric
    command = _command(loaded, seat, body)
    with _stale_if_match(conditional):
        done = executor().execute(
            game_id, command, actor=f"seat:{seat}",
            expected_version=conditional if conditional is not None else expected,
            idempotency_key=key, fingerprint=fingerprint, loaded=loaded,
        )
    body = {"version": done.version, "events": [responses.event(e, loaded.game, seat, done.finished) for e in done.events]}
    headers = etag(done.version) | ({"Idempotent-Replayed": "true"} if done.replayed else {})
    return body, 201, headers


@bp.post("/games/<game:game_id>/command-checks")
def check_command(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Whether the rules would accept this command from the caller's seat now, as a submission
    would be answered, without appending or revealing anything: a client composing a TAKI batch
    asks it card by card."""
    loaded = executor().load(known_game(game_id))
    seat = auth.require_seat(executor().store, loaded.record)
    body = json_body()
    conditional, expected = if_match(), _expected_version(body)
    command = _command(loaded, seat, body)
    with _stale_if_match(conditional):
        executor().check(loaded, command, expected_version=conditional if conditional is not None else expected)
    return {"version": loaded.version, "accepted": True}, 200, etag(loaded.version)


def _expected_version(body: dict[str, Any]) -> int | None:
    """The body's `expected_version`, taken out of it, or None."""
    if "expected_version" not in body:
        return None
    expected: int = parse(ExpectedVersionSchema, {"expected_version": body.pop("expected_version")})["expected_version"]
    return expected


@contextmanager
def _stale_if_match(conditional: int | None) -> Iterator[None]:
    """A version conflict of a request made conditional by If-Match is answered 412, not 409."""
    try:
        yield
    except VersionConflict as conflict:
        if conditional is not None:
            raise StaleIfMatch(conflict) from None
        raise


def _command(loaded: Loaded, seat: int, body: dict[str, Any]) -> Any:
    """The command `body` asks of `seat`, in a game that is under way."""
    if loaded.record.status is Lifecycle.CANCELLED:
        raise ApiError(409, "game_cancelled", CANCELLED)
    if loaded.version == 0:
        raise ApiError(409, "game_not_started", "The game starts when every seat is taken.")
    return GAME_SCHEMAS[loaded.game.name].load_command(seat, body)


@bp.get("/games/<game:game_id>/export")
def export(game_id: str) -> Response:
    """The whole log as JSON Lines, for `meeple replay` and the import: once the game is over,
    or before to the server's admin token."""
    record = executor().store.games.get(known_game(game_id))
    loaded = executor().load(game_id)
    if not loaded.game.status(loaded.state).finished and not auth.is_admin():
        raise ApiError(409, "game_not_finished", "A game's log is exported once the game is over.")
    lines = export_lines(record, executor().store.streams.read(game_id))
    return Response("".join(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.jsonl"'} | etag(record.version))


@bp.get("/games/<game:game_id>/events")
def game_events(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The log as the caller may see it, oldest first, paginated by version; all of it once finished."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.seat_for(store, record)
    query = parse(EventsQuerySchema, request.args.to_dict())
    visible = visible_version(record, seat)
    finished = record.status is Lifecycle.FINISHED
    stored = store.streams.read(game_id, after=query["after"], limit=max(0, min(query["limit"], visible - query["after"])))
    last = stored[-1].version if stored else query["after"]
    game = GAMES[record.game]
    return {
        "version": visible,
        "events": [responses.event(e, game, seat, finished) for e in stored],
        "next": last if last < visible else None,
    }, 200, etag(visible)

