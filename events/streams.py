"""Event streams: one per game, appended atomically at an expected version (once per
idempotency key), read by version, and waited on for what comes next."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson
import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster

from events import clock, keys, records, scripts, slots
from events.durability import Durability
from events.envelope import OPENING_ACTORS, Envelope, GameRecord, Lifecycle, NewEvent, NextCommand
from events.errors import GameNotFound, IdempotencyKeyReused, NotPublished, VersionConflict
from events.records import GameRecords

log = logging.getLogger("meeple.store")
IDEMPOTENCY_TTL = 24 * 3600  # seconds a retried command is recognised
STAGED_TTL = 600  # seconds an import's staged events outlive the last chunk written (an import given up)
STAGED_CHUNK = 400  # events an import writes a script at a time: Redis serves others between them
# nineteen digits in a row, as many as an integer orjson may read as a float, found by turning
# every digit into a 0 and looking for nineteen of them: a tenth of what a regular expression costs
DIGITS_AS_ZEROS = bytes.maketrans(b"0123456789", b"0" * 10)
LONG_NUMBER = b"0" * 19
# what orjson would write and the standard library refuses: left to the standard library, which raises
_PASS_THROUGH = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME

_Entries = list[tuple[bytes, dict[bytes, bytes]]]


@dataclass(frozen=True, slots=True)
class Appended:
    """The outcome of an append: the version reached, the envelopes written and whether the game is over."""

    version: int
    events: tuple[Envelope, ...]
    finished: bool = False
    replayed: bool = False  # an idempotency key answered with an earlier append (`finished`: over now)


class Streams:
    """The event streams of the games in one Redis server or cluster."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis, games: GameRecords,
                 durability: Durability = Durability()) -> None:
        """`waiting` serves the blocking reads (its socket timeout must outlast them); `games` files and announces."""
        self.redis = client
        self.waiting = waiting
        self.games = games
        self.durability = durability
        self._append = scripts.register(client, "append.lua")
        self._publish = scripts.register(client, "publish.lua")

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events with versions after `after`, oldest first, at most `limit`."""
        if limit == 0:
            return []
        entries = self.redis.xrange(keys.stream(game_id), f"{after + 1}-0", "+", count=limit)
        return _envelopes(game_id, cast(_Entries, entries))

    def since(self, game_id: str, after: int, started: GameRecord | None = None) -> tuple[GameRecord, str | None, list[Envelope]]:
        """The game's record, the command that appended version `after` and the events since, in one round trip.

        The command is None at 0, '' if the stream no longer holds `after`. Of a `started` record only
        what still changes is read again. Raises GameNotFound."""
        pipe = self.redis.pipeline(transaction=False)
        if started is None:
            records.ask(pipe, game_id)
        else:
            records.ask_progress(pipe, game_id)
        pipe.xrange(keys.stream(game_id), f"{max(after, 1)}-0", "+")
        *fields, entries = pipe.execute()
        record = records.parse(game_id, *fields) if started is None else records.progressed(started, fields[0])
        read = _envelopes(game_id, entries)
        command_id: str | None = None
        if after:
            command_id = read[0].command_id if read and read[0].version == after else ""
        # an append between reading the record and the stream waits for the next load
        return record, command_id, [envelope for envelope in read if after < envelope.version <= record.version]

    def wait(self, game_id: str, version: int, timeout_ms: int) -> bool:
        """Block until the game passes `version` (True) or `timeout_ms` goes by (False)."""
        return bool(self.waiting.xread({keys.stream(game_id): f"{version}-0"}, count=1, block=timeout_ms))

    def version_before_moves(self, game_id: str, version: int, moves: int) -> int:
        """The version before the game's last `moves` commands up to `version`, never before its opening ends."""
        seen: set[str] = set()
        newest = f"{version}-0"
        while True:
            entries = cast(_Entries, self.redis.xrevrange(keys.stream(game_id), newest, "-", count=100))
            for entry_id, fields in entries:
                actor, command = fields[b"a"].decode(), fields[b"c"].decode()
                if actor in OPENING_ACTORS or (command not in seen and len(seen) == moves):
                    return int(entry_id.split(b"-")[0])
                seen.add(command)
            if len(entries) < 100:
                return 0
            newest = f"({entries[-1][0].decode()}"

    def time_of_latest(self, game_id: str, version: int, event_type: str) -> int | None:
        """When the latest event of `event_type` at or before `version` was appended, read back from
        `version` (a hundred events a round trip); None if there is none."""
        newest = f"{version}-0"
        while True:
            entries = cast(_Entries, self.redis.xrevrange(keys.stream(game_id), newest, "-", count=100))
            for _, fields in entries:
                if fields[b"t"].decode() == event_type:
                    return int(fields[b"at"])
            if len(entries) < 100:
                return None
            newest = f"({entries[-1][0].decode()}"

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent | NextCommand],
        *,
        command_id: str,
        actor: str,
        status: Lifecycle | None = None,
        idempotency: tuple[str, str] | None = None,
        announce: bool = True,
        held: str | None = None,
        cause: Any = None,
    ) -> Appended:
        """Append `events` if the game is at `expected_version`, else raise VersionConflict.

        `idempotency` is (key, fingerprint of the command): a key seen before answers with the
        events it appended then, and writes nothing. With `held`, the command that ends a state the
        caller held without reading the game, the append is also a conflict unless that event is
        still there and the game in play. Announced on the feed if `announce`, and always the first.
        A NextCommand among `events` gives the events after it its command and actor, and its time if it has one;
        the first event after it keeps its `cause` (as `cause` the first event's, if given)."""
        now = clock.now()
        key, fingerprint = idempotency or ("", "")
        args: list[Any] = [expected_version, fingerprint, IDEMPOTENCY_TTL, status or "", now, command_id, actor, held or "",
                           *_caused(cause), *_marked(events)]
        script_keys = [keys.meta(game_id), keys.stream(game_id), keys.idempotency(game_id, key)]
        opening = status if expected_version == 0 else None
        answer = self._append_and_announce(script_keys, args, game_id, opening, now, announce or opening is not None)
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome == "conflict":
            raise VersionConflict(expected_version, int(answer[1]))
        if outcome == "duplicate":
            return self._earlier(game_id, key, answer[1].decode(), fingerprint)
        version = int(answer[1])
        if status == Lifecycle.FINISHED and expected_version > 0:
            pipe = self.redis.pipeline(transaction=False)
            self.games.file(pipe, game_id, Lifecycle.ACTIVE, Lifecycle.FINISHED, now)
            pipe.execute()
        envelopes = tuple(_written(game_id, expected_version, events, NextCommand(command_id, actor, cause=cause), now))
        return Appended(version, envelopes, finished=status == Lifecycle.FINISHED)

    def stage(self, game_id: str, moves: Iterable[Sequence[NewEvent | NextCommand]]) -> int:
        """Write an imported game's moves (each a NextCommand then its events) apart from its stream, a
        few hundred events a script, to be made its stream by `publish`; the version they reach."""
        staged, meta = keys.staged(game_id), keys.staged_meta(game_id)
        self.redis.script_load(self._append.script)  # on every node of a cluster, so no chunk finds it missing
        version, now = 0, clock.now()
        for chunk in _chunks(moves, STAGED_CHUNK):

            def queue(pipe: Pipeline, chunk: list[NewEvent | NextCommand] = chunk) -> None:
                pipe.hsetnx(meta, "version", 0)
                pipe.evalsha(self._append.sha, 3, meta, staged, keys.idempotency(game_id, ""),
                             version, "", IDEMPOTENCY_TTL, "", now, "", "", "", *_marked(chunk))
                pipe.expire(meta, STAGED_TTL)
                pipe.expire(staged, STAGED_TTL)

            replies = slots.run(self.redis, meta, queue)
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
            version = int(replies[1][1])
        return version

    def publish(self, game_id: str, version: int, status: Lifecycle) -> None:
        """Make the events `stage` wrote, up to `version`, the stream of the game (created since, still at
        version 0) in one step, with `status`; filed and announced. Raises NotPublished otherwise."""
        now = clock.now()
        answer = cast(list[bytes], self._publish(
            keys=[keys.meta(game_id), keys.stream(game_id), keys.staged(game_id), keys.staged_meta(game_id)],
            args=[version, status]))
        if answer[0] != b"ok":
            raise NotPublished(f"The staged events of {game_id!r} were not published: {answer[0].decode()}.")
        pipe = self.redis.pipeline(transaction=False)
        self._announce(pipe, game_id, status, now)
        pipe.execute()

    def _append_and_announce(self, script_keys: list[str], args: list[Any], game_id: str, opening: Lifecycle | None,
                             now: int, announce: bool, script_reloaded: bool = False) -> list[bytes]:
        """Run the append script, wait for replicas if asked, tell the feed if `announce`; file an `opening` game."""
        # The feed and the indexes live in no game's slot, so the script cannot write them: on one
        # server they go in the append's round trip, on a cluster in one after it. They are written
        # even when the append writes nothing (a needless look for the feed's consumers; the indexes
        # stay right, as a first append fails only to another); if they cannot be, the sweep makes up.
        told = self.redis.pipeline(transaction=False) if isinstance(self.redis, RedisCluster) else None
        waits = False

        def queue(pipe: Pipeline) -> None:
            nonlocal waits
            pipe.evalsha(self._append.sha, len(script_keys), *script_keys, *args)
            waits = self.durability.wait(pipe)
            if announce:
                self._announce(pipe if told is None else told, game_id, opening, now)

        replies = slots.run(self.redis, script_keys[0], queue)
        if told is not None and announce:
            try:
                told.execute(raise_on_error=False)
            except slots.AWAY as error:
                log.warning("the feed was not told of an append to %s: %s", game_id, error)
        if isinstance(replies[0], redis.exceptions.NoScriptError) and not script_reloaded:
            # a server that does not hold the script yet (new, or a replica just promoted): the
            # announcement went out with nothing appended, so all of it is sent again
            self.redis.script_load(self._append.script)
            return self._append_and_announce(script_keys, args, game_id, opening, now, announce, script_reloaded=True)
        for reply in replies[:2 if waits else 1]:
            if isinstance(reply, Exception):
                raise reply
        answer = cast(list[bytes], replies[0])
        if waits and answer[0] == b"ok":
            self.durability.check(int(replies[1]), int(answer[1]))
        return answer

    def _announce(self, pipe: Pipeline, game_id: str, opening: Lifecycle | None, now: int) -> None:
        self.games.feed.announce(pipe, game_id)
        if opening is not None:
            self.games.file(pipe, game_id, Lifecycle.WAITING, opening, now)

    def remembered(self, game_id: str, key: str, fingerprint: str) -> Appended | None:
        """The earlier answer to a command sent with this idempotency key, if any."""
        stored = cast(bytes | None, self.redis.get(keys.idempotency(game_id, key)))
        return None if stored is None else self._earlier(game_id, key, stored.decode(), fingerprint)

    def _earlier(self, game_id: str, key: str, stored: str, fingerprint: str) -> Appended:
        """The append first made with the idempotency `key`, held by the replicas too if the durability waits."""
        earlier_fingerprint, first, last = stored.rsplit("|", 2)
        if earlier_fingerprint != fingerprint:
            raise IdempotencyKeyReused()

        def queue(pipe: Pipeline) -> None:
            pipe.xrange(keys.stream(game_id), f"{first}-0", f"{last}-0")
            pipe.hget(keys.meta(game_id), "status")
            if self.durability.replicas:  # the key written again as it is: a write replicated after the append's
                pipe.set(keys.idempotency(game_id, key), stored, keepttl=True, xx=True)
                self.durability.wait(pipe)

        replies = slots.run(self.redis, keys.meta(game_id), queue)
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        entries, status, *confirmed = replies
        if confirmed:
            self.durability.check(int(confirmed[1]), int(last))
        earlier = tuple(_envelopes(game_id, entries))
        return Appended(int(last), earlier, finished=status == Lifecycle.FINISHED.encode(), replayed=True)


