"""A game's whole log as a file (JSON Lines): a header line — the game, its options and seats,
the format version — then one event a line, oldest first. Written by the export, read back by
`meeple replay` and the import, which check it holds together before trusting it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from domain import GAMES
from domain.core.game import Game
from events.envelope import Envelope, GameRecord

FORMAT = "meeple-log"
FORMAT_VERSION = 1


class LogInvalid(Exception):
    """A log file that cannot be replayed, and why."""


@dataclass(frozen=True)
class GameLog:
    game: Game  # type: ignore[type-arg]
    options: dict[str, Any]
    seats: int
    names: tuple[str, ...]
    events: tuple[Any, ...]  # decoded domain events, version 1 first
    envelopes: tuple[dict[str, Any], ...]  # the event lines as written


def export_lines(record: GameRecord, envelopes: Iterable[Envelope]) -> Iterator[str]:
    header = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": record.game, "id": record.id,
              "options": record.options, "seats": record.seats, "names": list(record.names), "created": record.created}
    yield json.dumps(header) + "\n"
    for envelope in envelopes:
        yield json.dumps({"version": envelope.version, "type": envelope.type, "schema_version": envelope.schema_version,
                          "payload": envelope.payload, "actor": envelope.actor, "time": envelope.time}) + "\n"


def read_log(lines: Iterable[str]) -> GameLog:
    """The game a log file holds; raises LogInvalid saying what is wrong with it."""
    rows = [line for line in lines if line.strip()]
    if not rows:
        raise LogInvalid("The file is empty.")
    try:
        header, *entries = [json.loads(row) for row in rows]
    except (ValueError, RecursionError):
        raise LogInvalid("A line is not JSON (or is nested too deep).") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("format_version") != FORMAT_VERSION:
        raise LogInvalid(f"The first line must be a {FORMAT} header of format_version {FORMAT_VERSION}.")
    game = GAMES.get(header.get("game"))  # type: ignore[arg-type]
    if game is None:
        raise LogInvalid(f"Unknown game {header.get('game')!r}.")
    seats, options = header.get("seats"), header.get("options")
    if not isinstance(options, dict) or not isinstance(seats, int) or not game.min_seats <= seats <= game.max_seats:
        raise LogInvalid(f"The header needs `options` and `seats`, {game.min_seats} to {game.max_seats}.")
    try:
        parsed = game.parse_options(options, seats)
    except Exception as error:  # noqa: BLE001 - any bad option makes the file unusable
        raise LogInvalid(f"Bad options: {error}") from None
    events = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or entry.get("version") != number:
            raise LogInvalid(f"Event {number}: versions must run 1, 2, 3 … with no gap.")
        try:
            events.append(game.events.decode(entry["type"], entry["schema_version"], entry["payload"]))
        except Exception as error:  # noqa: BLE001 - a missing field, a wrong type, an unknown event
            raise LogInvalid(f"Event {number}: {error}") from None
    try:
        game.replay(parsed, seats, events)
    except Exception as error:  # noqa: BLE001 - a log whose events do not fold is not a game
        raise LogInvalid(f"The events do not replay: {error!r}") from None
    given = header.get("names")
    names = tuple(
        name if isinstance(name, str) and name.strip() and name.isprintable() and len(name) <= 64 else f"seat {seat}"
        for seat, name in enumerate(given if isinstance(given, list) and len(given) == seats else [None] * seats)
    )
    return GameLog(game, options, seats, names, tuple(events), tuple(entries))
