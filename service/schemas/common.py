"""Request schemas shared by every game."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar, cast

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from application.chat_lines import FORMATS
from domain import GAMES
from domain.core.game import Budget
from events import time_zones
from events.envelope import MAX_THINK_SECONDS, ClockSystem, DeadlinePolicy, Lifecycle
from events.records import CURSOR_PATTERN, Cursor
from players import egress, errors
from players.devices import FIRST_DEVICE

MAX_VERSION = 2**53  # beyond any real game; keeps stream ids and offsets in range
MAX_DELAY = 1000  # moves a spectator may be kept behind
MAX_LOBBY = 365 * 86400  # seconds a game may wait for its players


# What a name may not hold: control characters (C0, DEL, C1), line and paragraph separators,
# bidirectional controls and byte order marks. NAME_PATTERN reads the same in Python and in
# ECMA-262 (the contract's dialect), so the contract states the very rule the server applies.
_NOT_IN_NAMES = r"\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff"
NAME_PATTERN = rf"^[^{_NOT_IN_NAMES}]*[^\s{_NOT_IN_NAMES}][^{_NOT_IN_NAMES}]*$"  # and not only spaces


def _readable(text: str) -> None:
    """A name that can be stored and shown: valid Unicode, matching NAME_PATTERN."""
    if re.fullmatch(NAME_PATTERN, text) is None:
        raise ValidationError("Must be text with no control characters, and not only spaces.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError("Must be valid Unicode text.") from None


def _name(description: str) -> fields.String:
    """A name people read: 1 to 64 characters, none of them a control character, not only spaces."""
    return fields.String(required=True, validate=[validate.Length(min=1, max=64), _readable],
                         metadata={"description": description, "pattern": NAME_PATTERN})


class FullMatch(validate.Regexp):
    """A string the pattern matches whole: unlike Regexp's `match`, a `$` pattern refuses a trailing newline."""

    def __call__(self, value: Any) -> Any:
        if cast(re.Pattern[str], self.regex).fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


PLAYER_ID = FullMatch(r"^[A-Za-z0-9_-]{1,64}$", error="Must be a player's id.")

_SHARED: dict[type[Schema], Schema] = {}


def parse(schema: type[Schema], data: Any) -> dict[str, Any]:
    """`data` validated and loaded by `schema`; raises ValidationError."""
    if schema not in _SHARED:  # one instance each: building a schema costs far more than loading with it
        _SHARED[schema] = schema()
    return cast(dict[str, Any], _SHARED[schema].load(data))


class BareSchema(Schema):
    """Commands with no fields beyond their type."""


def command_kind(data: dict[str, Any], game: str, types: Iterable[str]) -> str:
    """The command's `type` (one of `types`) taken out of `data`: `<game>.<type>`, or a bare `<type>` as before."""
    kind = data.pop("type", None)
    if isinstance(kind, str) and kind.startswith(f"{game}."):
        kind = kind.removeprefix(f"{game}.")
    if not isinstance(kind, str) or kind not in types:
        raise ValidationError({"type": [f"Must be one of: {', '.join(f'{game}.{name}' for name in types)}."]})
    return kind


B = TypeVar("B")  # a game's commands with no fields
P = TypeVar("P")  # a game's play


def bare_or_play(seat: int, data: dict[str, Any], game: str, bare: Mapping[str, type[B]], play: type[Schema],
                 read_play: Callable[[int, dict[str, Any]], P]) -> B | P:
    """The command for `seat` of a type with no fields (one of `bare`), or else the play `read_play` makes of its fields."""
    kind = command_kind(data, game, ["play", *bare])
    if kind != "play":
        parse(BareSchema, data)
        return bare[kind](seat)  # type: ignore[call-arg]  # every bare command takes its seat alone
    return read_play(seat, parse(play, data))


def qualified(game: str, body: dict[str, Any]) -> dict[str, Any]:
    """A command's body with its `type` named as `<game>.<type>`, unique across the games."""
    return {"type": f"{game}.{body['type']}", **{name: value for name, value in body.items() if name != "type"}}


class Seconds(fields.Float):
    """A number of seconds, given as a JSON number, not a string."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def _whole(value: Any) -> Any:
    """A JSON number with no fraction (2.0) as the integer it is, as JSON Schema's `integer` counts it."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


