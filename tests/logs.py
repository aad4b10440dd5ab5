"""Genuine exported logs of random games, made without a server: the export's own writer over
the events the rules decided, as `GET /v1/games/{id}/export` gives them."""

from __future__ import annotations

import json
import random
from typing import Any

from domain import GAMES
from domain.core.redecision import Own
from domain.core.rng import SeededRng
from events.envelope import Envelope, GameRecord, Lifecycle
from events.execute import recorded
from events.log_file import export_lines
from tests.playing import moves_on

GENUINE: dict[str, list[tuple[int, int, dict[str, Any]]]] = {  # the games exported for tests: seats, seed, options
    "taki": [(2, 1, {}), (3, 2, {"taki_close": "auto", "first_seat": 1}), (4, 3, {"play_for_places": True})],
    "djambi": [(3, 1, {}), (4, 2, {})],
    "bahama_taxi": [(2, 1, {"max_rounds": 30}), (3, 2, {"max_rounds": 15, "dice": True}),
                    (2, 3, {"max_rounds": 20, "unknown_destination": True, "hand_size": 4})],
}


def genuine_export(name: str, seats: int, seed: int, options: dict[str, Any] | None = None,
                   first: tuple[Any, ...] = (), old: bool = False) -> list[str]:
    """The export of a random game of `name` played to its end: the `first` commands (each
    given the state, returning a command), then random legal ones, moving on nine times in ten;
    with `old`, as a game stored before its commands were (format 1: one run, no causes)."""
    game, options = GAMES[name], options or {}
    parsed = game.parse_options(options, seats)
    chooser, rng = random.Random(seed), SeededRng(seed)
    events = list(game.setup(parsed, seats, rng))
    runs: list[tuple[int, str, Any]] = [(1, "system", Own.SETUP.value)]  # (first version, actor, cause) of each command
    state = game.replay(parsed, seats, events)
    forced = list(first)
    while not (status := game.status(state)).finished:
        if forced:
            command = forced.pop(0)(state)
        else:
            legal = game.legal_commands(state, chooser.choice(status.to_move))
            preferred = [command for command in legal if moves_on(command)]
            command = chooser.choice(preferred if preferred and chooser.random() < 0.9 else legal)
        runs.append((len(events) + 1, f"seat:{command.seat}", recorded(game, command)))
        for event in game.decide(state, command, rng):
            state = game.evolve(state, event)
            events.append(event)
    record = GameRecord(f"original{seed}", name, options, seats, Lifecycle.FINISHED, len(events), 0,
                        tuple(f"player {seat}" for seat in range(seats)), (None,) * seats)
    if old:
        envelopes = [Envelope(record.id, version, *game.events.encode(event), "c", "seat:0", 0)
                     for version, event in enumerate(events, start=1)]
    else:
        starts = {first: (number, actor, cause) for number, (first, actor, cause) in enumerate(runs)}
        envelopes, (number, actor, cause) = [], starts[1]
        for version, event in enumerate(events, start=1):
            number, actor, cause = starts.get(version, (number, actor, None))
            envelopes.append(Envelope(record.id, version, *game.events.encode(event), f"c{number}", actor, 0, cause))
    return [line.rstrip("\n") for line in export_lines(record, envelopes)]


def entries(lines: list[str]) -> tuple[str, list[dict[str, Any]]]:
    """A log's header line and its events, as dicts to tamper with."""
    return lines[0], [json.loads(line) for line in lines[1:]]


def joined(header: str, events: list[dict[str, Any]]) -> bytes:
    return "\n".join([header, *(json.dumps(event) for event in events)]).encode()
