"""A game's chat: the table's room, where its seats talk, and the spectators' room, which the seats
read once the game is over; and each seat's private notes. A message is plain text of at most
MAX_LENGTH characters, stored with the game's version it was written at (events.chat) and never in
the game's log; a writer sends MEEPLE_CHAT_PER_MINUTE a minute, a client address MEEPLE_CHAT_PER_ADDRESS
(service.limits); a room holds MEEPLE_CHAT_MESSAGES_PER_ROOM messages, and is written until
MEEPLE_CHAT_SECONDS_AFTER_END after the game's end, then only read.

Who may read a room is `may_read`'s to say, who may write one `may_write`'s (a muted player is refused
there, as in conversations and reports, by application.moderation.mute_refusal); a message hidden by the
admin is kept, and shown by `caught_up` to the admin only."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

import redis

from application.errors import ApplicationError, Forbidden, NotNow
from application.moderation import mute_refusal
from application.outbox import first_in, mail_player
from events import clock
from events.chat import START, ChatStore, Message
from events.envelope import GameRecord, Lifecycle
from events.errors import RoomFull
from players.blocks import Blocks

MAX_LENGTH = 500  # characters of a message
NOTES_LENGTH = 10_000  # characters of a seat's notes
PAGE = 100  # messages a read gives at most


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a game's chat: the seat they hold (None: a spectator), whether they hold the admin
    token, the registered player they are (if any), and the game's version they may see (a spectator's may
    be some moves behind)."""

    seat: int | None
    visible: int
    admin: bool = False
    player_id: str | None = None
    blocked: frozenset[str] = frozenset()  # the players the reader blocks, whose messages they do not see


@dataclass(frozen=True, slots=True)
class Writer:
    """Who writes: the seat they hold (None: a spectator), their registered player's id, their name."""

    seat: int | None
    player_id: str | None
    name: str
    muted_until: int | None = None  # until when the admin muted the player (ms since the epoch), if they did
    key: str | None = None  # under which key they write and are muted (application.moderation.speaker)


def is_over(record: GameRecord) -> bool:
    return record.status in (Lifecycle.FINISHED, Lifecycle.CANCELLED)


def check_on(record: GameRecord) -> None:
    """Refuse a game created with its chat off."""
    if not record.chat:
        raise NotNow("chat_off", "This game was created with its chat off.")


def may_read(record: GameRecord, room: str, reader: Reader) -> ApplicationError | None:
    """Why `reader` may not read `room` now, or None: while the game is played, the spectators' room is read by
    the registered players holding no seat in it (and the admin); everyone reads it once the game is over."""
    if room != "spectators" or is_over(record) or reader.admin:
        return None
    if reader.seat is not None:
        return Forbidden("room_closed", "The spectators' room opens to the seats once the game is over.")
    if reader.player_id is None:
        return Forbidden("not_registered", "While the game is played, the spectators' room is read with the token of a "
                         "registered player holding no seat in it: register first (POST /v1/players).")
    return None


def may_write(record: GameRecord, room: str, writer: Writer) -> ApplicationError | None:
    """Why `writer` may not write in `room`, or None: the table's room is its seats', the spectators'
    room the registered players who hold no seat; nobody writes in a cancelled game, nor a muted player."""
    if (refusal := mute_refusal(writer.muted_until)) is not None:
        return refusal
    if record.status is Lifecycle.CANCELLED:
        return NotNow("game_cancelled", "The game was cancelled.")
    if room == "table" and writer.seat is None:
        return Forbidden("not_seated", "The table's room is its seats': send the token of a seat of this game.")
    if room == "spectators" and writer.seat is not None:
        return Forbidden("seated", "A seat writes in the table's room; the spectators' room is for those who watch.")
    if room == "spectators" and writer.player_id is None:
        return Forbidden("not_registered", "Spectators write with a player token: register first (POST /v1/players).")
    return None


@dataclass(frozen=True, slots=True)
class Mentions:
    """What mailing a mention needs: the players' blocks, and how long a writer's mentions of one player
    in one game wait after one is mailed (MEEPLE_CHAT_MAIL_SECONDS)."""

    blocks: Blocks
    seconds: int


@dataclass(frozen=True, slots=True)
class Closing:
    """When a game's rooms close to writing: the game's end (ms since the epoch; None: not over) and the
    seconds they stay open after it (MEEPLE_CHAT_SECONDS_AFTER_END)."""

    ended: int | None
    seconds: int

    def refusal(self) -> NotNow | None:
        """Why nobody writes now, or None."""
        if self.ended is None or clock.now() < (closed := self.ended + self.seconds * 1000):
            return None
        at = datetime.fromtimestamp(closed / 1000, UTC)
        return NotNow("chat_closed", f"This game's chat closed to writing at {at:%Y-%m-%dT%H:%M:%SZ}, {self.seconds} s "
                      "after the game ended: it is kept to read.", closed=closed)