class Whole(fields.Integer):
    """An integer, given as a JSON number with no fraction: 2, or 2.0, never "2" or true."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        return super()._deserialize(_whole(value), attr, data, **kwargs)


class Flag(fields.Boolean):
    """true or false, given as a JSON boolean, not a string or a number."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class BudgetSchema(Schema):
    """How long an AI that searches thinks per move: at most `iterations`, at most `seconds`,
    whichever runs out first. Give either or both; thinking never lasts longer than 30 seconds
    (MAX_THINK_SECONDS)."""

    iterations = Whole(load_default=None, allow_none=True, validate=validate.Range(min=1, max=100_000))
    seconds = Seconds(load_default=None, allow_none=True, allow_nan=False, validate=validate.Range(min=0.01, max=MAX_THINK_SECONDS))
    CONTRACT: ClassVar[dict[str, Any]] = {"anyOf": [  # _a_limit, as the contract states it
        {"required": ["iterations"], "properties": {"iterations": {"type": "integer"}}},
        {"required": ["seconds"], "properties": {"seconds": {"type": "number"}}}]}

    @validates_schema
    def _a_limit(self, data: dict[str, Any], **_: Any) -> None:
        if data["iterations"] is None and data["seconds"] is None:
            raise ValidationError("Give `iterations`, `seconds` or both.")

    @post_load
    def _budget(self, data: dict[str, Any], **_: Any) -> Budget:
        return Budget(data["iterations"], MAX_THINK_SECONDS if data["seconds"] is None else data["seconds"])


def check_budget(game_name: str, level: str | None, budget: Budget | None) -> str | None:
    """What is wrong with giving `budget` to the AI at `level`, if anything."""
    searching = GAMES[game_name].budgets()
    if budget is not None and level not in searching:
        which = "no AI level is given" if level is None else f"{level} does not search"
        return f"A budget is for an AI level that searches ({', '.join(searching)}); {which}."
    return None


SEARCH_BUDGET = ("How long the AI thinks per move, if its level searches; absent or null, as its level does. A rated "
                 "game's AI thinks as its level does: a budget in a rated game is refused (422 budget_unrated).")


class BotSeatSchema(Schema):
    """A seat played by the server's AI."""

    seat = Whole(required=True, validate=validate.Range(min=0, max=1000))
    level = fields.String(required=True, validate=validate.Length(min=1, max=32),
                          metadata={"description": "The AI's level (see /v1/games/types).", "examples": ["greedy"]})
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True, metadata={"description": SEARCH_BUDGET})


class TurnDeadlineSchema(Schema):
    """The game's time control: how long a seat has to act, counted as `clock` says, and what
    happens when the time is up: `skip` sends the game's own timeout command (TAKI: draw, or end a
    run or a King's turn, or pass a +3), `auto` lets the AI at `level` play the move, `forfeit`
    makes the seat leave the game. `per_move` gives `seconds` for each move from the game's latest
    event; `simple` gives `seconds` for each turn (the time a seat is to move), unused time not
    kept; `fischer` starts each seat with `seconds`, adds `increment` after each turn its own move
    ends, never above `maximum` (required with an increment). A player's vacation stops their
    Fischer and simple clocks (and moves a per-move deadline by up to `vacation_days`); with
    `weekends`, clocks stand still on Saturdays and Sundays in each seat's time zone. In a TAKI +3 window the earlier of the window's own
    deadline (which passes) and the seat's clock applies. A move that arrives first always wins;
    a deadline is applied once."""

    seconds = Whole(required=True, validate=validate.Range(min=1, max=365 * 86400), metadata={
        "description": "per_move and simple: the time for each move; fischer: the time each seat starts with."})
    policy = fields.Enum(DeadlinePolicy, by_value=fields.String, required=True)
    level = fields.String(load_default=None, validate=validate.Length(min=1, max=32),
                          metadata={"description": "With `auto`, the AI level that moves for the seat.", "examples": ["greedy"]})
    vacation_days = Whole(load_default=0, validate=validate.Range(min=0, max=365), metadata={
        "description": "per_move only: how many days a player on vacation may add to each deadline."})
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True, metadata={
        "description": "With `auto` and a level that searches, how long the AI thinks; absent or null, as its level does."})
    clock = fields.Enum(ClockSystem, by_value=fields.String, load_default=ClockSystem.PER_MOVE,
                        metadata={"description": "How the time is counted: per_move, simple or fischer."})
    increment = Whole(load_default=0, validate=validate.Range(min=0, max=365 * 86400),
                      metadata={"description": "fischer: seconds added to a seat's clock after each of its turns."})
    maximum = Whole(load_default=None, allow_none=True, validate=validate.Range(min=1, max=365 * 86400), metadata={
        "description": "fischer: the most seconds a clock may hold, up to a year; required with an increment."})
    weekends = Flag(load_default=False, metadata={"description": (
        "true: clocks stand still from Saturday 00:00 to Monday 00:00 in each seat's time zone (its player's, "
        "PUT /v1/players/me/time-zone, fixed when the game starts; UTC for a seat without one).")})

    @validates_schema
    def _fits_its_clock(self, data: dict[str, Any], **_: Any) -> None:
        if data["clock"] is not ClockSystem.FISCHER and (data["increment"] or data["maximum"] is not None):
            raise ValidationError("`increment` and `maximum` belong to a fischer clock.")
        if data["increment"] and data["maximum"] is None:
            raise ValidationError("A fischer clock with an `increment` needs a `maximum`.", "maximum")
        if data["clock"] is not ClockSystem.PER_MOVE and data["vacation_days"]:
            raise ValidationError("`vacation_days` bounds a per-move deadline; simple and fischer clocks stop for "
                                  "every vacation day.")


