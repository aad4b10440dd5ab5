"""Messages between players, for arranging games: a conversation between two registered players,
read page by page, each player's list of conversations with how many of its messages they have not
read. A message is the game chat's plain text (application.chat.MAX_LENGTH), counted against the
same writing limit. A player blocked by the recipient writes as before and is never told, but the
message reaches neither the recipient's list nor their unread count nor their mail, and nothing the
blocked player wrote, before or after the block, shows in what the blocker reads. A message hidden
by the admin shows to neither player."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from application.errors import Invalid
from application.moderation import mute_refusal
from application.outbox import first_in, mail_player
from players.accounts import Player
from players.blocks import Blocks
from players.conversations import Conversation, Conversations, PrivateMessage
from players.moderation import Mutes


@dataclass(frozen=True, slots=True)
class Inbox:
    """What one player's messages need: the conversations, the players they block, the mutes, and how long
    one writer's messages to a player wait after one is mailed (MEEPLE_CHAT_MAIL_SECONDS)."""

    conversations: Conversations
    blocks: Blocks
    mutes: Mutes
    mail_seconds: int

    @classmethod
    def on(cls, client: redis.Redis, blocks: Blocks, mail_seconds: int, kept: int) -> Inbox:
        """`kept`: how many of a conversation's latest messages are kept (MEEPLE_CONVERSATION_KEPT)."""
        return cls(Conversations(client, kept), blocks, Mutes(client), mail_seconds)


def send(inbox: Inbox, author: Player, recipient: str, text: str) -> PrivateMessage:
    """Write to `recipient`, and mail them (the `message` kind) unless they block the author or were mailed
    the author's words within `mail_seconds`."""
    if author.id == recipient:
        raise Invalid("validation_error", "A player writes to another player, not to themselves.",
                      errors={"player_id": ["Is yours."]})
    if (refusal := mute_refusal(inbox.mutes.until(author.id))) is not None:
        raise refusal
    delivered = not inbox.blocks.blocking([recipient], author.id)
    message = inbox.conversations.add(author.id, recipient, text, delivered)
    if delivered and first_in(inbox.conversations.redis, recipient, author.id, "conversation", inbox.mail_seconds):
        mail_player(inbox.conversations.redis, recipient, "message", f"{recipient}-message-{author.id}-{message.id}",
                    author=author.name, author_id=author.id, text=text)
    return message


def read(inbox: Inbox, reader: str, other: str, after: str, limit: int) -> tuple[list[PrivateMessage], str | None]:
    """A page of the reader's conversation with `other` after the message `after`, as the reader may see
    it, and the id to read the next page after (None: none yet); the conversation is read up to the page's last
    message, so that one written since stays unread."""
    page = inbox.conversations.page(reader, other, after, limit)
    blocked = bool(inbox.blocks.blocking([reader], other))
    if page:
        inbox.conversations.mark_read(reader, other, page[-1].id)
    shown = [message for message in page if not message.hidden and not (blocked and message.author == other)]
    return shown, page[-1].id if len(page) == limit else None


def listing(inbox: Inbox, player_id: str) -> list[Conversation]:
    """The player's conversations, latest first, but those with players they block."""
    return inbox.conversations.of(player_id, frozenset(other for other, _ in inbox.blocks.of(player_id)))


def unread(inbox: Inbox, player_id: str) -> int:
    """How many messages the player has not read, but those of players they block."""
    return sum(conversation.unread for conversation in listing(inbox, player_id))
