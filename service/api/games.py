"""API v1: create and list games, join them, read their views and logs, send commands, offer
rematches."""

from __future__ import annotations

import dataclasses
import json
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from flask import Blueprint, Response, current_app, g, request, url_for
from marshmallow import ValidationError

from application import chat, copies, playing, seat_tokens
from application.deadlines import deadlines, game_clocks, log_clock
from application.lobby import Bot, GameSettings, Opened
from domain import GAMES
from domain.bahama_taxi import board
from domain.core.game import Budget
from events.envelope import Lifecycle, TurnDeadline
from events.errors import VersionConflict
from events.execute import Loaded
from events.log_file import export_lines
from players.moderation import Mutes
from service import auth, imports
from service.api.caller import RequestCaller
from service.api.chat import chat_message, chat_store, reader
from service.api.context import executor, json_body, known_game, legal, lobby, players, seen_by, visible_version
from service.errors import ApiError, StaleIfMatch
from service.schemas import GAME_SCHEMAS, responses
from service.schemas.chat import ExportQuerySchema
from service.schemas.common import (
    CreateGameSchema,
    EventsQuerySchema,
    ExpectedVersionSchema,
    ForkSchema,
    JoinSchema,
    LegalCommandsQuerySchema,
    ListGamesSchema,
    StateQuerySchema,
    TurnDeadlineSchema,
    check_budget,
    check_settings,
    parse,
)

bp = Blueprint("v1", __name__, url_prefix="/v1")

IF_MATCH = re.compile(r'^(?:W/)?"?(\d{1,12})(?:-[0-9a-f]{8})?"?$')  # a game read's tag may add its clocks' (_view)
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
    return _opened(lobby().open(game.name, body["options"], body["seats"], _settings(body), RequestCaller()))


def _settings(body: dict[str, Any]) -> GameSettings:
    """A new game's settings (turn deadline, spectator delay, lobby time, AI seats, seats reserved
    for registered players by id or name or for whoever has their link, unlisted) as the body
    creating or forking it states them."""
    deadline, reserved = body["turn_deadline"], body["reserved"]
    return GameSettings(deadline=TurnDeadline(**deadline) if deadline else None, spectator_delay=body["spectator_delay"],
                    lobby_seconds=body["lobby_seconds"], unlisted=body["unlisted"],
                    bots=tuple(Bot(bot["seat"], bot["level"], bot["budget"]) for bot in body["bots"]),
                    reserved={each["seat"]: each["player"] for each in reserved if each["player"] is not None},
                    named={each["seat"]: each["name"] for each in reserved if each["name"] is not None},
                    linked=tuple(each["seat"] for each in reserved if each["link"]), chat=body["chat"],
                    rated=body["rated"])


def _opened(opened: Opened) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer to a game opened (201), or to the rematch offered before (200): the game as its
    creator sees it, and where it is."""
    return (responses.summary(executor().store.games.get(opened.game_id), viewer=opened.creator),
            201 if opened.new else 200, {"Location": url_for(".get_game", game_id=opened.game_id)})


@bp.post("/games/<game:game_id>/fork")
def fork(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new game that opens with this game's events up to a version and goes on from there,
    with new seats: once the game is over (or before, to the admin token)."""
    body = parse(ForkSchema, json_body())
    origin = executor().store.games.get(known_game(game_id))
    check_settings(origin.game, origin.seats, body)
    return _opened(copies.fork(lobby(), origin, body["version"], _settings(body), RequestCaller()))


@bp.post("/games/import")
def import_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new, finished, read-only game from an exported log (JSON Lines), checked as strictly as a
    live game before anything is stored (application.copies)."""
    request.max_content_length = current_app.config["MEEPLE_MAX_IMPORT_BYTES"]
    if request.mimetype != "application/x-ndjson":
        raise ApiError(415, "unsupported_media_type", "Send the log as application/x-ndjson, as the export gives it.")
    caller = RequestCaller()
    creator = caller.creator(reserving=False)
    caller.count_game()  # before the log is read and checked: an address past its bound costs no check
    body, limit = imports.read_body(request.stream), current_app.config["MEEPLE_MAX_IMPORT_EVENTS"]
    log = imports.off_the_loop(lambda: copies.checked_log(body, limit))
    if log.clock is not None:
        _bounded(log.clock.control)
    game_id = copies.import_log(executor().store, log, creator)
    return responses.summary(executor().store.games.get(game_id)), 201, {"Location": url_for(".get_game", game_id=game_id)}


def _bounded(control: TurnDeadline) -> None:
    """Refuse a log whose time control the API would not accept for a new game (TurnDeadlineSchema)."""
    try:
        parse(TurnDeadlineSchema, json.loads(json.dumps(dataclasses.asdict(control))))
    except ValidationError as error:
        raise ApiError(422, "invalid_log", f"The header's `clock` has a time control this server refuses: {error.messages}") from None


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
    is also that player's, its token lasts no longer than that player token, and `invite` takes
    the seat of an invitation link) or for an AI; the game starts when the last seat is taken."""
    body = parse(JoinSchema, json_body())
    record = executor().store.games.get(known_game(game_id))
    holder = auth.player(players(), required=body["invite"] is not None)
    _check_bot(record.game, body["bot"], body["budget"])
    joined = lobby().join(game_id, body["seat"], body["name"], player_id=None if holder is None else holder.id,
                          device=auth.device(holder), bot=body["bot"], budget=body["budget"], code=body["invite"])
    return {"game_id": game_id, "seat": joined.seat, "token": joined.token}, 201


