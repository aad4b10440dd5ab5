"""A game's chat as stored: one Redis stream per room under the game's hash tag, apart from the game's
event log, each message an entry whose id orders it and pages it (`<ms>-<n>`), and a seat's private
notes. A room holds at most `per_room` messages (MEEPLE_CHAT_MESSAGES_PER_ROOM), counted as each is
appended. A message hidden by the admin stays in its stream, listed in the game's hidden set and read
with `hidden` set; who may read it is the application's to say (application.chat)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

import redis

from events import keys, scripts
from events.errors import RoomFull

ROOMS = ("table", "spectators")  # the seats' room; the room of those who watch
MESSAGE_ID = re.compile(r"^\d{1,15}-\d{1,10}$")
START = "0-0"  # the id before a room's first message
PER_ROOM = 5_000  # messages a room holds at most, unless the store is given another bound

_Entries = list[tuple[bytes, dict[bytes, bytes]]]


def written_at(stream_id: str) -> int:
    """When a stream entry was written, in ms since the epoch: the first part of its id (the stream's clock)."""
    return int(stream_id.split("-")[0])


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a room: its text as written, who wrote it and at which version of the game."""

    id: str
    room: str
    text: str
    name: str  # the writer's name as the game or their account gives it
    seat: int | None  # the seat that wrote it; None for a spectator
    player_id: str | None  # the registered player who wrote it, if any
    version: int  # the game's version when it was written
    hidden: bool = False  # hidden by the admin: kept here, shown to no player
    writer: str | None = None  # under which key it was written (application.moderation.speaker), for a mute

    @property
    def time(self) -> int:
        return written_at(self.id)


@dataclass(frozen=True, slots=True)
class Hide:
    """The admin's hiding of a message: the hide's own id (which orders it), the message's room and id."""

    id: str
    room: str
    message_id: str


class ChatStore:
    """The rooms and notes of every game, in one store."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis, per_room: int = PER_ROOM) -> None:
        """`waiting` serves the blocking reads (its socket timeout must outlast them)."""
        self.redis = client
        self.waiting = waiting
        self.per_room = per_room
        self._add = scripts.register(client, "chat_add.lua")

    def add(self, game_id: str, room: str, text: str, name: str, seat: int | None, player_id: str | None,
            version: int, writer: str | None = None) -> Message:
        """Append a message to the room, with the key its writer writes under (`writer`, kept from readers); the
        message as stored. Raises RoomFull when the room holds `per_room`."""
        entry_id = cast(bytes | None, self._add(keys=[keys.chat(game_id, room)], args=[
            self.per_room, "t", text, "n", name, "s", "" if seat is None else seat, "p", player_id or "", "v", version,
            "w", writer or ""]))
        if entry_id is None:
            raise RoomFull(game_id, room)
        return Message(entry_id.decode(), room, text, name, seat, player_id, version, writer=writer)

    def page(self, game_id: str, room: str, after: str, limit: int) -> list[Message]:
        """The room's messages after the id `after`, oldest first, at most `limit`, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.chat(game_id, room), f"({after}" if after != START else "-", "+", count=limit)
        pipe.smembers(keys.chat_hidden(game_id))
        entries, hidden = pipe.execute()
        return [_message(room, entry_id, fields, _hidden(room, entry_id.decode()).encode() in hidden)
                for entry_id, fields in cast(_Entries, entries)]

    def message(self, game_id: str, room: str, message_id: str) -> Message | None:
        """The room's message with this id, or None."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.chat(game_id, room), message_id, message_id, count=1)
        pipe.sismember(keys.chat_hidden(game_id), _hidden(room, message_id))
        entries, hidden = pipe.execute()
        return next((_message(room, entry_id, fields, bool(hidden)) for entry_id, fields in cast(_Entries, entries)), None)

    def hide(self, game_id: str, room: str, message_id: str) -> None:
        """Mark the game's message hidden, and say so to its open streams; it stays in its room."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.sadd(keys.chat_hidden(game_id), _hidden(room, message_id))
        pipe.xadd(keys.chat_hides(game_id), {"r": room, "m": message_id})
        pipe.execute()

    def hides(self, game_id: str, after: str) -> list[Hide]:
        """The messages hidden since the hide `after` (START: all), oldest first."""
        entries = cast(_Entries, self.redis.xrange(keys.chat_hides(game_id), f"({after}" if after != START else "-", "+"))
        return [Hide(entry_id.decode(), fields[b"r"].decode(), fields[b"m"].decode()) for entry_id, fields in entries]

    def last_hide(self, game_id: str) -> str:
        """The id of the game's latest hide, or START."""
        entries = cast(_Entries, self.redis.xrevrange(keys.chat_hides(game_id), "+", "-", count=1))
        return entries[0][0].decode() if entries else START

    def last_seen(self, game_id: str, room: str, visible: int) -> str:
        """The id of the room's latest message written at the version `visible` or before, or START: the later
        ones (written in the moves a delayed spectator does not see yet) are read back from the newest."""
        before = "+"
        while entries := cast(_Entries, self.redis.xrevrange(keys.chat(game_id, room), before, "-", count=100)):
            if (seen := next((entry_id for entry_id, fields in entries if int(fields[b"v"]) <= visible), None)) is not None:
                return seen.decode()
            before = f"({entries[-1][0].decode()}"
        return START

    def wait(self, game_id: str, version: int, rooms: dict[str, str], hidden: str, timeout_ms: int,
             clocks: str | None = None) -> frozenset[str]:
        """Block until the game passes `version`, a room of `rooms` (room → the last id read) has a
        newer message, a message is hidden after the hide `hidden` or, if `clocks` is given, the game's
        clocks move after that mark (events.feed.Feed.tell_clocks), or `timeout_ms` goes by: what woke
        it, of `events`, `chat`, `hides` and `clocks` (none for the timeout)."""
        named = ({keys.stream(game_id): ("events", f"{version}-0"), keys.chat_hides(game_id): ("hides", hidden)}
                 | {keys.chat(game_id, room): ("chat", last) for room, last in rooms.items()}
                 | ({keys.clocks_moved(game_id): ("clocks", clocks)} if clocks is not None else {}))
        woke = cast(list[tuple[bytes, _Entries]], self.waiting.xread(
            {key: since for key, (_, since) in named.items()}, count=1, block=timeout_ms) or [])
        return frozenset(named[key.decode()][0] for key, _ in woke)

    def notes(self, game_id: str, seat: int) -> str:
        """The seat's private notes on the game ('' for none)."""
        kept = cast(bytes | None, self.redis.hget(keys.notes(game_id), str(seat)))
        return "" if kept is None else kept.decode()

    def keep_notes(self, game_id: str, seat: int, text: str) -> None:
        """Replace the seat's private notes; empty ones are forgotten."""
        if text:
            self.redis.hset(keys.notes(game_id), str(seat), text)
        else:
            self.redis.hdel(keys.notes(game_id), str(seat))


def _hidden(room: str, message_id: str) -> str:
    """A hidden message as the game's hidden set names it: its room and its id."""
    return f"{room} {message_id}"


def _message(room: str, entry_id: bytes, fields: dict[bytes, bytes], hidden: bool) -> Message:
    seat, player = fields[b"s"].decode(), fields[b"p"].decode()
    return Message(entry_id.decode(), room, fields[b"t"].decode(), fields[b"n"].decode(),
                   int(seat) if seat else None, player or None, int(fields[b"v"]), hidden, fields.get(b"w", b"").decode() or None)
