"""Conversations between two players as stored: one Redis stream per pair of players under the
pair's hash tag, each message an entry whose id orders and pages it (`<ms>-<n>`, as a game's chat
does: events.chat), trimmed to its latest `kept` messages; each player's list of conversations by
their latest message, and in each the latest message delivered to them and the latest they read:
their unread messages are the other's after the one they read, counted when that is older than the
one delivered. A message hidden by the admin stays in its stream, listed in the conversation's
hidden set and read with `hidden` set."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import redis
from redis.client import Pipeline

from events import keys
from events.chat import START, written_at

LISTED = 100  # the conversations a player's list gives, latest first
COUNTED = 100  # the unread messages counted in one conversation, at most
LETTERS = 10_000  # announcements of changed inboxes (keys.letters) kept, about

# A read moves the reader's mark forward only: a page read late does not make later messages unread.
_MARK = """
local kept = redis.call('HGET', KEYS[1], ARGV[1])
if kept then
  local a, b = string.match(kept, '(%d+)-(%d+)')
  local c, d = string.match(ARGV[2], '(%d+)-(%d+)')
  if tonumber(c) < tonumber(a) or (c == a and tonumber(d) <= tonumber(b)) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""

_Entries = list[tuple[bytes, dict[bytes, bytes]]]


@dataclass(frozen=True, slots=True)
class PrivateMessage:
    """One message of a conversation: its text as written and the player who wrote it."""

    id: str
    author: str  # the writer's player id
    text: str
    hidden: bool = False  # hidden by the admin: kept here, shown to neither player

    @property
    def time(self) -> int:
        return written_at(self.id)


@dataclass(frozen=True, slots=True)
class Conversation:
    """A player's conversation with another as their list shows it."""

    other: str  # the other player's id
    latest: int  # when its latest message was written (ms since the epoch)
    unread: int  # the other's messages after the latest the player read, at most COUNTED


class Conversations:
    """Every conversation between two players, in one store."""

    def __init__(self, client: redis.Redis, kept: int) -> None:
        """`kept`: how many of a conversation's latest messages are kept (MEEPLE_CONVERSATION_KEPT)."""
        self.redis = client
        self.kept = kept
        self._mark = client.register_script(_MARK)

    def add(self, author: str, recipient: str, text: str, deliver: bool) -> PrivateMessage:
        """Append a message to the pair's conversation (dropping its oldest past `kept`) and list it for its
        author; `deliver` lists it for the recipient too, unread (not for one who blocks the author)."""
        entry_id = cast(bytes, self.redis.xadd(keys.conversation(author, recipient), {"a": author, "t": text},
                                               maxlen=self.kept, approximate=False)).decode()
        message = PrivateMessage(entry_id, author, text)
        pipe = self.redis.pipeline(transaction=False)  # each player's keys are in a slot of their own
        pipe.zadd(keys.conversations(author), {recipient: message.time})
        if deliver:
            pipe.zadd(keys.conversations(recipient), {author: message.time})
            pipe.hset(keys.delivered(recipient), author, entry_id)
            wake_inboxes(pipe, [recipient], About.MESSAGES)
        pipe.execute()
        return message

    def page(self, one: str, other: str, after: str, limit: int) -> list[PrivateMessage]:
        """The pair's messages after the id `after`, oldest first, at most `limit`, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.conversation(one, other), f"({after}" if after != START else "-", "+", count=limit)
        pipe.smembers(keys.conversation_hidden(one, other))
        entries, hidden = pipe.execute()
        return [_message(entry_id, fields, entry_id in hidden) for entry_id, fields in cast(_Entries, entries)]

    def message(self, one: str, other: str, message_id: str) -> PrivateMessage | None:
        """The pair's message with this id, or None."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(keys.conversation(one, other), message_id, message_id, count=1)
        pipe.sismember(keys.conversation_hidden(one, other), message_id)
        entries, hidden = pipe.execute()
        return next((_message(entry_id, fields, bool(hidden)) for entry_id, fields in cast(_Entries, entries)), None)

    def hide(self, one: str, other: str, message_id: str) -> None:
        """Mark the pair's message hidden (it stays in the conversation, and counts unread no more) and tell
        both players' inbox streams."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.sadd(keys.conversation_hidden(one, other), message_id)
        wake_inboxes(pipe, (one, other), About.MESSAGES)
        pipe.execute()

    def mark_read(self, player_id: str, other: str, message_id: str) -> None:
        """The player has read their conversation with `other` up to the message `message_id`: those after it stay
        unread. Their inbox streams are told when that moves their mark."""
        if self._mark(keys=[keys.read_up_to(player_id)], args=[other, message_id]):
            wake_inboxes(self.redis, [player_id], About.MESSAGES)

    def of(self, player_id: str, leaving_out: frozenset[str]) -> list[Conversation]:
        """The player's conversations, latest first, at most LISTED, but those with the players `leaving_out`
        (read past, so that they take no place in the list)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(keys.conversations(player_id), 0, LISTED + len(leaving_out) - 1, withscores=True)
        pipe.hgetall(keys.delivered(player_id))
        pipe.hgetall(keys.read_up_to(player_id))
        listed, delivered, read = cast(tuple[list[tuple[bytes, float]], dict[bytes, bytes], dict[bytes, bytes]],
                                       pipe.execute())
        shown = [(other.decode(), int(latest)) for other, latest in listed if other.decode() not in leaving_out][:LISTED]
        unread = self._unread(player_id, {other: read.get(other.encode(), START.encode()).decode() for other, _ in shown
                                          if _after(delivered.get(other.encode(), START.encode()).decode(),
                                                    read.get(other.encode(), START.encode()).decode())})
        return [Conversation(other, latest, unread.get(other, 0)) for other, latest in shown]

    def _unread(self, player_id: str, marks: dict[str, str]) -> dict[str, int]:
        """How many of each other's messages to the player follow the player's mark in `marks`, at most COUNTED,
        but those the admin hid."""
        pipe = self.redis.pipeline(transaction=False)
        for other, mark in marks.items():
            pipe.xrevrange(keys.conversation(player_id, other), "+", f"({mark}" if mark != START else "-", count=COUNTED)
            pipe.smembers(keys.conversation_hidden(player_id, other))
        found: list[Any] = pipe.execute() if marks else []
        return {other: sum(fields[b"a"].decode() == other and entry_id not in hidden for entry_id, fields in entries)
                for other, entries, hidden in zip(marks, found[::2], found[1::2], strict=True)}