def _caused(cause: Any) -> tuple[Any, ...]:
    """The mark that gives the next event appended its cause (append.lua), if there is one."""
    return () if cause is None else ("!", json.dumps(cause, separators=(",", ":")), "")


def _marked(events: Iterable[NewEvent | NextCommand]) -> list[Any]:
    """The events as append.lua reads them after its fixed arguments: each NextCommand as its marks."""
    args: list[Any] = []
    for event in events:
        if isinstance(event, NextCommand):
            args += ["", event.command_id, event.actor, *(() if event.time is None else ("@", event.time, "")),
                     *_caused(event.cause)]
        else:
            args += [event.type, event.schema_version, encoded_payload(event.payload)]
    return args


def _chunks(moves: Iterable[Sequence[NewEvent | NextCommand]], size: int) -> Iterator[list[NewEvent | NextCommand]]:
    """Whole moves gathered into chunks of at least `size` events (the last one fewer)."""
    chunk: list[NewEvent | NextCommand] = []
    for move in moves:
        chunk += move
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _written(game_id: str, after: int, events: Sequence[NewEvent | NextCommand], cause: NextCommand,
             now: int) -> Iterator[Envelope]:
    """The envelopes an append wrote after version `after`, each event's cause the last NextCommand before it (else
    `cause`), and its time the last such command's that gives one (else `now`)."""
    version, caused = after, cause.cause
    for event in events:
        if isinstance(event, NextCommand):
            cause, now, caused = event, now if event.time is None else event.time, event.cause
            continue
        version += 1
        yield Envelope(game_id, version, event.type, event.schema_version, event.payload, cause.command_id, cause.actor,
                       now, caused)
        caused = None


