"""The one place that loads a game, decides a command and appends the result."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from domain import GAMES
from domain.core.errors import RuleViolation
from domain.core.game import Game
from domain.core.redecision import Own
from domain.core.rng import Rng, SystemRng
from events.envelope import Envelope, GameRecord, Lifecycle, NewEvent, NextCommand
from events.errors import VersionConflict
from events.snapshots import EVERY as SNAPSHOT_EVERY
from events.snapshots import Snapshots
from events.store import EventStore
from events.streams import Appended

RETRIES = 5  # times an unconditional command is decided again after losing a race


@dataclass(frozen=True)
class Loaded:
    """A game as of `version`: its record, its rules, its state and the command that appended `version`."""

    record: GameRecord
    game: Game  # type: ignore[type-arg]
    state: Any
    version: int
    # None at 0; tells this version from another of the same number after a failover lost the first
    command_id: str | None = None
    held: bool = False  # as this process last saw it, not read again (Executor.held)


def recorded(game: Game, command: Any) -> dict[str, Any]:  # type: ignore[type-arg]
    """A command as a log records it beside the events it caused (Envelope.cause)."""
    name, schema_version, payload = game.commands.encode(command)
    return {"type": name, "schema_version": schema_version, "payload": json.loads(json.dumps(payload))}


def awaited(record: GameRecord, game: Game, state: Any) -> bool:  # type: ignore[type-arg]
    """Whether a reactor or a registered player's inbox waits on this version: only such a version is announced."""
    if record.holders or record.deadline is not None or game.response_seconds(state) is not None:
        return True
    return any(record.bots[seat] is not None for seat in game.status(state).to_move)


@dataclass(frozen=True, slots=True)
class Cached:
    """A game's record and its state at `version`, appended by the command `command_id` (None at 0)."""

    record: GameRecord
    version: int
    command_id: str | None
    state: Any


class StateCache:
    """The latest state of recently used games, by id: a cache, never the truth."""

    def __init__(self, capacity: int = 2048) -> None:
        self.capacity = capacity
        self._states: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Cached | None:
        with self._lock:
            if game_id in self._states:
                self._states.move_to_end(game_id)
            return self._states.get(game_id)

    def put(self, game_id: str, cached: Cached) -> None:
        with self._lock:
            held = self._states.get(game_id)
            if held is None or held.version <= cached.version:  # at the same version, the later read's record
                self._states[game_id] = cached
                self._states.move_to_end(game_id)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._states.pop(game_id, None)


