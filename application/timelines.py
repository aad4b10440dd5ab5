"""The moves a game's clocks read (application.clocks.Move), folded from its log once per version:
kept in Redis under the game's hash tag with the version and the command they reach, and extended
from there by the commands appended since, so a read of a long game's clocks folds no more than
its newest command."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from application.clocks import Move
from domain.core.game import Game
from events import keys
from events.envelope import Envelope, GameRecord
from events.execute import Loaded
from events.log_file import SEAT_ACTOR
from events.store import EventStore

KEEP_SECONDS = 30 * 86_400  # a game untouched this long folds its log again when next read


@dataclass(frozen=True, slots=True)
class Folded:
    """A game's moves up to `version`, the last of them `command`'s, its first event appended at `first`."""

    version: int
    command: str
    first: int
    moves: tuple[Move, ...]


def folded(store: EventStore, loaded: Loaded) -> Folded:
    """The loaded version's moves: the kept ones if they reach it, extended by its newest command if
    they reach the one before, else folded from the whole log (and kept, at the game's current version)."""
    kept = _kept(store, loaded.record.id)
    if kept is not None and kept.version <= loaded.version:
        since = store.streams.read(loaded.record.id, after=kept.version - 1, limit=loaded.version - kept.version + 1)
        if since[0].command_id == kept.command and (found := _extended(kept, loaded, since[1:])) is not None:
            return found if found is kept else _keep(store, loaded, found)
    envelopes = store.streams.read(loaded.record.id, limit=loaded.version)
    return _keep(store, loaded, Folded(loaded.version, envelopes[-1].command_id, envelopes[0].time,
                                       tuple(moves_of(loaded.game, loaded.record, envelopes))))


def _extended(kept: Folded, loaded: Loaded, since: list[Envelope]) -> Folded | None:
    """`kept` with the events `since` it: the same if none, one more move if they are one new
    command's (the loaded state's), None if they are more than one."""
    if not since:
        return kept
    if since[0].command_id == kept.command or any(envelope.command_id != since[0].command_id for envelope in since):
        return None
    move = Move(_own_seat(since[-1].actor), since[-1].time, frozenset(loaded.game.status(loaded.state).to_move))
    return Folded(loaded.version, since[-1].command_id, kept.first, (*kept.moves, move))


def _kept(store: EventStore, game_id: str) -> Folded | None:
    """The moves kept for the game, if any."""
    raw = store.redis.get(keys.clock_moves(game_id))
    if raw is None:
        return None
    version, command, first, moves = json.loads(raw)
    return Folded(version, command, first, tuple(Move(seat, at, frozenset(to_move)) for seat, at, to_move in moves))


def _keep(store: EventStore, loaded: Loaded, found: Folded) -> Folded:
    """Keep `found` if it is the game's current version's; `found`."""
    if found.version == loaded.record.version:
        moves = [[move.seat, move.time, sorted(move.to_move)] for move in found.moves]
        store.redis.set(keys.clock_moves(loaded.record.id), json.dumps([found.version, found.command, found.first, moves],
                                                                       separators=(",", ":")), ex=KEEP_SECONDS)
    return found


def moves_of(game: Game, record: GameRecord, envelopes: list[Envelope]) -> list[Move]:  # type: ignore[type-arg]
    """Each command of `envelopes` (a game's events from its first): whose own move it was, when it
    was appended, and the seats to move after it, as the rules say of the state it leads to."""
    state = game.initial(game.parse_options(record.options, record.seats), record.seats)
    runs = ((run[-1].actor, run[-1].time, [game.events.decode(e.type, e.schema_version, e.payload) for e in run])
            for run in (list(run) for _, run in groupby(envelopes, key=lambda envelope: envelope.command_id)))
    return [move for _, move in played(game, state, runs)]


def played(game: Game, state: Any, runs: Iterable[tuple[str, int, Sequence[Any]]]) -> Iterator[tuple[Any, Move]]:  # type: ignore[type-arg]
    """Each command's run of events from `state` on (its actor, its time, its decoded events): the
    state before it, and its move."""
    for actor, time, events in runs:
        before = state
        for event in events:
            state = game.evolve(state, event)
        yield before, Move(_own_seat(actor), time, frozenset(game.status(state).to_move))


def _own_seat(actor: str) -> int | None:
    """The seat whose own move an event is (`seat:n`, or `bot:n` for an AI seat); None for a deadline's or an opening."""
    match = SEAT_ACTOR.fullmatch(actor)
    return int(match.group(2)) if match and match.group(1) != "deadline" else None