class VacationSchema(Schema):
    until = Whole(required=True, validate=validate.Range(min=0, max=MAX_VERSION),
                           metadata={"description": "Milliseconds since the epoch, within a year."})


def _known_zone(name: str) -> None:
    if not time_zones.known(name):
        raise ValidationError("Not an IANA time zone name, such as Europe/Paris.")


class TimeZoneSchema(Schema):
    time_zone = fields.String(required=True, validate=[validate.Length(min=1, max=64), _known_zone], metadata={
        "description": "An IANA time zone name.", "examples": ["Europe/Paris"]})


class ReservedSeatSchema(Schema):
    """A seat only one registered player may take, named by exactly one of `player` (an id),
    `name` (a contact's) or `link` (whoever the creator sends the seat's link)."""

    seat = Whole(required=True, validate=validate.Range(min=0, max=1000))
    player = fields.String(load_default=None, validate=PLAYER_ID, metadata={"description": "The player's id (GET /v1/players/me)."})
    name = fields.String(load_default=None, validate=[validate.Length(min=1, max=64), _readable], metadata={
        "description": ("The player's name, looked up among the creator's contacts (GET /v1/players/me/contacts: the "
                        "players they have sat beside in a game that started), whatever its case and the spaces around it. A name that is no "
                        "contact's, or two contacts', is a validation_error naming `reserved`."), "pattern": NAME_PATTERN})
    link = Flag(load_default=False, metadata={"description": (
        "true: the seat is for whoever the creator sends its link, /games/{game_id}#invite={code}; the code is in the "
        "seat's `invite_code`, shown to the creator only. A registered player sends it as `invite` to join the seat; "
        "the link seats one person.")})

    @validates_schema
    def _one_invitee(self, data: dict[str, Any], **_: Any) -> None:
        if [data["player"] is not None, data["name"] is not None, data["link"]].count(True) != 1:
            raise ValidationError("Name the seat's player by `player` (an id) or `name`, or set `link`: one of the three.")


