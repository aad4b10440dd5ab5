"""What the admin moderates with, as stored: the reports of messages and players (a queue of open ones,
oldest first, and the closed ones, latest first, each kept for a time after it closed) and the
players muted until a time. A report keeps a copy of the message it names, so the queue reads in one
round trip whatever became of the message (a report of a player, a copy of their name)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import cast

import redis

from events import keys
from players.errors import TooManyOpen

QUEUE = 100  # the reports a read of the queue gives at most, of each status

# A reporter's (or an address's) open reports are counted and added to in one step: each set is in a slot of its
# own. 0: the set is full; 1: the report was in it already; 2: added.
_CLAIM = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
return 2
"""

# A report is written only while it is absent or open, in one step with that check: a report the admin
# decided meanwhile is never opened again (nor loses its expiry).
_FILE = """
local status = redis.call('HGET', KEYS[1], 'status')
if status and status ~= 'open' then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
redis.call('PERSIST', KEYS[1])
return 1
"""


@dataclass(frozen=True, slots=True)
class Reported:
    """What a report names: a message, where it was written (a `game` and its room, or a `conversation` and its
    two players), its id, who wrote it and what it said; or a `player`, by their id (its `author`) and name."""

    place: str  # "game", "conversation" or "player"
    message_id: str  # empty for a player
    author: str | None  # the writer's player id (the reported player's); None for a seat held without a player
    name: str
    text: str
    game_id: str | None = None  # a game's message: its game and room
    room: str | None = None
    pair: tuple[str, str] | None = None  # a conversation's message: its two players' ids, sorted

    @property
    def where(self) -> str:
        """Where it was written, as stored: "<game id> <room>", "<player id> <player id>" or the reported player's id."""
        if self.place == "game":
            return f"{self.game_id} {self.room}"
        return " ".join(self.pair) if self.pair is not None else self.author or ""

    @property
    def ref(self) -> str:
        """The message's (or the player's) name across the whole server."""
        return " ".join(part for part in (self.place, self.where, self.message_id) if part)


@dataclass(frozen=True, slots=True)
class Filer:
    """Who files a report, as the caps on open reports count them: the reporter and the client address they file from
    (service.limits.client_address), each holding at most its many open reports."""

    reporter: str
    address: str
    per_reporter: int
    per_address: int


@dataclass(frozen=True, slots=True)
class Report:
    """A report of a message or a player: why, by whom (a player's id, or a seat token's hash), when, and whether
    the admin has decided it (`open`, `hidden` or `dismissed`)."""

    id: str
    reason: str
    reporter: str
    time: int
    status: str
    message: Reported