def _check_bot(game: str, bot: str | None, budget: Budget | None) -> None:
    """422 for an AI level the game has not, or a budget for a level that takes none."""
    if bot is not None and bot not in GAMES[game].bots:
        raise ApiError(422, "validation_error", "No such AI level.", errors={"bot": [f"One of: {', '.join(GAMES[game].bots)}."]})
    if problem := check_budget(game, bot, budget):
        raise ApiError(422, "validation_error", "This AI level takes no budget.", errors={"budget": [problem]})


@bp.get("/games/<game:game_id>/invite-links")
def invite_links(game_id: str) -> dict[str, Any]:
    """The code of each seat reserved for whoever has its link and not taken yet, to the game's
    creator (their player token) only, whether they hold a seat or not."""
    record = executor().store.games.get(known_game(game_id))
    caller = auth.player(players())
    if caller is None or caller.id != record.creator:
        raise ApiError(403, "not_the_creator", "Only the game's creator reads its invitation links.")
    return {"links": [{"seat": seat, "code": code} for seat, code in sorted(record.links.items())]}


@bp.post("/games/<game:game_id>/leave")
def leave(game_id: str) -> dict[str, Any]:
    """Give up the caller's seat before the game starts; the seat's token then acts for nothing. A
    player leaving the seat reserved for them declines the invitation (it is free for anyone)."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    player_id = lobby().leave(record, auth.require_seat(store, record))
    return responses.summary(store.games.get(game_id), viewer=player_id)


@bp.post("/games/<game:game_id>/seats/<int:seat>/token")
def replace_seat_token(game_id: str, seat: int) -> tuple[dict[str, Any], int]:
    """A new token for the seat, asked with its token now, which acts no more from then on."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    token = auth.bearer_token()
    if token is None:
        raise auth.unauthorized("token_missing", "This needs the seat's token: send 'Authorization: Bearer <token>'.")
    fresh = seat_tokens.replace_seat_token(store, Mutes(store.redis), record.id, seat, token)
    if fresh is None:
        raise auth.unauthorized("token_unknown", f"This token is not seat {seat}'s own token in this game.")
    return {"seat": seat, "token": fresh}, 201


@bp.post("/games/<game:game_id>/rematch")
def rematch(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Offer a finished game again, to one of its seats: a new unlisted game of the same game,
    options and settings, seats rotated by one, each registered player's seat reserved for them
    and each AI's kept. One rematch per game: asked again, the same one answers."""
    store = executor().store
    origin = store.games.get(known_game(game_id))
    return _opened(copies.rematch(lobby(), origin, auth.require_seat(store, origin), RequestCaller()))


@bp.get("/games/<game:game_id>")
def get_game(game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The game as the caller's seat (or a spectator, maybe some moves behind) may see it."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.seat_for(store, record)
    visible = visible_version(record, seat)
    loaded = executor().load(game_id, None if visible == record.version else visible)
    return _view(loaded, seat, seat)


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
    return _view(executor().load(game_id, version), asked, seat)


def _view(loaded: Loaded, seat: int | None, caller: int | None) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The game at the loaded version as `seat` may see it (when a vacation ends, as the `caller`'s
    seat may), tagged with its version and, where the
    game has clocks, what they show beside their time left: a deadline moved by a vacation (begun,
    ended or spent) changes the tag, so a client polling with If-None-Match sees it."""
    clocks = game_clocks(executor().store, loaded)
    view = responses.game_view(loaded, seat, deadlines(executor().store, loaded, clocks), clocks, caller)
    if view["clocks"] is None:
        return view, 200, etag(loaded.version)
    return view, 200, {"ETag": f'"{loaded.version}-{zlib.crc32(responses.clock_marks(view).encode()):08x}"'}


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
    loaded, seat = playing.game_to_play(executor(), known_game(game_id), partial(auth.require_seat, executor().store))
    body = json_body()
    key = request.headers.get("Idempotency-Key")
    fingerprint = "" if key is None else json.dumps({"seat": seat, "body": body}, sort_keys=True)
    conditional, expected = if_match(), _expected_version(body)
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise ApiError(422, "validation_error", "Idempotency-Key must be 1 to 128 printable ASCII characters.")
    g.game = loaded.game.name  # for the commands metric
    command = _command(loaded, seat, body)
    with _stale_if_match(conditional):
        done = playing.play(executor(), loaded, seat, command,
                            expected_version=conditional if conditional is not None else expected,
                            idempotency_key=key, fingerprint=fingerprint)
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
    playing.check_under_way(loaded)
    return GAME_SCHEMAS[loaded.game.name].load_command(seat, body)


@bp.get("/games/<game:game_id>/export")
def export(game_id: str) -> Response:
    """The whole log as JSON Lines, for `meeple replay` and the import: once the game is over,
    or before to the server's admin token; with `chat=table`, the table's chat in its header."""
    record = executor().store.games.get(known_game(game_id))
    talk = parse(ExportQuerySchema, request.args.to_dict())["chat"]
    loaded = executor().load(game_id)
    if not loaded.game.status(loaded.state).finished and not auth.is_admin():
        raise ApiError(409, "game_not_finished", "A game's log is exported once the game is over.")
    envelopes = executor().store.streams.read(game_id)
    said = None if talk is None else [chat_message(m) for m in chat.transcript(chat_store(), record, reader(record))]
    lines = export_lines(record, envelopes, log_clock(executor().store, record, envelopes), said)
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