class Checkpoints:
    """States of the games finished and read last at every SNAPSHOT_EVERY-th version, `capacity` in all."""

    def __init__(self, capacity: int = 2048) -> None:
        self.capacity = capacity
        self._games: OrderedDict[str, dict[int, tuple[str | None, Any]]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def nearest(self, game_id: str, version: int) -> tuple[int, Any, str | None] | None:
        """The latest checkpoint up to `version`: its version, its state and the command that ends there."""
        with self._lock:
            held = self._games.get(game_id)
            if held is None:
                return None
            self._games.move_to_end(game_id)
            at = max((at for at in held if at <= version), default=None)
            return None if at is None else (at, held[at][1], held[at][0])

    def put(self, game_id: str, version: int, command_id: str | None, state: Any) -> None:
        with self._lock:
            held = self._games.setdefault(game_id, {})
            self._held += version not in held
            held[version] = (command_id, state)
            self._games.move_to_end(game_id)
            while self._held > self.capacity and len(self._games) > 1:
                self._held -= len(self._games.popitem(last=False)[1])

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._held -= len(self._games.pop(game_id, {}))


class Executor:
    """Loads games and runs commands against one store."""

    def __init__(self, store: EventStore, cache: StateCache | None = None,
                 on_append: Callable[[float], None] = lambda seconds: None) -> None:
        self.store = store
        self.cache = cache or StateCache()
        self.on_append = on_append  # told how many seconds each append took
        self.snapshots = Snapshots(store.redis)
        self.checkpoints = Checkpoints()

    def load(self, game_id: str, version: int | None = None) -> Loaded:
        """The game now, or as it was at `version`: the nearest state held or saved, then the events since."""
        cached = self.cache.get(game_id) if version is None else None
        if cached is not None:
            started = cached.record if cached.record.status in (Lifecycle.ACTIVE, Lifecycle.FINISHED) else None
            record, command_id, newer = self.store.streams.since(game_id, cached.version, started)  # one round trip
            if command_id == cached.command_id:  # the store still holds the event the cached state ends with
                return self._fold(record, cached.version, cached.state, newer, remember=True, command_id=command_id)
            self.cache.drop(game_id)  # the store lost writes this process saw (a failover without them): rebuild
        record = self.store.games.get(game_id)
        game = GAMES[record.game]
        target = record.version if version is None else min(version, record.version)
        at, state = 0, game.initial(game.parse_options(record.options, record.seats), record.seats)
        ends_with = None
        if saved := self._saved(record, target, type(state)):
            at, state, ends_with = saved
        envelopes = self.store.streams.read(game_id, after=max(at - 1, 0), limit=target - max(at - 1, 0))
        if ends_with is not None and envelopes[0].command_id != ends_with:  # a checkpoint of another log
            self.checkpoints.drop(game_id)
            return self.load(game_id, version)
        if at:  # the snapshot's own version, read for the command that ends there
            return self._fold(record, at, state, envelopes[1:], remember=version is None, command_id=envelopes[0].command_id)
        return self._fold(record, at, state, envelopes, remember=version is None)

    def _saved(self, record: GameRecord, target: int, kind: type) -> tuple[int, Any, str | None] | None:
        """The later of this process's checkpoint and the store's snapshot at or before `target`."""
        checkpoint = self.checkpoints.nearest(record.id, target) if record.status is Lifecycle.FINISHED else None
        if checkpoint is not None and target - checkpoint[0] < SNAPSHOT_EVERY:
            return checkpoint  # no snapshot can be later
        snapshot = self.snapshots.nearest(record.id, target, kind)
        if snapshot is not None and (checkpoint is None or snapshot[0] > checkpoint[0]):
            return snapshot[0], snapshot[1], None
        return checkpoint

    def held(self, game_id: str) -> Loaded | None:
        """The game in play as this process last saw it, without reading the store, or None.

        A command `execute` decides on it is appended only if the game is still at that version,
        and otherwise decided again on the game read anew."""
        cached = self.cache.get(game_id)
        if cached is None or cached.record.status is not Lifecycle.ACTIVE:
            return None
        return Loaded(cached.record, GAMES[cached.record.game], cached.state, cached.version, cached.command_id, held=True)

    def _fold(self, record: GameRecord, at: int, state: Any, envelopes: list[Envelope], remember: bool,
              command_id: str | None = None) -> Loaded:
        """`state` at version `at` folded on through `envelopes`, saving snapshots or checkpoints on the way."""
        game = GAMES[record.game]
        finished = record.status is Lifecycle.FINISHED
        for envelope in envelopes:
            state = game.evolve(state, game.events.decode(envelope.type, envelope.schema_version, envelope.payload))
            at, command_id = envelope.version, envelope.command_id
            if at % SNAPSHOT_EVERY == 0:
                if finished:  # the store keeps only a finished game's last snapshot (events.snapshots)
                    self.checkpoints.put(record.id, at, command_id, state)
                else:
                    self.snapshots.save(record.id, at, state)
        if remember:
            self.cache.put(record.id, Cached(record, at, command_id, state))
        return Loaded(record, game, state, at, command_id)

    def execute(
        self,
        game_id: str,
        command: Any,
        *,
        actor: str,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        fingerprint: str = "",
        rng: Rng | None = None,
        loaded: Loaded | None = None,
    ) -> Appended:
        """Decide `command` on the game's current state and append its events.

        With `expected_version` the command applies only at that version (VersionConflict
        otherwise); without it, losing a race to another append means deciding again on the
        newer state. A command sent again with the same `idempotency_key` returns the first
        answer and appends nothing. The first decision is made on `loaded` if given; what a held
        state refuses or no longer is is decided again on the game read anew."""
        if idempotency_key and (earlier := self.store.streams.remembered(game_id, idempotency_key, fingerprint)):
            return earlier
        decide = partial(self._decide_and_append, command=command, expected_version=expected_version, actor=actor,
                         key=idempotency_key, fingerprint=fingerprint, rng=rng)
        if loaded is not None and loaded.held:  # no read: one round trip rather than two
            try:
                return decide(loaded)
            except (VersionConflict, RuleViolation):  # the held state may no longer be the game's
                loaded = None
        for _ in range(RETRIES):
            loaded = loaded or self.load(game_id)
            try:
                return decide(loaded)
            except VersionConflict as conflict:
                if expected_version is not None:
                    raise
                loaded, lost = None, conflict
        raise lost

    def _decide_and_append(self, loaded: Loaded, command: Any, expected_version: int | None, actor: str,
                           key: str | None, fingerprint: str, rng: Rng | None) -> Appended:
        if expected_version is not None and expected_version != loaded.version:
            raise VersionConflict(expected_version, loaded.version)
        events = loaded.game.decide(loaded.state, command, rng or SystemRng())
        return self._append(loaded, events, actor, key, fingerprint, recorded(loaded.game, command))

    def check(self, loaded: Loaded, command: Any, *, expected_version: int | None = None) -> None:
        """Decide `command` as `execute` would, raising its refusal or VersionConflict, and keep nothing."""
        if expected_version is not None and expected_version != loaded.version:
            raise VersionConflict(expected_version, loaded.version)
        loaded.game.decide(loaded.state, command, SystemRng())

    def start(self, game_id: str, rng: Rng | None = None) -> Appended | None:
        """Append the opening events (a setup, or a fork's copied events) once every seat is taken; None if started."""
        loaded = self.load(game_id)
        record, game = loaded.record, loaded.game
        if loaded.version or None in record.names:
            return None
        rng = rng or SystemRng()
        if record.forked_from is None:
            events = game.setup(game.parse_options(record.options, record.seats), record.seats, rng)
            opening: tuple[Any, ...] = ()
            actor, cause = "system", Own.SETUP.value
        else:
            opening = self._copied(loaded, record.forked_from.game_id, record.forked_from.version)
            state = loaded.state
            for event in opening:
                if not isinstance(event, NextCommand):
                    state = game.evolve(state, event)
            # a fresh deal of what the copied events leave hidden: the origin's log may be public (Game.redeal)
            events, actor, cause = game.redeal(state, rng), "fork", Own.REDEAL.value
        try:
            return self._append(loaded, events, actor, None, "", cause, opening)
        except VersionConflict:
            return None

    def _copied(self, loaded: Loaded, origin_id: str, version: int) -> tuple[Any, ...]:
        """A fork's opening: `origin_id`'s events up to `version`, decoded, each run of one command
        after a mark of the fork's giving it the cause it had in the origin."""
        copied: list[Any] = []
        command_id = None
        for envelope in self.store.streams.read(origin_id, limit=version):
            if envelope.command_id != command_id:
                copied.append(NextCommand(uuid.uuid4().hex, "fork", cause=envelope.cause))
                command_id = envelope.command_id
            copied.append(loaded.game.events.decode(envelope.type, envelope.schema_version, envelope.payload))
        return tuple(copied)

    def _append(self, loaded: Loaded, events: tuple[Any, ...], actor: str, key: str | None, fingerprint: str,
                cause: Any, opening: tuple[Any, ...] = ()) -> Appended:
        """Append `events`, caused by `cause` (Envelope.cause) of `actor`, after a fork's `opening` if given."""
        game, state = loaded.game, loaded.state
        marked = (*opening, NextCommand(uuid.uuid4().hex, actor, cause=cause)) if opening else ()
        for event in (*marked, *events):
            if not isinstance(event, NextCommand):
                state = game.evolve(state, event)
        encoded = [event if isinstance(event, NextCommand) else NewEvent(*game.events.encode(event)) for event in (*marked, *events)]
        status = Lifecycle.FINISHED if game.status(state).finished else Lifecycle.ACTIVE
        started = time.perf_counter()
        appended = self.store.streams.append(
            loaded.record.id, loaded.version, encoded,
            command_id=uuid.uuid4().hex, actor=actor, status=status,
            idempotency=(key, fingerprint) if key else None, announce=awaited(loaded.record, game, state),
            held=loaded.command_id if loaded.held else None, cause=None if opening else cause,
        )
        self.on_append(time.perf_counter() - started)
        if not appended.replayed:
            record = loaded.record
            if record.status is not status:  # the game started or ended: held as the append left its record
                record = replace(record, status=status, version=appended.version)
            self.cache.put(record.id, Cached(record, appended.version, appended.events[-1].command_id, state))
        return appended
