"""A game's whole log as a file (JSON Lines): a header line — the game, its options and seats,
the format version, and for a game with a time control what its clocks need beside the events
(`clock`: the control, each seat's time zone, the vacations that stopped each seat's clock) —
then one event a line, oldest first, with the command that caused it, its actor and its time.
In format 2 the first line of each command's events also says what was asked (`command`: the
command, or the game's own "setup" or "redeal"), so that the log can be decided again; a game
stored before its commands were exports as format 1, which is still read, and checked the old way.
Written by the export, read back by `meeple replay` and the import, which check it holds
together before trusting it; a log written before headers had `clock` reads as one without."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import GAMES
from domain.core.game import Game
from domain.core.redecision import Cause, Own, redecide
from events import time_zones
from events.envelope import OPENING_ACTORS, Envelope, GameRecord, TurnDeadline
from events.errors import LogInvalid, LogTooLong

FORMAT = "meeple-log"
FORMAT_VERSION = 2  # 2: each run of events names the command that caused it (CAUSE), and is decided again
READABLE = (1, 2)  # 1: events only, checked the old way (each against the state before it); a line's
# `command_id` came later in it, and a log without it is read as before
OWN = frozenset(own.value for own in Own)
COMMAND_KEYS = frozenset({"type", "schema_version", "payload"})  # of a command named as a CAUSE
CAUSE = "command"  # the key, on the first line of each run of one `command_id`, of what caused the run
SEAT_ACTOR = re.compile(r"(seat|bot|deadline):(0|[1-9][0-9]?)")  # the actors of a seat's move


@dataclass(frozen=True)
class LogClock:
    """What a log's clocks are worked out from beside its events: the game's time control, the time
    zone of each seat's weekends, and each seat's vacations, (start, end) ms spans."""

    control: TurnDeadline
    time_zones: Mapping[int, str] = field(default_factory=dict)
    vacations: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"control": dataclasses.asdict(self.control),
                "time_zones": {str(seat): zone for seat, zone in self.time_zones.items()},
                "vacations": {str(seat): [list(span) for span in spans] for seat, spans in self.vacations.items()}}

    @classmethod
    def from_json(cls, data: Any, seats: int) -> LogClock:
        """A header's `clock`; raises LogInvalid saying what is wrong."""
        try:
            control = _control(data["control"])
            zones = {_seat(seat, seats): zone for seat, zone in data.get("time_zones", {}).items()}
            vacations = {_seat(seat, seats): _merged([_span(span) for span in spans])
                         for seat, spans in data.get("vacations", {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise LogInvalid(f"The header's `clock` is not one this server writes: {error}") from None
        if not all(time_zones.known(zone) for zone in zones.values()):
            raise LogInvalid("The header's `clock` names a time zone that is not an IANA one.")
        return cls(control, zones, vacations)


def _control(data: Any) -> TurnDeadline:
    """A header's time control; ValueError unless its times are whole seconds, the first 1 or more."""
    control = TurnDeadline.from_json(data)
    times = (control.seconds, control.increment, control.vacation_days, 1 if control.maximum is None else control.maximum)
    if not all(type(value) is int and value >= 0 for value in times) or control.seconds < 1:
        raise ValueError("its times are whole seconds, the first 1 or more")
    return control


def _seat(text: Any, seats: int) -> int:
    seat = int(text)
    if not 0 <= seat < seats:
        raise ValueError(f"no seat {seat}")
    return seat


def _merged(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """`spans` in order, those that overlap or touch made one."""
    found: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if found and start <= found[-1][1]:
            found[-1] = (found[-1][0], max(found[-1][1], end))
        else:
            found.append((start, end))
    return tuple(found)


def _span(span: Any) -> tuple[int, int]:
    start, end = span
    if type(start) is not int or type(end) is not int or end <= start:
        raise ValueError("a vacation is [start, end], whole milliseconds, start first")
    return start, end


@dataclass(frozen=True)
class GameLog:
    game: Game  # type: ignore[type-arg]
    options: dict[str, Any]
    seats: int
    names: tuple[str, ...]
    events: tuple[Any, ...]  # decoded domain events, version 1 first
    envelopes: tuple[dict[str, Any], ...]  # the event lines as written
    state: Any = None  # the state the events fold to
    # each (version, problem) of an event the rules would not have written there (Game.check): a
    # broken seal, a card not from the committed order, a seat, card or citizen that is not there,
    # a result other than the rules give, an event after the end; in format 2, the first event that
    # deciding the commands again does not give as the log has it, and how
    problems: tuple[tuple[int, str], ...] = ()
    original_id: str | None = None  # the id the game had where it was exported, if the header says
    unlisted: bool = False  # the header says the game was unlisted where it was exported
    clock: LogClock | None = None  # what its clocks need beside the events, if the game had a time control
    format_version: int = FORMAT_VERSION
    causes: tuple[Cause, ...] = ()  # what caused each run of events (format 2; none in format 1)

    def first_problem(self) -> str | None:
        """The first event the rules would not have written, and why; None for a sound log."""
        if not self.problems:
            return None
        version, problem = self.problems[0]
        return f"Event {version} ({self.envelopes[version - 1]['type']}): {problem}"

    def checked(self) -> str:
        """How the log was checked: "redecided", each command decided again (format 2), or "events",
        each event against the state before it only (format 1: the old way)."""
        return "events" if self.format_version == 1 else "redecided"

    def times_in_order(self) -> bool:
        """Whether every line's `time` is whole milliseconds, none earlier than the line before."""
        times = [entry.get("time") for entry in self.envelopes]
        return all(type(at) is int and at >= 0 for at in times) and times == sorted(times)  # type: ignore[type-var]

    def moves(self) -> list[tuple[str, list[dict[str, Any]]]]:
        """The event lines by the command that caused them, each run with its actor: runs of one
        `command_id` where every line names one, else (a log written before lines did) runs of one
        actor. An actor that names no seat of the game, nor an opening, reads "import"."""
        named = all(isinstance(entry.get("command_id"), str) for entry in self.envelopes)
        runs: list[tuple[str, list[dict[str, Any]]]] = []
        cause: object = None
        for entry in self.envelopes:
            actor = _actor(entry.get("actor"), self.seats)
            if not runs or (entry["command_id"] if named else actor) != cause:
                runs.append((actor, []))
                cause = entry["command_id"] if named else actor
            runs[-1][1].append(entry)
        return runs


def export_lines(record: GameRecord, envelopes: Iterable[Envelope], clock: LogClock | None = None,
                 chat: list[dict[str, Any]] | None = None) -> Iterator[str]:
    """The log file of a game, with what its `clock`s need; an unlisted game's header says so and
    names no id, so no import names it. The header holds the table's `chat` when it is given (a reader
    passes it over: the game is its events)."""
    named = {"unlisted": True} if record.unlisted else {"id": record.id}
    envelopes = list(envelopes)
    caused = all(envelope.cause is not None for envelope in _firsts(envelopes))  # else stored before causes were
    header = {"format": FORMAT, "format_version": 2 if caused else 1, "game": record.game, **named,
              "options": record.options, "seats": record.seats, "names": list(record.names), "created": record.created,
              **({} if clock is None else {"clock": clock.to_json()}), **({} if chat is None else {"chat": chat})}
    yield json.dumps(header) + "\n"
    command_id = None
    for envelope in envelopes:
        cause = {CAUSE: envelope.cause} if caused and envelope.command_id != command_id else {}
        command_id = envelope.command_id
        yield json.dumps({"version": envelope.version, "type": envelope.type, "schema_version": envelope.schema_version,
                          "payload": envelope.payload, "command_id": envelope.command_id, "actor": envelope.actor,
                          "time": envelope.time, **cause}) + "\n"


def _firsts(envelopes: list[Envelope]) -> Iterator[Envelope]:
    """The first envelope of each run of one command."""
    return (envelope for index, envelope in enumerate(envelopes) if index == 0 or envelopes[index - 1].command_id != envelope.command_id)


def read_log(lines: Iterable[str], max_events: int | None = None, first_problem: bool = False) -> GameLog:
    """The game a log file holds, each event checked against the state before it (`problems`).

    Raises LogInvalid saying what is wrong (LogTooLong past `max_events`, before any line is parsed)
    and no other exception; with `first_problem` the fold stops at the first problem."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise LogInvalid("The file is empty.")
    if max_events is not None and len(rows) - 1 > max_events:
        raise LogTooLong(f"The log holds {len(rows) - 1} events; this server imports up to {max_events}.")
    try:
        header, *entries = [json.loads(row) for row in rows]
    except (ValueError, RecursionError):
        raise LogInvalid("A line is not JSON (or is nested too deep).") from None
    game, seats, options, parsed = _header(header)
    events = _events(game, entries)
    causes = _causes(game, seats, entries) if header["format_version"] == 2 else ()
    if header["format_version"] == 2:
        state, problems = _redecide(game, parsed, seats, events, entries, causes)
        if header.get("clock") is None and not problems:
            _deadlines_without_clock(game, parsed, seats, events, entries, causes)
    else:
        state, problems = _fold(game, parsed, seats, events, entries, first_problem)
    given = header.get("names")
    names = tuple(
        name if _printable(name) else f"seat {seat}"
        for seat, name in enumerate(given if isinstance(given, list) and len(given) == seats else [None] * seats)
    )
    original = header.get("id")
    clock = None if header.get("clock") is None else LogClock.from_json(header["clock"], seats)
    return GameLog(game, options, seats, names, tuple(events), tuple(entries), state, tuple(problems),
                   original if _printable(original) else None, header.get("unlisted") is True, clock,
                   header["format_version"], causes)


def _header(header: Any) -> tuple[Game, int, dict[str, Any], Any]:  # type: ignore[type-arg]
    """The game, its seats, its options and the options read by the game, from a log's header line."""
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("format_version") not in READABLE:
        raise LogInvalid(f"The first line must be a {FORMAT} header of format_version {FORMAT_VERSION} (or 1).")
    game = GAMES.get(header.get("game"))  # type: ignore[arg-type]
    if game is None:
        raise LogInvalid(f"Unknown game {header.get('game')!r}.")
    seats, options = header.get("seats"), header.get("options")
    if not isinstance(options, dict) or type(seats) is not int or not game.min_seats <= seats <= game.max_seats:
        raise LogInvalid(f"The header needs `options` and `seats`, {game.min_seats} to {game.max_seats}.")
    try:
        parsed = game.parse_options(options, seats)
    except Exception as error:  # noqa: BLE001 - any bad option makes the file unusable
        raise LogInvalid(f"Bad options: {error}") from None
    return game, seats, options, parsed


def _events(game: Game, entries: list[Any]) -> list[Any]:  # type: ignore[type-arg]
    """The events of a log's lines, decoded at their versions 1, 2, 3 …"""
    events = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or entry.get("version") != number:
            raise LogInvalid(f"Event {number}: versions must run 1, 2, 3 … with no gap.", event=number)
        try:
            events.append(game.events.decode(entry["type"], entry["schema_version"], entry["payload"]))
        except Exception as error:  # noqa: BLE001 - a missing field, a wrong type, an unknown event
            raise LogInvalid(f"Event {number} ({_kind(entry)}): {error}", event=number) from None
    return events


def _causes(game: Game, seats: int, entries: list[dict[str, Any]]) -> tuple[Cause, ...]:  # type: ignore[type-arg]
    """What caused each run of one `command_id` in a log of format 2: its first line's CAUSE, a command of
    the actor's seat, or the game's own under an opening's actor; LogInvalid if a line says otherwise."""
    causes, seen, command_id, copied = [], set(), None, True
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry.get("command_id"), str):
            raise LogInvalid(f"Event {number} ({_kind(entry)}): a line of format 2 names its `command_id`.", event=number)
        if entry["command_id"] == command_id:
            if CAUSE in entry:
                raise LogInvalid(f"Event {number} ({_kind(entry)}): only the first line of a command's events names it.", event=number)
            continue
        command_id = entry["command_id"]
        if command_id in seen:
            raise LogInvalid(f"Event {number} ({_kind(entry)}): the events of command {command_id!r} are not all together.", event=number)
        seen.add(command_id)
        copied = copied and entry.get("actor") == "fork"
        causes.append(Cause(number, _cause(game, seats, entry, number, copied)))
    return tuple(causes)


def _cause(game: Game, seats: int, entry: dict[str, Any], number: int, copied: bool) -> Any:  # type: ignore[type-arg]
    """The command or the game's own (Own) the first line of a run names, if its actor may have caused
    it: the command's seat (its player, AI or deadline), or a fork copying the moves it opens with, its
    `copied` prefix (every run so far a fork's), which alone may end in a fresh deal."""
    given, actor = entry.get(CAUSE), entry.get("actor")
    where = f"Event {number} ({_kind(entry)})"
    if actor == "fork" and not copied:
        raise LogInvalid(f"{where}: only the runs a fork opens with, before any other, are caused by 'fork'.", event=number)
    if given == Own.REDEAL.value and actor != "fork":
        raise LogInvalid(f"{where}: a fresh deal ends a fork's copied opening only, under actor 'fork', not {actor!r}.", event=number)
    if isinstance(given, str) and given in OWN:
        if actor not in OPENING_ACTORS:
            raise LogInvalid(f"{where}: the game's own {given} is not caused by {actor!r}.", event=number)
        return Own(given)
    if not isinstance(given, dict) or not set(given) <= COMMAND_KEYS:
        raise LogInvalid(f"{where}: the first line of a command's events names the command ({', '.join(sorted(COMMAND_KEYS))}"
                         " and nothing else), or the game's own cause.", event=number)
    try:
        command = game.commands.decode(given["type"], given["schema_version"], given["payload"])
    except Exception as error:  # noqa: BLE001 - a missing field, a wrong type, an unknown command
        raise LogInvalid(f"{where}: its command is not one of the game's: {error}", event=number) from None
    found = SEAT_ACTOR.fullmatch(actor) if isinstance(actor, str) else None
    if command.seat >= seats or (actor != "fork" and (found is None or int(found[2]) != command.seat)):
        raise LogInvalid(f"{where}: a command of seat {command.seat} is not caused by {actor!r}.", event=number)
    return command


def _redecide(game: Game, options: Any, seats: int, events: list[Any],  # type: ignore[type-arg]
              entries: list[dict[str, Any]], causes: tuple[Cause, ...]) -> tuple[Any, list[tuple[int, str]]]:
    """The state a log of format 2 folds to, and the first (version, problem) deciding its commands
    again finds: what the events that did not come out as the rules give them have instead."""
    # what Game.check finds of each event, deciding again finds too: a broken seal (its commitment is
    # worked out again from the order and salt given back), a card not from the committed order, a
    # seat or thing not there, a result the rules do not give, an event after the end
    state, difference = redecide(game, options, seats, events, causes)
    if difference is not None:
        return state, [(difference[0], _why(game, seats, state, events, causes, *difference))]
    try:
        game.status(state)  # what every read of the last version shows
        game.view(state, None)
    except Exception as error:  # noqa: BLE001 - a log may not become a game whose reads fail
        raise LogInvalid(f"The game the events end in cannot be shown: {error!r}") from None
    return state, []


def _deadlines_without_clock(game: Game, options: Any, seats: int, events: list[Any],  # type: ignore[type-arg]
                             entries: list[dict[str, Any]], causes: tuple[Cause, ...]) -> None:
    """LogInvalid if a log without a time control says a deadline moved for a seat where the rules
    set none either (response_seconds) on the state before that move."""
    timed = {cause.first for cause in causes if str(entries[cause.first - 1].get("actor")).startswith("deadline:")}
    state = game.initial(options, seats)
    for version, event in enumerate(events[:max(timed, default=0)], start=1):
        if version in timed and game.response_seconds(state) is None:
            where = f"Event {version} ({_kind(entries[version - 1])})"
            raise LogInvalid(f"{where}: a deadline moved, in a game with no time control, where the rules set none.",
                             event=version)
        state = game.evolve(state, event)


def _why(game: Game, seats: int, state: Any, events: list[Any],  # type: ignore[type-arg]
         causes: tuple[Cause, ...], version: int, how: str) -> str:
    """What is wrong with the event at `version`, in the run that starts on `state`: what Game.check
    finds of it, if anything, then how deciding its command again differs."""
    first = max(cause.first for cause in causes if cause.first <= version)
    for event in events[first - 1:version - 1]:  # the run's events before it came out as the rules give them
        state = game.evolve(state, event)
    try:
        found = game.check(seats, state, events[version - 1])
    except Exception:  # noqa: BLE001 - the rules' own account of it is a courtesy; deciding again found it
        found = None
    return how if found is None else f"{found}; {how}"


def _fold(game: Game, options: Any, seats: int, events: list[Any],  # type: ignore[type-arg]
          entries: list[dict[str, Any]], first_problem: bool) -> tuple[Any, list[tuple[int, str]]]:
    """The state `events` fold to and each (version, problem) Game.check finds; LogInvalid if the rules raise."""
    state, problems = game.initial(options, seats), []
    number = 0
    try:
        for number, event in enumerate(events, start=1):
            if problem := game.check(seats, state, event):
                problems.append((number, problem))
                if first_problem:
                    return state, problems
            state = game.evolve(state, event)
        number += 1  # what every read of the last version shows:
        game.status(state)
        game.view(state, None)
    except Exception as error:  # noqa: BLE001 - a log may not become a game whose reads fail
        # a log of nonsense may make the rules raise: name the first problem before it, or else the event
        if problems:
            version, problem = problems[0]
            raise LogInvalid(f"Event {version} ({_kind(entries[version - 1])}): {problem}", event=version) from None
        if number > len(events):
            raise LogInvalid(f"The game the events end in cannot be shown: {error!r}") from None
        raise LogInvalid(f"Event {number} ({_kind(entries[number - 1])}) does not replay: {error!r}", event=number) from None
    return state, problems


def _actor(actor: object, seats: int) -> str:
    """A line's actor as the import keeps it: an opening's, or a seat's of this game; else "import"."""
    if not isinstance(actor, str):
        return "import"
    found = SEAT_ACTOR.fullmatch(actor)
    return actor if actor in OPENING_ACTORS or (found and int(found[2]) < seats) else "import"


def _kind(entry: dict[str, Any]) -> str:
    kind = entry.get("type")
    return kind if isinstance(kind, str) and len(kind) <= 40 and kind.isprintable() else "?"


def _printable(name: object) -> bool:
    return isinstance(name, str) and bool(name.strip()) and name.isprintable() and len(name) <= 64