class GameSettingsSchema(Schema):
    """What a new game may set beside its rules: AI seats, seats reserved for registered players,
    whether it is listed, a turn deadline, a spectator delay, and how long it waits for its seats
    to be taken (the server's default if not given)."""

    bots = fields.List(fields.Nested(BotSeatSchema), load_default=list, metadata={
        "description": "Seats played by the server's AI, with their level (see /v1/games/types)."})
    reserved = fields.List(fields.Nested(ReservedSeatSchema), load_default=list, metadata={"description": (
        "Seats reserved ahead, each for a registered player, named by id or by name among the creator's contacts (only "
        "that player's token can take the seat, and the game is in their inbox as an invitation until they do), or for "
        "whoever the creator sends the seat's link. A seat is reserved once and a player gets one seat; a bot's seat "
        "cannot be reserved. An unknown player, or a name no one contact has, is a validation_error naming `reserved`.")})
    unlisted = Flag(load_default=False, metadata={"description": (
        "Never shown in GET /v1/games; anyone given its id (16 random characters) can read and join it. For a group "
        "that keeps its game to itself.")})
    lobby_seconds = Whole(load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_LOBBY),
                                   metadata={"description": (
                                       "How long the game waits for its seats to be taken; when the time is up with seats "
                                       "still free, it is cancelled and never starts. Absent or null: the server's default "
                                       "(MEEPLE_LOBBY_SECONDS, 14 days unless set).")})
    turn_deadline = fields.Nested(TurnDeadlineSchema, load_default=None, allow_none=True)
    chat = Flag(load_default=True, metadata={"description": (
        "false: the game has no chat (GET and POST /v1/games/{game_id}/chat/{room} answer 409 chat_off), for good.")})
    rated = Flag(load_default=None, allow_none=True, metadata={"description": (
        "Whether its result counts for its players' ratings (docs/ratings.md). Absent: true when every seat is an AI's "
        "or kept for a registered player and no AI is given a budget; never with an AI level at two seats (one identity, "
        "two seats), nor a fork (true is refused for each), nor with an AI given a budget (true is refused, 422 "
        "budget_unrated: a rated AI plays as its level). A seat of a rated game is taken by a registered player or an AI.")})
    spectator_delay = Whole(load_default=0, validate=validate.Range(min=0, max=MAX_DELAY), metadata={
        "description": ("How many moves behind the live game spectators (callers without a seat) see it - its view, "
                        "events, past states, stream and the version the listing gives - until it is over. The opening "
                        "is always shown.")})


def check_settings(game_name: str, seats: int, data: dict[str, Any]) -> None:
    """The AI seats, the reserved seats and the deadline fit this game and its seat count."""
    game = GAMES[game_name]
    taken = [bot["seat"] for bot in data["bots"]]
    if len(set(taken)) != len(taken) or any(seat >= seats for seat in taken):
        raise ValidationError({"bots": ["Each bot needs its own seat of this game."]})
    reserved = [reservation["seat"] for reservation in data["reserved"]]
    if len(set(reserved)) != len(reserved) or any(seat >= seats or seat in taken for seat in reserved):
        raise ValidationError({"reserved": ["Each reservation needs its own seat of this game, not a bot's."]})
    invited = [reservation["player"] or reservation["name"] for reservation in data["reserved"] if not reservation["link"]]
    if len(set(invited)) != len(invited):
        raise ValidationError({"reserved": ["A player holds one seat of a game: reserve one for each."]})
    if unknown := {bot["level"] for bot in data["bots"]} - set(game.bots):
        raise ValidationError({"bots": [f"No AI level {', '.join(sorted(unknown))}; {game.title} has {', '.join(game.bots)}."]})
    for bot in data["bots"]:
        if problem := check_budget(game_name, bot["level"], bot["budget"]):
            raise ValidationError({"bots": [problem]})
    deadline = data["turn_deadline"]
    if deadline and (deadline["policy"] is DeadlinePolicy.AUTO) != (deadline["level"] in game.bots):
        raise ValidationError({"turn_deadline": [f"`auto` needs an AI level ({', '.join(game.bots)}); `skip` takes none."]})
    if deadline and (problem := check_budget(game_name, deadline["level"], deadline["budget"])):
        raise ValidationError({"turn_deadline": [problem]})


# TurnDeadlineSchema's own checks as JSON Schema: what belongs to a fischer clock, and to a per-move one
CLOCK_CONTRACT = [
    {"if": {"not": {"required": ["clock"], "properties": {"clock": {"const": ClockSystem.FISCHER.value}}}},
     "then": {"properties": {"increment": {"const": 0}, "maximum": {"type": "null"}}}},
    {"if": {"required": ["clock"], "properties": {"clock": {"not": {"const": ClockSystem.PER_MOVE.value}}}},
     "then": {"properties": {"vacation_days": {"const": 0}}}},
]


