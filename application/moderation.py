"""Keeping it civil: anyone who reads a message may report it, with a reason; the admin reads the
queue of reports and, for each, hides the message (it stays in storage, marked hidden, and every
report of it closes) or dismisses the report; the admin mutes a player until a time, and a muted
player is told so, and until when, when they write. A guest (a seat held without a player) writes, reports
and is muted as their seat of that game (`guest`): a new token for the seat is the same guest. Blocks are the blocker's own
(players.blocks): a blocked player's messages reach neither the blocker's conversations
(application.conversations) nor what they read of a game's chat (application.chat)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from application.errors import Forbidden, NotFound, NotNow
from events.chat import MESSAGE_ID, ChatStore
from events.clock import now
from events.envelope import GameRecord
from players.conversations import Conversations
from players.errors import TooManyOpen
from players.moderation import Filer, Mutes, Report, Reported, Reports

MAX_REASON = 500  # characters of a report's reason
MAX_MUTE_MINUTES = 366 * 24 * 60  # the longest mute: a year


def guest(game_id: str, seat: int) -> str:
    """Who a guest is, for the writing quota, their reports and mutes: their seat of the game, whatever its token."""
    return f"{game_id}:{seat}"


def speaker(record: GameRecord, seat: int | None, player_id: str | None) -> str | None:
    """Under which key a reader of the game writes, reports and is muted: their registered player, or else the
    guest seat they hold (None: neither)."""
    return player_id or (guest(record.id, seat) if seat is not None else None)


def mute_refusal(until: int | None) -> Forbidden | None:
    """Why a player muted until `until` (ms since the epoch; None: not muted) may not write, or None: the
    detail says until when, in words and as ISO 8601, both in UTC."""
    if until is None:
        return None
    at = datetime.fromtimestamp(until / 1000, UTC)
    return Forbidden("muted", f"The admin has muted you until {at.day} {at:%B %Y, %H:%M} UTC ({at:%Y-%m-%dT%H:%M:%SZ}): "
                     "you cannot write before then.", until=until)


@dataclass(frozen=True, slots=True)
class Filing:
    """Where reports are filed: the reports, the mutes (a muted player reports nothing, as they write
    nothing), how many open reports one reporter may hold (MEEPLE_OPEN_REPORTS_PER_REPORTER), the client address
    the report comes from (hashed) and how many open reports one address may hold (MEEPLE_OPEN_REPORTS_PER_ADDRESS):
    guests of many games, each a reporter of its own, from one address fill the admin's queue no further."""

    reports: Reports
    mutes: Mutes
    per_reporter: int
    address: str
    per_address: int


def report(filing: Filing, message: Reported, reason: str, reporter: str) -> Report:
    """File a report of a message its reporter may read."""
    if (refusal := mute_refusal(filing.mutes.until(reporter))) is not None:
        raise refusal
    try:
        return filing.reports.add(message, reason, Filer(reporter, filing.address, filing.per_reporter, filing.per_address),
                                  now())
    except TooManyOpen as full:
        whose = "You have" if full.whose == "reporter" else "Your address has"
        raise NotNow("too_many_reports", f"{whose} {full.limit} reports open: wait for the admin to decide some before "
                     "you report more.", limit=full.limit) from None


def decide(reports: Reports, found: Report, hide: bool, chat: ChatStore, conversations: Conversations) -> None:
    """Close an open report: hide its message (and close every report of it) or dismiss it."""
    if found.status != "open":
        raise NotNow("report_closed", f"The report is closed already ({found.status}).")
    if hide and found.message.place == "player":
        raise NotNow("nothing_to_hide", "A report of a player names no message to hide: dismiss it, or mute the player.")
    if hide:
        _hide(found.message, chat, conversations)
    reports.close(found, "hidden" if hide else "dismissed", now())


def mute(mutes: Mutes, player_id: str, minutes: int) -> int:
    """Mute the player for `minutes` from now; until when (ms since the epoch)."""
    until = now() + minutes * 60_000
    mutes.mute(player_id, until)
    return until


def writer(chat: ChatStore, record: GameRecord, room: str, message_id: str) -> tuple[str | None, int | None, str]:
    """Who wrote a message of the game's chat, as a mute silences them: the writer stored with it (its registered
    player, or the guest seat that wrote it); the player's id (None: a guest), the seat, the mute's subject."""
    said = chat.message(record.id, room, message_id) if MESSAGE_ID.fullmatch(message_id) else None
    if said is None:
        raise NotFound("message_not_found", "No message with this id is in this room.")
    subject = said.writer or speaker(record, said.seat, said.player_id)
    if subject is None:
        raise NotNow("writer_gone", "The message names no writer a mute could silence.")
    return said.player_id, said.seat, subject


def _hide(message: Reported, chat: ChatStore, conversations: Conversations) -> None:
    if message.game_id is not None and message.room is not None:
        chat.hide(message.game_id, message.room, message.message_id)
    elif message.pair is not None:
        conversations.hide(*message.pair, message.message_id)