class About(StrEnum):
    """What of a player's inbox besides their games an announcement on keys.letters says changed."""

    MESSAGES = "messages"  # their unread private messages
    TOURNAMENTS = "tournaments"  # their invitations to tournaments


def wake_inboxes(target: redis.Redis | Pipeline, player_ids: Iterable[str], *about: About) -> None:
    """Announce on keys.letters that each of `about` changed in the inboxes of `player_ids`, waking their inbox
    streams: through a client in one round trip, or queued in a pipeline its caller executes."""
    pipe = target if isinstance(target, Pipeline) else target.pipeline(transaction=False)
    for player_id in player_ids:
        for each in about:
            pipe.xadd(keys.letters(), {"player": player_id, "about": each}, maxlen=LETTERS, approximate=True)
    if pipe is not target:
        pipe.execute()


class Letters:
    """The announcements of changed inboxes besides their games (keys.letters), each naming a player and what
    changed (About), followed from a position on as the feed is."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis) -> None:
        """`waiting` serves the blocking reads."""
        self.redis = client
        self.waiting = waiting

    def position(self) -> str:
        """Where the announcements stand now: the newest one's id."""
        newest = cast(_Entries, self.redis.xrevrange(keys.letters(), "+", "-", count=1))
        return newest[0][0].decode() if newest else START

    def follow(self, after: str, timeout_ms: int) -> tuple[str, list[tuple[str, About]]]:
        """Each player whose inbox changed since the position `after` with what changed, and the position after
        them, waiting up to `timeout_ms`."""
        answer = cast(list[tuple[bytes, _Entries]], self.waiting.xread({keys.letters(): after}, count=500, block=timeout_ms))
        entries = answer[0][1] if answer else []
        return (entries[-1][0].decode() if entries else after), [
            (fields[b"player"].decode(), About(fields.get(b"about", b"messages").decode())) for _, fields in entries]


def _after(one: str, other: str) -> bool:
    """Whether the message id `one` comes after `other`."""
    return tuple(map(int, one.split("-"))) > tuple(map(int, other.split("-")))


def _message(entry_id: bytes, fields: dict[bytes, bytes], hidden: bool) -> PrivateMessage:
    return PrivateMessage(entry_id.decode(), fields[b"a"].decode(), fields[b"t"].decode(), hidden)