def settings_contract(game_name: str, bot: dict[str, Any]) -> list[dict[str, Any]]:
    """check_settings as a JSON Schema `allOf` for a game of `game_name`, whose AI seat is the schema `bot`.

    It leaves out that no reservation takes a bot's seat (a condition per seat, too many for the
    fuzzing's generator), that a player is reserved one seat, and that the player exists."""
    game = GAMES[game_name]
    searching, levels = list(game.budgets()), list(game.bots)
    budgeted = {"anyOf": [{"required": ["level"], "properties": {"level": {"enum": searching}}},
                          {"properties": {"budget": {"const": None}}}]}

    def below(seats: int) -> dict[str, Any]:
        return {"items": {"properties": {"seat": {"maximum": seats - 1}}}}

    def once(seat: int) -> dict[str, Any]:
        return {"contains": {"properties": {"seat": {"const": seat}}}, "minContains": 0, "maxContains": 1}

    return [
        {"properties": {"bots": {"items": {**bot, "properties": {"level": {"enum": levels}}, **budgeted}}}},
        {"anyOf": [{"properties": {"seats": {"const": seats}, "bots": below(seats), "reserved": below(seats)}}
                   for seats in range(game.min_seats, game.max_seats + 1)]},
        *({"properties": {"bots": once(seat), "reserved": once(seat)}} for seat in range(game.max_seats)),
        {"properties": {"turn_deadline": {"anyOf": [{"type": "null"}, {"allOf": [{
            "if": {"properties": {"policy": {"const": DeadlinePolicy.AUTO.value}}},
            "then": {"required": ["level"], "properties": {"level": {"enum": levels}}},
            "else": {"not": {"required": ["level"], "properties": {"level": {"enum": levels}}}}}, budgeted,
            *CLOCK_CONTRACT]}]}}},
    ]


class _OptionValue(fields.Raw):
    """An option's value as the game reads it (domain.core.options), a whole number as an int."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return _whole(value)


class CreateGameSchema(GameSettingsSchema):
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats = Whole(required=True)
    options = fields.Dict(keys=fields.String(), values=_OptionValue(), load_default=dict, metadata={
        "description": "Variants by name (see /v1/games/types); omitted ones take their defaults."})

    @validates_schema
    def _seats_and_settings(self, data: dict[str, Any], **_: Any) -> None:
        game = GAMES.get(data.get("game", ""))
        if game is None:
            return
        if not game.min_seats <= data["seats"] <= game.max_seats:
            raise ValidationError(f"{game.title} is for {game.min_seats} to {game.max_seats} seats.", "seats")
        check_settings(game.name, data["seats"], data)


class ForkSchema(GameSettingsSchema):
    version = Whole(required=True, validate=validate.Range(min=1, max=MAX_VERSION),
                             metadata={"description": "The version to go on from; it must end a move."})


class JoinSchema(Schema):
    name = _name("The name the seat is shown with.")
    seat = Whole(load_default=None, allow_none=True, validate=validate.Range(min=0, max=1000),
                          metadata={"description": "A particular seat; the lowest free seat when absent."})
    bot = fields.String(load_default=None, validate=validate.Length(min=1, max=32), metadata={
        "description": "Give the seat to the server's AI at this level instead of taking it yourself.", "examples": ["greedy"]})
    budget = fields.Nested(BudgetSchema, load_default=None, allow_none=True, metadata={"description": SEARCH_BUDGET})
    invite = fields.String(load_default=None, validate=FullMatch(r"^[A-Za-z0-9_-]{16,128}$"), metadata={
        "description": ("The code of a seat's invitation link (/games/{game_id}#invite={code}): take that seat, with a "
                        "player token. A wrong code, or one used already, is refused 403 `seat_reserved`, reason "
                        "`invite_unknown`.")})

    @validates_schema
    def _invite_alone(self, data: dict[str, Any], **_: Any) -> None:
        if data["invite"] is not None and data["bot"] is not None:
            raise ValidationError("An invitation link seats a person, not an AI.", "invite")


class RegisterSchema(Schema):
    name = _name("The player's name.")
    device = fields.String(load_default=FIRST_DEVICE, validate=[validate.Length(min=1, max=64), _readable],
                           metadata={"description": "A name for the token this gives, the first of the player's: "
                                     "the device or program that keeps it.", "pattern": NAME_PATTERN})


class TokenNameSchema(Schema):
    name = _name("What holds the token: a device or a program (a phone, a laptop, a bot).")


class SignInLinkSchema(Schema):
    address = fields.Email(required=True, validate=validate.Length(max=254),
                           metadata={"description": "The player's confirmed mail address."})


class SignInSchema(Schema):
    link = fields.String(required=True, validate=FullMatch(r"^[A-Za-z0-9_-]{16,128}$", error="Must be a sign-in link's secret."),
                         metadata={"description": "The secret of the mailed link: what follows `#link=`."})
    device = _name("A name for this device, as the player's list of tokens will show it.")


def _webhook_url(url: str) -> None:
    """A URL a webhook may be sent to, judged as each delivery judges it (players.egress)."""
    try:
        found = egress.destination(url)
    except errors.UrlInvalid as error:
        raise ValidationError(f"Not a valid webhook URL: {error}.") from None
    if egress.refused(found):
        raise ValidationError("A webhook must reach a public address, not a private, loopback or link-local one; "
                              f"this URL names {found.address}.")


class WebhookSchema(Schema):
    url = fields.String(required=True, validate=[validate.Length(min=1, max=2048), _webhook_url],
                        metadata={"description": "Where the notifications are POSTed: a public http(s) URL.", "format": "uri"})
    form = fields.String(data_key="format", load_default="meeple", validate=validate.OneOf(FORMATS), metadata={
        "description": "What is POSTed: `meeple`, the notification as signed JSON; `discord` or `slack`, a line of "
                       "text with the game's link, as a channel's incoming webhook takes it."})


class DeliveriesQuerySchema(Schema):
    limit = fields.Integer(validate=validate.Range(min=1, max=500), load_default=50)


class CursorField(fields.Field[Cursor]):
    """Where a page of a listing ended (events.records.Cursor), as the page's `next` wrote it."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Cursor:
        try:
            return Cursor.parse(value if isinstance(value, str) else "")
        except ValueError:
            raise ValidationError("Not a cursor: pass a page's `next` back as it is.") from None


