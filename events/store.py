"""The event store on Redis: one stream per game, appended atomically at an expected version."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

import redis

from domain.core.game import Budget
from events import keys
from events.envelope import (
    CANCELLED,
    OPENING_ACTORS,
    Envelope,
    GameNotFound,
    GameRecord,
    IdempotencyKeyReused,
    NewEvent,
    Origin,
    SeatNotLeft,
    SeatUnavailable,
    TurnDeadline,
    VersionConflict,
)

IDEMPOTENCY_TTL = 24 * 3600  # seconds a retried command is recognised

_Entries = list[tuple[bytes, dict[bytes, bytes]]]
_RECORD_PARTS = 5  # the hashes a game's record is read from (EventStore._ask_record)


def _script(name: str) -> str:
    return resources.files("events").joinpath(name).read_text()


def hash_token(token: str) -> str:
    """Tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Appended:
    """The outcome of an append: the version reached, the envelopes written and whether the
    game is over. `replayed` is true when an idempotency key answered with an earlier append
    (and `finished` then tells whether the game is over now)."""

    version: int
    events: tuple[Envelope, ...]
    finished: bool = False
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class Seated:
    seat: int
    taken: int
    seats: int


class EventStore:
    """Games, seats and event streams in one Redis server or cluster."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis | None = None) -> None:
        """`waiting` serves the blocking reads of live streams (its socket timeout must outlast
        them); by default `client` does."""
        self.redis = client
        self.waiting = waiting or client
        self._append = client.register_script(_script("append.lua"))
        self._claim = client.register_script(_script("claim_seat.lua"))
        self._leave = client.register_script(_script("leave_seat.lua"))
        self._cancel = client.register_script(_script("cancel_lobby.lua"))

    # games

    def create_game(
        self, game_id: str, game: str, options: dict[str, Any], seats: int, deadline: TurnDeadline | None = None,
        spectator_delay: int = 0, forked_from: Origin | None = None, lobby_seconds: int | None = None,
    ) -> GameRecord:
        """A game waiting for its players; cancelled `lobby_seconds` from now if seats are still free."""
        now = _now()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.meta(game_id), mapping={
            "game": game, "options": json.dumps(options), "seats": seats, "status": "waiting", "version": 0,
            "created": now, "deadline": json.dumps(None if deadline is None else dataclasses.asdict(deadline)),
            "spectator_delay": spectator_delay,
            "forked_from": json.dumps(None if forked_from is None else dataclasses.asdict(forked_from)),
        })
        if lobby_seconds is not None:
            pipe.hset(keys.meta(game_id), "lobby_until", now + lobby_seconds * 1000)
        pipe.zadd(keys.game_index(), {game_id: now})
        pipe.zadd(keys.games_with_status("waiting"), {game_id: now})
        pipe.execute()
        return self.game(game_id)

    def game(self, game_id: str) -> GameRecord:
        """The game's record; raises GameNotFound."""
        pipe = self.redis.pipeline(transaction=False)
        self._ask_record(pipe, game_id)
        return _record(game_id, *pipe.execute())

    def game_since(self, game_id: str, after: int) -> tuple[GameRecord, list[Envelope]]:
        """The game's record and its events after version `after` up to the record's version, in
        one round trip; raises GameNotFound."""
        pipe = self.redis.pipeline(transaction=False)
        self._ask_record(pipe, game_id)
        pipe.xrange(keys.stream(game_id), f"{after + 1}-0", "+")
        *fields, entries = pipe.execute()
        record = _record(game_id, *fields)
        newer = _envelopes(game_id, entries)
        # an append between reading the record and the stream waits for the next load
        return record, [envelope for envelope in newer if envelope.version <= record.version]

    @staticmethod
    def _ask_record(pipe: Any, game_id: str) -> None:
        """Queue the _RECORD_PARTS reads that make a game's record."""
        pipe.hgetall(keys.meta(game_id))
        pipe.hgetall(keys.seats(game_id))
        pipe.hgetall(keys.bots(game_id))
        pipe.hgetall(keys.players(game_id))
        pipe.hgetall(keys.tokens(game_id))

    def list_games(self, game: str | None, status: str | None, offset: int, limit: int) -> tuple[list[GameRecord], int | None]:
        """Games filtered, newest first (by when they took `status`, if given); the page and the
        offset of the next one (None at the end)."""
        found: list[GameRecord] = []
        index = keys.game_index() if status is None else keys.games_with_status(status)
        for position, ids in self._index_pages(index, offset, max(limit, 50)):
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                self._ask_record(pipe, game_id)
            answers = pipe.execute()
            for number, game_id in enumerate(ids):
                fields = answers[number * _RECORD_PARTS:(number + 1) * _RECORD_PARTS]
                if not fields[0]:
                    continue  # a game an index still holds though it failed to be created
                record = _record(game_id, *fields)
                if (game is None or record.game == game) and (status is None or record.status == status):
                    found.append(record)
                    if len(found) == limit:
                        return found, position + number + 1
        return found, None

    def count_by_status(self) -> dict[str, int]:
        """How many games wait for players, are in play, and are over, as the status indexes hold
        them (a game whose process died as it finished counts as in play until the next sweep)."""
        pipe = self.redis.pipeline(transaction=False)
        for status in keys.STATUSES:
            pipe.zcard(keys.games_with_status(status))
        return dict(zip(keys.STATUSES, pipe.execute(), strict=True))

    def indexed(self, status: str) -> Iterator[tuple[str, bool]]:
        """The ids of the games with `status`, oldest first, each with whether every seat is taken.

        A game changes index in the round trip of the append that starts it, and in the one
        after the append that ends it: the index of games in play may hold a game that is over,
        never lack one that is not. A game found under a status it has left is moved to its own
        and announced on the feed again, so that whatever its change meant is told even when the
        process that changed it died before telling (each notification goes out once however often
        its game is announced)."""
        index, position = keys.games_with_status(status), 0
        while ids := [raw.decode() for raw in cast(list[bytes], self.redis.zrange(index, position, position + 99))]:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hmget(keys.meta(game_id), "status", "seats")
                pipe.hlen(keys.seats(game_id))
            answers, filing, moved = pipe.execute(), self.redis.pipeline(transaction=False), 0
            for game_id, (actual, seats), taken in zip(ids, answers[::2], answers[1::2], strict=True):
                if actual == status.encode():
                    yield game_id, taken == int(seats)
                else:
                    self._file(filing, game_id, status, None if actual is None else actual.decode(), _now())
                    if actual is not None:
                        self._announce(filing, game_id)
                    moved += 1
            filing.execute()
            position += len(ids) - moved

    def build_status_index(self) -> None:
        """File every game under its status, once: for a store written before the status indexes."""
        if self.redis.exists(keys.status_index_built()):
            return
        for _, ids in self._index_pages(keys.game_index(), 0, 1000):
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hmget(keys.meta(game_id), "status", "created")
            filing = self.redis.pipeline(transaction=False)
            for game_id, (status, created) in zip(ids, pipe.execute(), strict=True):
                if status is not None:
                    filing.zadd(keys.games_with_status(status.decode()), {game_id: int(created)}, nx=True)
            filing.execute()
        self.redis.set(keys.status_index_built(), 1)

    @staticmethod
    def _file(pipe: Any, game_id: str, old: str, new: str | None, now: int) -> None:
        """Move a game from the index of status `old` to that of `new` (None: a game that is gone)."""
        pipe.zrem(keys.games_with_status(old), game_id)
        if new is not None:
            pipe.zadd(keys.games_with_status(new), {game_id: now}, nx=True)

    @staticmethod
    def _announce(pipe: Any, game_id: str) -> None:
        """Tell the feed that the game may have changed."""
        pipe.xadd(keys.feed(), {"game": game_id}, maxlen=100_000, approximate=True)

    def _index_pages(self, index: str, start: int, size: int) -> Iterator[tuple[int, list[str]]]:
        """The game ids of an index, newest first, in pages from `start`: each page's position and ids."""
        position = start
        while ids := cast(list[bytes], self.redis.zrevrange(index, position, position + size - 1)):
            yield position, [raw_id.decode() for raw_id in ids]
            position += len(ids)

    # seats

    def claim_seat(
        self, game_id: str, seat: int | None, name: str, token: str | None, bot: str | None = None,
        player_id: str | None = None, budget: Budget | None = None,
    ) -> Seated:
        """Seat `name` at `seat` (or the lowest free seat): a person holding `token` (and, if
        registered, `player_id`, who may hold one seat per game), or an AI of level `bot`, thinking
        within `budget` if given."""
        answer = cast(list[bytes], self._claim(
            keys=[keys.meta(game_id), keys.seats(game_id), keys.tokens(game_id), keys.bots(game_id), keys.players(game_id)],
            args=["" if seat is None else seat, name, hash_token(token) if token else "", bot or "", player_id or "",
                  "" if budget is None else json.dumps(dataclasses.asdict(budget))],
        ))
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome != "ok":
            raise SeatUnavailable(outcome, _SEAT_PROBLEMS[outcome])
        return Seated(int(answer[1]), int(answer[2]), int(answer[3]))

    def leave_seat(self, game_id: str, seat: int) -> str | None:
        """Free a seat of a game still waiting for players; the registered player who held it, if
        any (whose list of games still names the game). Raises SeatNotLeft."""
        answer = cast(list[bytes], self._leave(
            keys=[keys.meta(game_id), keys.seats(game_id), keys.tokens(game_id), keys.bots(game_id), keys.players(game_id)],
            args=[seat],
        ))
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome != "ok":
            raise SeatNotLeft(outcome, _LEAVE_PROBLEMS[outcome])
        return answer[1].decode() or None

    def cancel_lobby(self, game_id: str) -> bool:
        """Cancel the game if its lobby time has passed with seats still free; whether it did. The
        feed is told, so the reactor notifies its players and their inbox streams show it."""
        now = _now()
        cancelled = bool(self._cancel(keys=[keys.meta(game_id), keys.seats(game_id)], args=[now]))
        if cancelled:
            pipe = self.redis.pipeline(transaction=False)
            self._file(pipe, game_id, "waiting", "cancelled", now)
            self._announce(pipe, game_id)
            pipe.execute()
        return cancelled

    def seat_for_token(self, record: GameRecord, token: str) -> int | None:
        """The seat a token acts for in the game: a seat token's own, or the seat its player holds."""
        digest = hash_token(token)
        if digest in record.token_seats:
            return record.token_seats[digest]
        player_id = cast(bytes | None, self.redis.hget(keys.player_tokens(), digest))
        return None if player_id is None else record.seat_of(player_id.decode())

    # events

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events with versions after `after`, oldest first, at most `limit`."""
        if limit == 0:
            return []
        entries = self.redis.xrange(keys.stream(game_id), f"{after + 1}-0", "+", count=limit)
        return _envelopes(game_id, cast(_Entries, entries))

    def wait(self, game_id: str, version: int, timeout_ms: int) -> bool:
        """Block until the game passes `version` (True) or `timeout_ms` goes by (False)."""
        return bool(self.waiting.xread({keys.stream(game_id): f"{version}-0"}, count=1, block=timeout_ms))

    def version_before_moves(self, game_id: str, version: int, moves: int) -> int:
        """The version the game had before its last `moves` moves up to `version` (one move is
        one command; never before the end of its opening)."""
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

    def feed_position(self) -> str:
        """The id of the newest announcement, to follow the feed from."""
        newest = cast(_Entries, self.redis.xrevrange(keys.feed(), "+", "-", count=1))
        return newest[0][0].decode() if newest else "0-0"

    def follow_feed(self, after: str, timeout_ms: int) -> list[tuple[str, str]]:
        """Announcements after the id `after` as (id, game id), waiting up to `timeout_ms` for the first."""
        answer = self.waiting.xread({keys.feed(): after}, count=500, block=timeout_ms)
        return [(entry_id.decode(), fields[b"game"].decode())
                for _, entries in cast(list[tuple[bytes, _Entries]], answer) for entry_id, fields in entries]

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: list[NewEvent],
        *,
        command_id: str,
        actor: str,
        status: str | None = None,
        idempotency: tuple[str, str] | None = None,
    ) -> Appended:
        """Append `events` if the game is at `expected_version`, else raise VersionConflict.
        `idempotency` is (key, fingerprint of the command): a key seen before answers with
        the events it appended then, and writes nothing."""
        now = _now()
        key, fingerprint = idempotency or ("", "")
        args: list[Any] = [expected_version, fingerprint, IDEMPOTENCY_TTL, status or "", now, command_id, actor]
        for event in events:
            args += [event.type, event.schema_version, json.dumps(event.payload, separators=(",", ":"))]
        script_keys = [keys.meta(game_id), keys.stream(game_id), keys.idempotency(game_id, key)]
        opening = status if expected_version == 0 else None
        answer = self._append_and_announce(script_keys, args, game_id, opening, now)
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome == "conflict":
            raise VersionConflict(expected_version, int(answer[1]))
        if outcome == "duplicate":
            return self._earlier(game_id, answer[1].decode(), fingerprint)
        version = int(answer[1])
        if status == "finished" and expected_version > 0:
            pipe = self.redis.pipeline(transaction=False)
            self._file(pipe, game_id, "active", "finished", now)
            pipe.execute()
        envelopes = tuple(
            Envelope(game_id, expected_version + number, event.type, event.schema_version, event.payload, command_id, actor, now)
            for number, event in enumerate(events, start=1)
        )
        return Appended(version, envelopes, finished=status == "finished")

    def _append_and_announce(self, script_keys: list[str], args: list[Any], game_id: str, opening: str | None,
                             now: int) -> list[bytes]:
        """Run the append script and tell the feed that the game may have changed, in one round
        trip; an `opening` append (the first, which starts the game with that status) also files
        the game under it. The feed and the indexes live in no game's slot, so the script cannot
        write them: they are written even when the append writes nothing, which costs the feed's
        consumers a needless look, and leaves the indexes right (a first append fails only
        because another one came first)."""
        def announce(pipe: Any) -> None:
            self._announce(pipe, game_id)
            if opening is not None:
                self._file(pipe, game_id, "waiting", opening, now)

        pipe = self.redis.pipeline(transaction=False)
        pipe.evalsha(self._append.sha, len(script_keys), *script_keys, *args)
        announce(pipe)
        try:
            return cast(list[bytes], pipe.execute()[0])
        except redis.exceptions.NoScriptError:
            # a server that does not hold the script yet: the announcement went out before the
            # append, and a reaction to it saw nothing new, so it is made again after the append
            answer = cast(list[bytes], self._append(keys=script_keys, args=args))
            again = self.redis.pipeline(transaction=False)
            announce(again)
            again.execute()
            return answer

    def remembered(self, game_id: str, key: str, fingerprint: str) -> Appended | None:
        """The earlier answer to a command sent with this idempotency key, if any."""
        stored = cast(bytes | None, self.redis.get(keys.idempotency(game_id, key)))
        return None if stored is None else self._earlier(game_id, stored.decode(), fingerprint)

    def _earlier(self, game_id: str, stored: str, fingerprint: str) -> Appended:
        earlier_fingerprint, first, last = stored.rsplit("|", 2)
        if earlier_fingerprint != fingerprint:
            raise IdempotencyKeyReused()
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.stream(game_id), f"{first}-0", f"{last}-0")
        pipe.hget(keys.meta(game_id), "status")
        entries, status = pipe.execute()
        earlier = tuple(_envelopes(game_id, entries))
        return Appended(int(last), earlier, finished=status == b"finished", replayed=True)


_SEAT_PROBLEMS = {
    "started": "The game has already started: every seat is taken.",
    "no_such_seat": "The game has no such seat.",
    "seat_taken": "That seat is taken.",
    "game_full": "Every seat is taken.",
    "already_seated": "You already hold a seat in this game.",
    "cancelled": CANCELLED,
}

_LEAVE_PROBLEMS = {
    "started": "Every seat is taken and the game has started: leave it by its own rules (e.g. forfeit).",
    "cancelled": CANCELLED,
    "seat_free": "That seat is free.",
}


def _now() -> int:
    return int(time.time() * 1000)


def _record(game_id: str, meta: dict[bytes, bytes], seat_names: dict[bytes, bytes], bots: dict[bytes, bytes],
            holders: dict[bytes, bytes], token_seats: dict[bytes, bytes]) -> GameRecord:
    if not meta:
        raise GameNotFound(game_id)
    seats = int(meta[b"seats"])

    def per_seat(values: dict[bytes, bytes]) -> tuple[str | None, ...]:
        return tuple(values[str(seat).encode()].decode() if str(seat).encode() in values else None for seat in range(seats))

    return GameRecord(
        id=game_id,
        game=meta[b"game"].decode(),
        options=json.loads(meta[b"options"]),
        seats=seats,
        status=meta[b"status"].decode(),
        version=int(meta[b"version"]),
        created=int(meta[b"created"]),
        names=per_seat(seat_names),
        bots=per_seat(bots),
        deadline=TurnDeadline.from_json(deadline) if (deadline := json.loads(meta.get(b"deadline", b"null"))) else None,
        spectator_delay=int(meta.get(b"spectator_delay", 0)),
        forked_from=Origin(**origin) if (origin := json.loads(meta.get(b"forked_from", b"null"))) else None,
        holders={int(seat): holder.decode() for seat, holder in holders.items()},
        token_seats={digest.decode(): int(seat) for digest, seat in token_seats.items()},
        lobby_until=int(meta[b"lobby_until"]) if b"lobby_until" in meta else None,
        budgets={int(key.split(b":")[0]): Budget(**json.loads(value)) for key, value in bots.items() if key.endswith(b":budget")},
    )


def _envelopes(game_id: str, entries: _Entries) -> list[Envelope]:
    """Stream entries as envelopes; the payloads are parsed as one JSON array, which is much
    faster than one parse each."""
    payloads = json.loads(b"[" + b",".join(fields[b"p"] for _, fields in entries) + b"]")
    return [
        Envelope(
            game_id=game_id,
            version=int(entry_id.split(b"-")[0]),
            type=fields[b"t"].decode(),
            schema_version=int(fields[b"s"]),
            payload=payload,
            command_id=fields[b"c"].decode(),
            actor=fields[b"a"].decode(),
            time=int(fields[b"at"]),
        )
        for (entry_id, fields), payload in zip(entries, payloads)
    ]
