"""Live Server-Sent Events streams: a game's events as the caller may see them, and a
player's inbox. A game's stream waits on the store (a blocking stream read), so it costs one
connection and no polling; the inbox streams wait on the process's one reader of the feed
(service.announcements).

A browser's EventSource cannot send `Authorization`, so a page first exchanges its token for a
stream ticket (POST /v1/stream-tickets) and opens `…/stream?ticket=…`. A ticket opens one
stream, within 30 seconds; EventSource reconnects to the same URL, which a used ticket no longer
opens (401), so a page that loses its stream gets a new ticket and reopens it with
`&after=<the last id it received>`.

A client holds only so many streams open at once, per address and per token (service.leases):
one more is refused 429 `too_many_streams`."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context

from application import conversations
from application.chat import PAGE, Reader, caught_up, may_read
from domain import GAMES
from events.chat import ROOMS, ChatStore
from events.envelope import GameRecord, Lifecycle
from events.seats import hash_token
from events.store import EventStore
from events.tickets import TICKET_SECONDS, StreamGrant
from players.conversations import About
from service import auth
from service.api.chat import blocked_by, chat_message, chat_store
from service.api.context import announcements, executor, json_body, known_game, players, tickets, visible_version
from service.api.players import caller, inbox_entry, inbox_of, is_listed, messages, tournament_invitations
from service.errors import ApiError
from service.leases import Lease, StreamLeases
from service.limits import client_address
from service.schemas import responses
from service.schemas.common import StreamTicketSchema, parse

bp = Blueprint("streams", __name__, url_prefix="/v1")

LAST_EVENT_ID = re.compile(r"^\d{1,15}$")
RECONNECT_MS = 3000  # how long a client waits before it reconnects
CLOCK_WAKES = frozenset({"events", "clocks"})  # what wakes a game's stream to read its clocks again (and each heartbeat)


def sse(data: dict[str, Any], event_id: str | int | None = None, event: str | None = None) -> str:
    """One Server-Sent Events message."""
    head = (f"id: {event_id}\n" if event_id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


def leases() -> StreamLeases:
    return current_app.extensions["meeple.leases"]  # type: ignore[no-any-return]


def event_stream(messages: Iterator[str], holder: str | None, holds: Callable[[], bool] | None) -> Response:
    """The stream of `messages`, once the client (its address, and `holder`'s token) has a place
    for one more; the place is kept as long as the stream is open, which is no longer than what it
    was opened with `holds` (auth.stream_holds; None: nothing to look at)."""
    lease = leases().take(client_address(), holder)
    check = current_app.config["MEEPLE_STREAM_HEARTBEAT_MS"] / 1000
    answer = Response(stream_with_context(_renewing(messages, lease, holds, check)), mimetype="text/event-stream",
                      headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    answer.call_on_close(lease.release)  # however the stream ends, even before its first message
    if (connection := request.environ.get("gunicorn.socket")) is not None:  # none under a test client
        # a send the client does not take in time gives up, and the server closes the connection
        # (service.serving) before the lease can lapse; once the stream ends, reads wait as before
        connection.settimeout(leases().send_seconds)
        answer.call_on_close(lambda: connection.settimeout(None))
    return answer


def _renewing(messages: Iterator[str], lease: Lease, holds: Callable[[], bool] | None,
              check_seconds: float) -> Iterator[str]:
    """`messages` while the lease is renewed, until what the stream was opened with, looked at every
    `check_seconds` (a heartbeat comes at least as often), no longer `holds` (a token revoked or replaced)."""
    checked = time.monotonic()
    for message in messages:
        if holds is not None and time.monotonic() - checked >= check_seconds:
            checked = time.monotonic()
            if not holds():
                return  # a new stream needs a new ticket, which a revoked token is refused
        lease.renew()
        yield message


def resume_after() -> int:
    """The last version the client has: `Last-Event-ID` on a reconnect, else `?after=`, else 0."""
    value = request.headers.get("Last-Event-ID", request.args.get("after", "0")).strip()
    if not LAST_EVENT_ID.match(value):
        raise ApiError(422, "validation_error", "Last-Event-ID (or `after`) must be a game version such as 12.")
    return int(value)


@bp.post("/stream-tickets")
def issue_stream_ticket() -> tuple[dict[str, Any], int]:
    """A ticket that opens one stream, once, within 30 s, as the request's token would: a game's
    stream as the token's seat, or the token's player's inbox."""
    body = parse(StreamTicketSchema, json_body())
    if body["stream"] == "inbox":
        grant = StreamGrant(caller().id, token=hash_token(auth.bearer_token() or ""))
        path = "/v1/players/me/inbox/stream"
    else:
        store = executor().store
        record = store.games.get(known_game(body["game_id"]))
        grant, path = auth.seat_grant(store, record, players()), f"/v1/games/{record.id}/stream"
    ticket = tickets().issue(grant)
    return {"ticket": ticket, "expires_in": TICKET_SECONDS, "url": f"{path}?ticket={ticket}"}, 201


@bp.get("/games/<game:game_id>/stream")
def game_stream(game_id: str) -> Response:
    """The game's events after the client's last one, then each new one as it is appended, and a
    `clock` message each time its clocks change with no event (a vacation, a weekend); the
    stream ends with an `end` message once the game is over and every event was sent, or once it
    is cancelled."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    after = resume_after()  # before a ticket is used up, so that a bad resume point does not waste it
    seat = auth.stream_seat(store, tickets(), players(), record)
    watcher = auth.stream_watcher()
    if record.status is Lifecycle.CANCELLED or (record.status is Lifecycle.FINISHED and after >= record.version):
        return Response(status=204)  # tells EventSource not to reconnect
    talk = _Talk(chat_store(), record, seat, watcher)  # its messages from here on
    return event_stream(_game_messages(store, talk, seat, after, current_app.config["MEEPLE_STREAM_HEARTBEAT_MS"]),
                        _holder(record, seat) or watcher, auth.stream_holds(store, players(), record))


@bp.get("/games/<game:game_id>/chat-stream")
def chat_stream(game_id: str) -> Response:
    """The messages written in the game's chat from now on, in the rooms the caller may read, for as long
    as the client listens: a finished game's table talks on after its event stream ended."""
    store = executor().store
    record = store.games.get(known_game(game_id))
    seat = auth.stream_seat(store, tickets(), players(), record)
    watcher = auth.stream_watcher()
    if record.status is Lifecycle.CANCELLED or not record.chat:
        return Response(status=204)  # nothing will be said: EventSource does not reconnect
    talk = _Talk(chat_store(), record, seat, watcher)
    return event_stream(_chat_messages(store, talk, seat, current_app.config["MEEPLE_STREAM_HEARTBEAT_MS"]),
                        _holder(record, seat) or watcher, auth.stream_holds(store, players(), record))


def _chat_messages(store: EventStore, talk: _Talk, seat: int | None, heartbeat_ms: int) -> Iterator[str]:
    yield f"retry: {RECONNECT_MS}\n\n"
    while True:
        record = store.games.get(talk.game_id)
        yield from talk.said(record, Reader(seat, visible_version(record, seat), blocked=blocked_by(talk.player)))
        if not talk.wait(record.version, heartbeat_ms):
            yield ": still here\n\n"


def _holder(record: GameRecord, seat: int | None) -> str | None:
    """Whose token a game's stream counts against: the registered player's holding the seat, else
    the seat's own token's (its SHA-256); no one's for a spectator (but a watching player's own)."""
    if seat is None:
        return None
    return record.holders.get(seat) or next((digest for digest, held in record.token_seats.items() if held == seat), None)


def _game_messages(store: EventStore, talk: _Talk, seat: int | None, sent: int, heartbeat_ms: int) -> Iterator[str]:
    game_id = talk.game_id
    yield f"retry: {RECONNECT_MS}\n\n"
    clocks, woken = _Clocks(store, seat), frozenset[str]()  # what woke the stream last (none: a heartbeat, or not waited yet)
    while True:
        record = store.games.get(game_id)
        if record.status is Lifecycle.CANCELLED:
            yield sse({"version": 0, "status": record.status}, event="end")
            return
        visible = visible_version(record, seat)
        finished = record.status is Lifecycle.FINISHED
        game, mark, before = GAMES[record.game], clocks.mark(record), sent
        while sent < visible:
            for envelope in store.streams.read(game_id, after=sent, limit=min(500, visible - sent)):
                yield sse(responses.event(envelope, game, seat, finished), envelope.version)
                sent = envelope.version
        yield from talk.said(record, Reader(seat, visible, blocked=blocked_by(talk.player)))  # a block made since counts
        if finished:
            yield sse({"version": sent, "status": record.status}, event="end")
            return
        if not woken or sent != before or woken & CLOCK_WAKES:  # not for a chat message alone
            yield from clocks.told(record, visible, mark, sent != before)
        if not (woken := talk.wait(record.version, heartbeat_ms, mark)):
            yield ": still here\n\n"


class _Clocks:
    """The `clock` messages of a game's stream: its deadlines and clocks at the version its reader sees, as
    they may see them (responses.shown_clocks), each time what they show changes with no event: a vacation
    begun or ended (which wakes the stream), a weekend begun or over (noticed within a heartbeat)."""

    def __init__(self, store: EventStore, seat: int | None) -> None:
        self.store, self.seat = store, seat
        self.shown: str | None = None  # what the clocks showed when last told, or sent with an event
        self.read_at: tuple[int, str | None] | None = None  # the past version and clocks mark they were last read at

    def mark(self, record: GameRecord) -> str | None:
        """The latest mark that the game's clocks moved, for the stream to wait past; None without a time control."""
        return self.store.feed.clocks_told(record.id) if record.deadline is not None else None

    def told(self, record: GameRecord, visible: int, mark: str | None, evented: bool) -> Iterator[str]:
        """A `clock` message if what the clocks show at `visible` changed since last told and no event was
        just sent (a reader reads the game again for an event); at a past version (a spectator's delay)
        they are read once for each mark that the clocks moved, as only a vacation moves them."""
        if record.deadline is None or visible == 0 or (visible != record.version and self.read_at == (visible, mark)):
            return
        loaded = executor().load(record.id, None if visible == record.version else visible)
        if loaded.version != visible:
            return  # an event was appended since the record was read: the stream sends it first
        self.read_at = (visible, mark) if visible != record.version else None
        fields = responses.shown_clocks(self.store, loaded, self.seat)
        if (marks := responses.clock_marks(fields)) != self.shown and not evented:
            yield sse({"version": visible, **fields}, event="clock")
        self.shown = marks


class _Talk:
    """The chat a game's stream sends as `chat` messages: what is written in the rooms its reader may
    read after the last message they could see when it opened (earlier ones are read page by page), each once;
    and as `chat_hidden`
    messages, the messages of those rooms the admin hides."""

    def __init__(self, chat: ChatStore, record: GameRecord, seat: int | None, watcher: str | None) -> None:
        self.chat, self.game_id, self.watcher = chat, record.id, watcher
        visible = visible_version(record, seat)  # what is written past it comes once the reader sees it
        self.last = {room: chat.last_seen(record.id, room, visible) for room in ROOMS} if record.chat else {}
        self.readable: list[str] = []  # the rooms the reader may read now (a watcher who sits loses the spectators')
        self.waiting: set[str] = set()  # rooms holding a message written past what the reader sees yet
        self.hidden = chat.last_hide(record.id)  # the latest hide told
        self.player = record.holders.get(seat) if seat is not None else watcher  # whose blocks apply

    def said(self, record: GameRecord, reader: Reader) -> Iterator[str]:
        """The messages since the last sent that `reader` sees now in the rooms they may read in `record` (the
        game now), then a `chat_hidden` message for each message of those rooms that the admin hid since."""
        seat = reader.seat if self.watcher is None else record.seat_of(self.watcher)
        self.readable = [room for room in self.last if may_read(record, room, Reader(seat, reader.visible, player_id=self.watcher))
                         is None]
        for room in self.readable:
            last = self.last[room]
            messages, self.last[room], held = caught_up(self.chat.page(self.game_id, room, last, PAGE), reader, last)
            (self.waiting.add if held else self.waiting.discard)(room)
            for said in messages:
                yield sse(chat_message(said), event="chat")
        for hide in self.chat.hides(self.game_id, self.hidden) if self.last else []:
            self.hidden = hide.id
            if hide.room in self.readable:
                yield sse({"id": hide.message_id, "room": hide.room}, event="chat_hidden")

    def wait(self, version: int, heartbeat_ms: int, clocks: str | None = None) -> frozenset[str]:
        """Block until the game passes `version`, a room with nothing held back has a new message, one is
        hidden or, past the mark `clocks` if given, the game's clocks move: what woke it (events.chat.ChatStore.wait)."""
        rooms = {room: self.last[room] for room in self.readable if room not in self.waiting}
        return self.chat.wait(self.game_id, version, rooms, self.hidden, heartbeat_ms, clocks)


@bp.get("/players/me/inbox/stream")
def inbox_stream() -> Response:
    """The player's inbox now (an `inbox` message), then a `game` message each time one of
    their games changes whose turn it is, their seat or invitation, or ends, a `gone`
    message for a game that left it (an invitation declined, a game cancelled and removed), a
    `messages` message when their unread count changes and a `tournaments` message (all their
    invitations to tournaments) when one arrives, is declined or answered, or its tournament starts."""
    player = auth.stream_player(players(), tickets())
    position = announcements().position()
    return event_stream(_inbox_messages(player.id, position, inbox_of(player.id),
                                        current_app.config["MEEPLE_STREAM_HEARTBEAT_MS"]), player.id,
                        auth.stream_holds(executor().store, players()))


def _inbox_messages(player_id: str, position: int, snapshot: dict[str, Any], heartbeat_ms: int) -> Iterator[str]:
    yield f"retry: {RECONNECT_MS}\n\n"
    yield sse(snapshot, position, "inbox")
    shown = {entry["game"]["id"]: _headline(entry) for entry in snapshot["games"]}
    unread, invited = snapshot["unread_messages"], snapshot["tournaments"]
    said = time.monotonic()  # when the stream last sent something: other players' games may be all that moves
    while True:
        since = announcements().after(position, heartbeat_ms / 1000)
        position, announced = since.position, since.games
        if announced != []:
            mine = players().games(player_id)
            for game_id in [game for game in shown if game not in mine]:
                del shown[game_id]
                said = time.monotonic()
                yield sse({"game_id": game_id}, position, "gone")
            for event, data in _changes(player_id, shown, mine if announced is None else [g for g in announced if g in mine]):
                said = time.monotonic()
                yield sse(data, position, event)
        if since.concerns(player_id, About.MESSAGES) and unread != (unread := conversations.unread(messages(), player_id)):
            said = time.monotonic()
            yield sse({"unread_messages": unread}, position, "messages")
        if since.concerns(player_id, About.TOURNAMENTS) and invited != (invited := tournament_invitations(player_id)):
            said = time.monotonic()
            yield sse({"tournaments": invited}, position, "tournaments")
        if announced == [] or time.monotonic() - said >= heartbeat_ms / 1000:
            said = time.monotonic()
            yield ": still here\n\n"


def _changes(player_id: str, shown: dict[str, Any], game_ids: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """What the inbox stream tells of the player's games `game_ids`, as a snapshot would list them now: a `game` whose
    headline changed, or `gone` for one listed no more; `shown` kept up to date."""
    for game_id in dict.fromkeys(game_ids):
        entry = inbox_entry(game_id, player_id)
        if not is_listed(entry):
            if shown.pop(game_id, None) is not None:
                yield "gone", {"game_id": game_id}
        elif shown.get(game_id) != (headline := _headline(entry)):
            shown[game_id] = headline
            yield "game", entry


def _headline(entry: dict[str, Any]) -> tuple[bool, str, int | None, int | None]:
    """What an inbox shows of a game that a change of it tells again."""
    return entry["your_turn"], entry["game"]["status"], entry["seat"], entry["invitation"]