def page_cursor() -> CursorField:
    """A query's cursor: where the page before ended."""
    return CursorField(metadata={"description": "`next` of the previous page, as it was (opaque); none for the first page.",
                                 "type": "string", "pattern": CURSOR_PATTERN})


class ListGamesSchema(Schema):
    game = fields.String(validate=validate.OneOf(sorted(GAMES)), metadata={"description": "Only games of this game."})
    status = fields.Enum(Lifecycle, by_value=fields.String, metadata={"description": "Only games with this status."})
    cursor = page_cursor()
    limit = fields.Integer(validate=validate.Range(min=1, max=100), load_default=20)


class EventsQuerySchema(Schema):
    after = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION), load_default=0,
                           metadata={"description": "Only events with a greater version."})
    limit = fields.Integer(validate=validate.Range(min=1, max=1000), load_default=100)


class StateQuerySchema(Schema):
    seat = fields.Integer(validate=validate.Range(min=0, max=9), metadata={"description": (
        "See the version as this seat saw it: any seat once the game is over (its whole log is public "
        "then), only the caller's own seat before. Without it, as the caller may see it.")})


class LegalCommandsQuerySchema(Schema):
    form = fields.String(validate=validate.OneOf(["list", "grouped", "compact"]), load_default="list", metadata={
        "description": "How the commands are written: a list, a tree of choices (`grouped`) or runs (`compact`)."})


class ExpectedVersionSchema(Schema):
    expected_version = Whole(validate=validate.Range(min=0, max=MAX_VERSION), metadata={
        "description": "Apply the command only at this version (else 409 version_conflict)."})


class GameTicketSchema(Schema):
    """A ticket for a game's stream, as the token's seat."""

    stream = fields.String(required=True, validate=validate.Equal("game"))
    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"description": "The game."})


class InboxTicketSchema(Schema):
    """A ticket for the player's inbox stream."""

    stream = fields.String(required=True, validate=validate.Equal("inbox"))
    game_id = fields.Raw(load_default=None, allow_none=True,
                         validate=validate.Equal(None, error="The inbox is no game's: give no game_id."),
                         metadata={"description": "None: the inbox is no game's."})


TICKETS: dict[str, type[Schema]] = {"game": GameTicketSchema, "inbox": InboxTicketSchema}  # by `stream`


class StreamTicketSchema(Schema):
    """Which stream a ticket opens, told apart by `stream`: a game's, or the player's inbox."""

    stream = fields.String(required=True, validate=validate.OneOf(list(TICKETS)))
    game_id = fields.Raw(load_default=None)  # read by the stream's own schema

    @validates_schema(pass_original=True)
    def _as_its_stream(self, data: dict[str, Any], original: dict[str, Any], **_: Any) -> None:
        parse(TICKETS[data["stream"]], original)
