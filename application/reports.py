"""Reports of messages and players: whoever may read a message (a game chat's, as application.chat lets
them; one of a conversation, as one of its two players) may report it with a reason, and any player may
report another; the report reaches the admin's queue (application.moderation) with a copy of the
message, or the player's name."""

from __future__ import annotations

from application import chat
from application.conversations import Inbox
from application.errors import Invalid, NotFound
from application.moderation import Filing, report
from events.chat import MESSAGE_ID, ChatStore
from events.envelope import GameRecord
from players.accounts import PlayerStore
from players.moderation import Report, Reported


def report_chat(store: ChatStore, filing: Filing, record: GameRecord, room: str, message_id: str,
                reader: chat.Reader, reporter: str, reason: str) -> Report:
    """Report a message of a game's room that `reader` (who is `reporter`) may read."""
    chat.check_on(record)
    if not MESSAGE_ID.fullmatch(message_id):
        raise _not_found()
    if (refusal := chat.may_read(record, room, reader)) is not None:
        raise refusal
    found = store.message(record.id, room, message_id)
    if found is None or not chat.may_see(found, reader):
        raise _not_found()
    reported = Reported("game", found.id, found.player_id, found.name, found.text, game_id=record.id, room=room)
    return report(filing, reported, reason, reporter)


def report_private(inbox: Inbox, players: PlayerStore, filing: Filing, reporter: str, other: str,
                   message_id: str, reason: str) -> Report:
    """Report a message of the reporter's conversation with `other`."""
    found = inbox.conversations.message(reporter, other, message_id) if MESSAGE_ID.fullmatch(message_id) else None
    if found is None or found.hidden:
        raise _not_found()
    author = players.get(found.author)
    one, two = sorted((reporter, other))
    reported = Reported("conversation", found.id, found.author, author.name if author else "", found.text, pair=(one, two))
    return report(filing, reported, reason, reporter)


def report_player(players: PlayerStore, filing: Filing, reporter: str, player_id: str, reason: str) -> Report:
    """Report a player (not a message of theirs) to the admin, who may mute them."""
    if player_id == reporter:
        raise Invalid("validation_error", "A player reports another player, not themselves.",
                      errors={"player_id": ["Is yours."]})
    found = players.get(player_id)
    if found is None:
        raise NotFound("player_not_found", "No registered player has this id.")
    return report(filing, Reported("player", "", found.id, found.name, ""), reason, reporter)


def _not_found() -> NotFound:
    return NotFound("message_not_found", "No message with this id is here for you to read.")
