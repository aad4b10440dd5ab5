"""Conversations as stored: each keeps its latest messages only, and a read marks the conversation read
up to the last message it gave, so one written meanwhile stays unread; on fakeredis and a real server."""

from __future__ import annotations

import redis

from application.conversations import Inbox, read, unread
from players.blocks import Blocks
from players.conversations import Conversations, PrivateMessage
from players.moderation import Mutes


def test_a_conversation_keeps_its_latest_messages(client: redis.Redis) -> None:  # type: ignore[type-arg]
    conversations = Conversations(client, kept=3)
    for number in range(5):
        conversations.add("ann", "bo", f"m{number}", deliver=True)
    assert [message.text for message in conversations.page("bo", "ann", "0-0", 10)] == ["m2", "m3", "m4"]


class Racing(Conversations):
    """Conversations in which the other player writes just after each page is read, before it is marked read."""

    def page(self, one: str, other: str, after: str, limit: int) -> list[PrivateMessage]:
        found = super().page(one, other, after, limit)
        self.add(other, one, "written meanwhile", deliver=True)
        return found


def test_a_message_written_between_a_read_and_its_mark_stays_unread(client: redis.Redis) -> None:  # type: ignore[type-arg]
    inbox = Inbox(Racing(client, kept=100), Blocks(client, 10), Mutes(client), 600)
    inbox.conversations.add("ann", "bo", "TAKI tonight?", deliver=True)
    shown, _ = read(inbox, "bo", "ann", "0-0", 50)
    assert [message.text for message in shown] == ["TAKI tonight?"]
    assert unread(inbox, "bo") == 1  # the message written meanwhile
    shown, _ = read(inbox, "bo", "ann", shown[-1].id, 50)
    assert [message.text for message in shown] == ["written meanwhile"] and unread(inbox, "bo") == 1


def test_an_older_page_read_late_leaves_later_messages_read(client: redis.Redis) -> None:  # type: ignore[type-arg]
    conversations = Conversations(client, kept=100)
    first, second = (conversations.add("ann", "bo", text, deliver=True) for text in ("one", "two"))
    conversations.mark_read("bo", "ann", second.id)
    conversations.mark_read("bo", "ann", first.id)
    assert [conversation.unread for conversation in conversations.of("bo", frozenset())] == [0]
    conversations.add("bo", "ann", "mine", deliver=True)
    assert [conversation.unread for conversation in conversations.of("bo", frozenset())] == [0]  # one's own never counts