def _envelopes(game_id: str, entries: _Entries) -> list[Envelope]:
    """Stream entries as envelopes (built by position: naming the fields doubles the cost)."""
    return [
        Envelope(game_id, int(entry_id.split(b"-")[0]), fields[b"t"].decode(), int(fields[b"s"]), payload,
                 fields[b"c"].decode(), fields[b"a"].decode(), int(fields[b"at"]),
                 json.loads(fields[b"k"]) if b"k" in fields else None)
        for (entry_id, fields), payload in zip(entries, _payloads(entries))
    ]


def encoded_payload(payload: Any) -> bytes | str:
    """A payload as compact JSON, by orjson or the standard library; dataclasses and dates are refused."""
    # orjson refuses an integer beyond 64 bits and a lone surrogate, and writes NaN and the
    # infinities as null: a payload with a null in it is checked by reading it back
    try:
        written = orjson.dumps(payload, option=_PASS_THROUGH)
        if b"null" not in written or orjson.loads(written) == payload:
            return written
    except orjson.JSONEncodeError:
        pass
    return json.dumps(payload, separators=(",", ":"))


def _payloads(entries: _Entries) -> list[Any]:
    """The entries' payloads, parsed as one JSON array by orjson, or by the standard library where they differ."""
    # orjson refuses a lone surrogate and NaN, and reads an integer beyond 64 bits as a float:
    # nineteen digits in a row, even in a string, are left to the standard library
    joined = b"[" + b",".join(fields[b"p"] for _, fields in entries) + b"]"
    if LONG_NUMBER not in joined.translate(DIGITS_AS_ZEROS):
        try:
            return cast(list[Any], orjson.loads(joined))
        except orjson.JSONDecodeError:
            pass
    return cast(list[Any], json.loads(joined))