class Reports:
    """The reports of every message and player, in one store."""

    def __init__(self, client: redis.Redis, kept_days: int) -> None:
        """`kept_days`: how long a closed report is kept (MEEPLE_CLOSED_REPORTS_DAYS)."""
        self.redis = client
        self.kept_ms = kept_days * 86_400_000
        self._claim = client.register_script(_CLAIM)
        self._file = client.register_script(_FILE)

    def add(self, message: Reported, reason: str, filer: Filer, now_ms: int) -> Report:
        """File a report; the same reporter reporting the same message again replaces their reason while
        the report is open, and finds it as it was once it is closed (never opened again while it is kept).
        Raises TooManyOpen when the reporter, or the address they file from, already holds as many open reports as
        it may, however many file at once."""
        reporter = filer.reporter
        report_id = hashlib.sha256(f"{reporter} {message.ref}".encode()).hexdigest()[:24]
        filed = self.get(report_id)
        if filed is not None and filed.status != "open":
            return filed
        self._take(report_id, filer)
        fields: dict[str, str | int] = {"reason": reason, "reporter": reporter, "address": filer.address, "time": now_ms,
                                        "status": "open", "place": message.place, "where": message.where,
                                        "message_id": message.message_id, "author": message.author or "",
                                        "name": message.name, "text": message.text}
        pipe = self.redis.pipeline(transaction=False)  # listed before it is written: a decision meanwhile unlists it
        pipe.zadd(keys.reports("open"), {report_id: now_ms})
        pipe.sadd(keys.reported(message.ref), report_id)
        pipe.execute()
        if not self._file(keys=[keys.report(report_id)], args=[part for pair in fields.items() for part in pair]):
            self._unlist(report_id, filer, message)
            return cast(Report, self.get(report_id))
        return Report(report_id, reason, reporter, now_ms, "open", message)

    def _take(self, report_id: str, filer: Filer) -> None:
        """Count the report among its reporter's open ones, then its address's, or in neither if either is full."""
        if not (claimed := self._claim(keys=[keys.reports_by(filer.reporter)], args=[report_id, filer.per_reporter])):
            raise TooManyOpen("reporter", filer.per_reporter)
        if not self._claim(keys=[keys.reports_from(filer.address)], args=[report_id, filer.per_address]):
            if claimed == 2:
                self.redis.srem(keys.reports_by(filer.reporter), report_id)
            raise TooManyOpen("address", filer.per_address)

    def _unlist(self, report_id: str, filer: Filer, message: Reported) -> None:
        """Take a decided report out of the lists of open ones, where a filing racing the decision put it."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(keys.reports("open"), report_id)
        pipe.srem(keys.reported(message.ref), report_id)
        pipe.srem(keys.reports_by(filer.reporter), report_id)
        pipe.srem(keys.reports_from(filer.address), report_id)
        pipe.execute()

    def get(self, report_id: str) -> Report | None:
        fields = cast(dict[bytes, bytes], self.redis.hgetall(keys.report(report_id)))
        return _report(report_id, fields) if fields else None

    def listed(self, status: str, after: str | None = None) -> tuple[list[Report], str | None]:
        """A page of the open reports, oldest first, or of the closed ones, latest closed first, after the
        cursor `after` (None: from the first); at most QUEUE, and the cursor of the next page (None: none)."""
        pairs = self._page(status, after)
        pipe = self.redis.pipeline(transaction=False)
        for report_id, _ in pairs:
            pipe.hgetall(keys.report(report_id))
        found = [_report(report_id, fields) for (report_id, _), fields in zip(pairs, pipe.execute(), strict=True)
                 if fields]
        return found, f"{pairs[-1][1]}-{pairs[-1][0]}" if len(pairs) == QUEUE else None

    def _page(self, status: str, after: str | None) -> list[tuple[str, int]]:
        """The ids and times (ms) of a page of `status` after the cursor `after` (`<time>-<id>`)."""
        key, oldest_first = keys.reports(status), status == "open"
        if after is None:
            pairs = (self.redis.zrange if oldest_first else self.redis.zrevrange)(key, 0, QUEUE - 1, withscores=True)
            return [(report_id.decode(), int(ms)) for report_id, ms in cast(list[tuple[bytes, float]], pairs)]
        time, last = after.split("-")
        ties = self.redis.zcount(key, time, time)  # reports of the same ms are in the order of their ids
        pairs = (self.redis.zrangebyscore(key, time, "+inf", 0, ties + QUEUE, withscores=True) if oldest_first
                 else self.redis.zrevrangebyscore(key, time, "-inf", 0, ties + QUEUE, withscores=True))
        later = [(report_id.decode(), int(ms)) for report_id, ms in cast(list[tuple[bytes, float]], pairs)]
        return [(report_id, ms) for report_id, ms in later
                if ms != int(time) or (report_id > last if oldest_first else report_id < last)][:QUEUE]

    def close(self, report: Report, status: str, now_ms: int) -> None:
        """Close the report as `status` and, when the message is hidden, every open report of it too, each
        kept `kept_days` from now. Reports closed longer ago leave the closed list."""
        closing = [report.id]
        if status == "hidden":
            closing = sorted({member.decode() for member in cast(set[bytes], self.redis.smembers(
                keys.reported(report.message.ref)))} | {report.id})
        pipe = self.redis.pipeline(transaction=False)
        for report_id in closing:
            pipe.hmget(keys.report(report_id), "reporter", "address")
        filers = cast(list[list[bytes | None]], pipe.execute())
        for report_id, (reporter, address) in zip(closing, filers, strict=True):
            if reporter is not None:
                pipe.srem(keys.reports_by(reporter.decode()), report_id)
            if address is not None:
                pipe.srem(keys.reports_from(address.decode()), report_id)
            pipe.hset(keys.report(report_id), "status", status)
            pipe.pexpire(keys.report(report_id), self.kept_ms)
            pipe.srem(keys.reported(report.message.ref), report_id)  # the message's open reports, as hiding it closes
            pipe.zrem(keys.reports("open"), report_id)
            pipe.zadd(keys.reports("closed"), {report_id: now_ms})
        pipe.zremrangebyscore(keys.reports("closed"), "-inf", f"({now_ms - self.kept_ms}")
        pipe.execute()


class Mutes:
    """The players the admin has muted, each until a time."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def mute(self, player_id: str, until_ms: int) -> None:
        self.redis.set(keys.muted(player_id), until_ms, pxat=until_ms)

    def unmute(self, player_id: str) -> bool:
        """Lift a mute; whether there was one."""
        return bool(self.redis.delete(keys.muted(player_id)))

    def until(self, player_id: str) -> int | None:
        """Until when the player is muted (ms since the epoch), or None."""
        until = cast(bytes | None, self.redis.get(keys.muted(player_id)))
        return None if until is None else int(until)


def _report(report_id: str, fields: dict[bytes, bytes]) -> Report:
    text = {name.decode(): value.decode() for name, value in fields.items()}
    message = _reported(text["place"], text["where"], text["message_id"], text["author"] or None, text["name"],
                        text["text"])
    return Report(report_id, text["reason"], text["reporter"], int(text["time"]), text["status"], message)


def _reported(place: str, where: str, message_id: str, author: str | None, name: str, text: str) -> Reported:
    """What a report names, from its stored fields (`where` as Reported.where gives it)."""
    if place == "game":
        game_id, room = where.split(" ")
        return Reported(place, message_id, author, name, text, game_id=game_id, room=room)
    if place == "conversation":
        one, other = where.split(" ")
        return Reported(place, message_id, author, name, text, pair=(one, other))
    return Reported(place, message_id, author, name, text)