def post(chat: ChatStore, record: GameRecord, room: str, writer: Writer, text: str, mentions: Mentions,
         spectators_see: int, closing: Closing) -> Message:
    """Write a message in `room` at the version its readers see (the game's current one at the table, the
    `spectators_see` in the spectators' room, some moves behind in a delayed game), unless `closing` says the
    rooms are closed or the room is full, and mail the players it mentions."""
    check_on(record)
    if (refusal := may_write(record, room, writer) or closing.refusal()) is not None:
        raise refusal
    version = record.version if room == "table" else spectators_see
    try:
        message = chat.add(record.id, room, text, writer.name, writer.seat, writer.player_id, version, writer.key)
    except RoomFull:
        raise NotNow("room_full", f"The room holds {chat.per_room} messages, as many as a room may: it is kept to "
                     "read, no longer written.", limit=chat.per_room) from None
    if room == "table":  # a spectator's words reach no seat before the game is over
        mention(chat.redis, record, message, mentions)
    return message


def read(chat: ChatStore, record: GameRecord, room: str, reader: Reader, after: str,
         limit: int) -> tuple[list[Message], str | None]:
    """A page of `room` after the message `after` as `reader` may read it, and the id to read the next
    page after (None: none yet)."""
    check_on(record)
    if (refusal := may_read(record, room, reader)) is not None:
        raise refusal
    page = chat.page(record.id, room, after, limit)
    messages, last, held = caught_up(page, reader, after)
    return messages, None if held or len(page) < limit else last


@dataclass(frozen=True, slots=True)
class Hidden:
    """The ids of a room's messages hidden since a hide, oldest first, and the latest hide read (to ask after next)."""

    ids: list[str]
    last: str


def hidden_since(chat: ChatStore, record: GameRecord, room: str, after: str | None) -> Hidden:
    """The messages of `room` hidden after the hide `after` (None: none asked, only the latest hide). Read before the
    page it goes with, a hide made while the page is read is told again next time rather than missed."""
    if after is None:
        return Hidden([], chat.last_hide(record.id))
    hides = chat.hides(record.id, after)
    return Hidden([hide.message_id for hide in hides if hide.room == room], hides[-1].id if hides else after)


def transcript(chat: ChatStore, record: GameRecord, reader: Reader) -> list[Message]:
    """The whole of the table's room as `reader` may read it (none in a game with its chat off)."""
    messages, after = [], START
    while record.chat:
        page, following = read(chat, record, "table", reader, after, PAGE)
        messages += page
        if following is None:
            break
        after = following
    return messages


def caught_up(page: list[Message], reader: Reader, after: str) -> tuple[list[Message], str, bool]:
    """What `reader` sees of a page read after `after`: its messages but those hidden (shown to the admin
    only) and those of players the reader blocks, the id read up to, and whether it stopped at a message
    written past the version the reader sees (a delayed spectator's), which waits until they see it."""
    seen: list[Message] = []
    for message in page:
        if message.version > reader.visible:
            return seen, after, True
        after = message.id
        if shown(message, reader):
            seen.append(message)
    return seen, after, False


def shown(message: Message, reader: Reader) -> bool:
    """Whether `reader` is shown the message (written at a version they see): hidden ones to the admin only, none
    of the players they block."""
    return reader.admin or not (message.hidden or message.player_id in reader.blocked)


def may_see(message: Message, reader: Reader) -> bool:
    """Whether `reader` sees the message now."""
    return message.version <= reader.visible and shown(message, reader)


def mentioned(record: GameRecord, message: Message) -> list[str]:
    """The registered players holding a seat whom the message names with `@<their name>`, its writer aside."""
    return [player_id for seat, player_id in sorted(record.holders.items())
            if seat != message.seat and (name := record.names[seat]) is not None
            and re.search(f"@{re.escape(name)}(?!\\w)", message.text, re.IGNORECASE)]


def mention(client: redis.Redis, record: GameRecord, message: Message, mentions: Mentions) -> None:
    """Mail each player a table message mentions (a kind of mail they choose: players.mail.KINDS), but those who
    block its writer, and those its writer's mention in this game was mailed to within `mentions.seconds`."""
    named = mentioned(record, message)
    blocking = mentions.blocks.blocking(named, message.player_id) if message.player_id else set()
    author = message.player_id or f"seat-{message.seat}"  # a seat held without a player is no one else's
    for player_id in named:
        if player_id not in blocking and first_in(client, player_id, author, record.id, mentions.seconds):
            mail_player(client, player_id, "mention", f"{player_id}-mention-{record.id}-{message.id}",
                    game_id=record.id, game=record.game, author=message.name, text=message.text)


def notes(chat: ChatStore, record: GameRecord, seat: int, holder: int | None) -> str:
    """The seat's notes, to the one who holds it."""
    _check_own(seat, holder)
    return chat.notes(record.id, seat)


def keep_notes(chat: ChatStore, record: GameRecord, seat: int, holder: int | None, text: str) -> None:
    """Replace the seat's notes, for the one who holds it."""
    _check_own(seat, holder)
    chat.keep_notes(record.id, seat, text)


def _check_own(seat: int, holder: int | None) -> None:
    if holder != seat:
        raise Forbidden("not_your_notes", "A seat's notes are read and written by the one who holds it only.")
