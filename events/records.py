"""Game records (what the store keeps about a game beside its events) and the indexes that list
them: every game by creation time, each status's games by when they took it (the sweep reads
these), and the same of the listed games alone for the listing's pages. Each index is split into
the store's shards (events.shards)."""

from __future__ import annotations

import dataclasses
import heapq
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import redis
from redis.client import Pipeline

from domain import GAMES
from domain.core.game import Budget
from events import clock, keys, scripts, snapshots
from events.chat import ROOMS
from events.envelope import GameRecord, Lifecycle, Origin, TurnDeadline
from events.errors import GameNotFound
from events.feed import Feed
from events.shards import Shards

PARTS = 6  # the hashes a game's record is read from (ask)
LINK = "link:"  # a reservation's value for whoever sends its code (a player's id holds no colon), before the code
DEVICE = b"device:"  # before a seat, the field of a game's meta hash that names the device its token was given to
_FILE_LISTED = scripts.source("file_listed.lua")
# a cursor as a client sees it: every text of this form is one (the spec states it, so no text
# a client may send is refused)
CURSOR_PATTERN = "^[0-9]{1,15}\\.[A-Za-z0-9_-]{1,64}$"


@dataclass(frozen=True, order=True, slots=True)
class Cursor:
    """Where a page of a listing ended: the score (a time in ms) and id of its last game (or tournament)."""

    # listings run newest first, games of the same time by id backwards: the next page starts before this pair
    score: int
    game_id: str

    def code(self) -> str:
        """The cursor as a client sees it (`<score>.<game id>`; to a client, opaque)."""
        return f"{self.score}.{self.game_id}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        """The cursor `code` wrote; raises ValueError."""
        if not re.fullmatch(CURSOR_PATTERN, text, re.ASCII):
            raise ValueError("not a cursor")
        score, _, game_id = text.partition(".")
        return cls(int(score), game_id)


class GameRecords:
    """The records of the games in one Redis server or cluster, and their indexes."""

    def __init__(self, client: redis.Redis, shards: Shards, feed: Feed) -> None:
        """`feed` is told of the games a sweep finds filed under a status they have left."""
        self.redis = client
        self.shards = shards
        self.feed = feed
        self._purge = scripts.register(client, "purge_lobby.lua")
        self._forget_rematch = scripts.register(client, "forget_rematch.lua")

    def create(
        self, game_id: str, game: str, options: dict[str, Any], seats: int, deadline: TurnDeadline | None = None,
        spectator_delay: int = 0, forked_from: Origin | None = None, lobby_seconds: int | None = None,
        unlisted: bool = False, reserved: Mapping[int, str] | None = None, rematch_of: str | None = None,
        imported: bool = False, original_id: str | None = None, creator: str | None = None, checked: str | None = None,
        private_origin: bool = False, links: Mapping[int, str] | None = None, invitees: Mapping[int, str] | None = None,
        rated: bool = False, chat: bool = True,
    ) -> GameRecord:
        """A game waiting for its players; cancelled `lobby_seconds` from now if seats are still free.

        An `unlisted` game is in no listing; a `reserved` seat (seat → player id) is its player's only,
        `invitees` their names; a seat of `links` (seat → code) is for whoever sends its code; an
        `imported` game may name its log's `original_id` and says how its log was `checked`; `private_origin` marks a copy of an unlisted game;
        a `rated` game's result counts for its players' ratings; a game without `chat` keeps it off for good."""
        now = clock.now()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.meta(game_id), mapping={
            "game": game, "options": json.dumps(options), "seats": seats, "status": Lifecycle.WAITING, "version": 0,
            "created": now, "deadline": json.dumps(None if deadline is None else dataclasses.asdict(deadline)),
            "spectator_delay": spectator_delay,
            "forked_from": json.dumps(None if forked_from is None else dataclasses.asdict(forked_from)),
            **({} if chat else {"chat": "off"}),
        })
        if lobby_seconds is not None:
            pipe.hset(keys.meta(game_id), "lobby_until", now + lobby_seconds * 1000)
        if unlisted:
            pipe.hset(keys.meta(game_id), "unlisted", 1)
        if rematch_of is not None:
            pipe.hset(keys.meta(game_id), "rematch_of", rematch_of)
        if imported:
            pipe.hset(keys.meta(game_id), mapping={"imported": 1, **({} if checked is None else {"checked": checked})})
        if original_id is not None:
            pipe.hset(keys.meta(game_id), "original_id", original_id)
        if creator is not None:
            pipe.hset(keys.meta(game_id), "creator", creator)
        if private_origin:
            pipe.hset(keys.meta(game_id), "private_origin", 1)
        if rated:
            pipe.hset(keys.meta(game_id), "rated", 1)
        _reserve(pipe, game_id, reserved or {}, links or {}, invitees or {})
        shard = self.shards.of(game_id)
        pipe.zadd(keys.game_index(shard), {game_id: now})
        pipe.zadd(keys.games_with_status(Lifecycle.WAITING, shard), {game_id: now})
        if not unlisted:
            _list(pipe, game_id, game, Lifecycle.WAITING, shard, now, now)
        pipe.execute()
        return self.get(game_id)

    def get(self, game_id: str) -> GameRecord:
        """The game's record; raises GameNotFound."""
        pipe = self.redis.pipeline(transaction=False)
        ask(pipe, game_id)
        return parse(game_id, *pipe.execute())

    def page(self, game: str | None, status: Lifecycle | None, after: Cursor | None,
             limit: int) -> tuple[list[GameRecord], Cursor | None]:
        """The listed games of `game` with `status` (None: any) after `after`, newest first, and the next cursor."""
        indexes = [keys.listed(game, status, shard) for shard in self.shards.names]
        found: list[GameRecord] = []
        while len(found) < limit:
            wanted = limit - len(found)
            entries = self._newest(indexes, after, wanted + 1)  # at most wanted + 1 entries a shard
            shown = entries[:wanted]
            for record in self._records([entry.game_id for entry in shown]):
                # an index lags its game by an append's round trip: a game that left `status` is passed over
                if record is not None and (status is None or record.status == status):
                    found.append(record)
            if len(entries) <= wanted:
                return found, None
            after = shown[-1]
        return found, after

    def _newest(self, indexes: list[str], after: Cursor | None, count: int) -> list[Cursor]:
        """The first `count` entries after `after` of the index split in `indexes`, newest first, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for index in indexes:
            _ask_after(pipe, index, after, 0, count)
        entries: list[Cursor] = []
        for index, pairs in zip(indexes, pipe.execute(), strict=True):
            entries += entries_after(self.redis, index, after, count, pairs)
        return heapq.nlargest(count, entries)

    def _records(self, ids: list[str]) -> list[GameRecord | None]:
        """The records of the games `ids`, None for one that is gone (or failed to be created)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in ids:
            ask(pipe, game_id)
        answers = pipe.execute()
        return [parse(game_id, *answers[n * PARTS:(n + 1) * PARTS]) if answers[n * PARTS] else None
                for n, game_id in enumerate(ids)]

    def name_rematch(self, game_id: str, rematch_id: str) -> str:
        """Name `rematch_id` as the game's rematch unless it already has one; the rematch it names."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(keys.meta(game_id), "rematch", rematch_id)
        pipe.hget(keys.meta(game_id), "rematch")
        return cast(bytes, pipe.execute()[1]).decode()

    def fix_time_zones(self, game_id: str, zones: Mapping[int, str]) -> None:
        """Fix the time zone of each seat's weekends for the rest of the game, unless already fixed."""
        self.redis.hsetnx(keys.meta(game_id), "time_zones", json.dumps({str(seat): zone for seat, zone in zones.items()}))

    def keep_vacations(self, game_id: str, vacations: Mapping[int, Sequence[tuple[int, int]]]) -> None:
        """Keep the vacations an imported game's log gives, seat → (start, end) spans."""
        self.redis.hset(keys.meta(game_id), "vacations", json.dumps({str(seat): spans for seat, spans in vacations.items()}))

    def discard(self, game_id: str) -> None:
        """Delete a game that never started and nobody was told of (a rematch that lost a race), and unfile it."""
        pipe = self.redis.pipeline(transaction=False)
        for key in _own_keys(game_id):
            pipe.delete(key)  # one at a time: a cluster's pipeline sends no DEL of several keys
        self._unfile(pipe, game_id)
        pipe.execute()

    def cancelled_before(self, before_ms: int) -> Iterator[str]:
        """The ids of the games cancelled before `before_ms`, oldest first, a hundred a read as `purge` takes them."""
        for shard in self.shards.names:
            index, previous = keys.games_with_status(Lifecycle.CANCELLED, shard), set[str]()
            while ids := [raw.decode() for raw in cast(list[bytes], self.redis.zrangebyscore(
                    index, "-inf", before_ms, start=0, num=100))]:
                if ids[0] in previous:
                    break  # a game that could not be taken out: the next sweep tries again
                yield from ids
                previous = set(ids)

    def purge(self, game_id: str, markers: Callable[[GameRecord], list[str]]) -> bool:
        """Delete a cancelled game and everything that names it; whether it did (not unless cancelled).

        A game filed as cancelled that is not is filed under its own status instead."""
        try:
            record = self.get(game_id)
        except GameNotFound:
            record = None
        if record is not None and record.status is not Lifecycle.CANCELLED:
            filing = self.redis.pipeline(transaction=False)
            self._refile(filing, game_id, Lifecycle.CANCELLED, record.status.encode())
            filing.execute()
            return False
        pipe = self.redis.pipeline(transaction=False)
        if record is not None:  # out of the inboxes first: an inbox never names a game that is gone
            for player_id in {*record.holders.values(), *record.reserved.values()}:
                pipe.zrem(keys.player_games(player_id), game_id)
            pipe.execute()
            game_keys = [*_own_keys(game_id), *(keys.notified(game_id, marker) for marker in markers(record))]
            if not self._purge(keys=game_keys):
                return False
            if record.rematch_of is not None:  # in its origin's slot: the origin may be offered again
                self._forget_rematch(keys=[keys.meta(record.rematch_of)], args=[game_id])
        self._unfile(pipe, game_id)
        pipe.execute()
        return record is not None

    def _unfile(self, pipe: Pipeline, game_id: str) -> None:
        """Queue on `pipe` the removal of a game from every index."""
        shard = self.shards.of(game_id)
        pipe.zrem(keys.game_index(shard), game_id)
        for status in Lifecycle:
            pipe.zrem(keys.games_with_status(status, shard), game_id)
        for game in (None, *GAMES):
            for listed_status in (None, *Lifecycle):
                pipe.zrem(keys.listed(game, listed_status, shard), game_id)

    def count_by_status(self) -> dict[Lifecycle, int]:
        """How many games have each status, as the status indexes hold them (a lost ending shows until a sweep)."""
        pipe = self.redis.pipeline(transaction=False)
        for status in Lifecycle:
            for shard in self.shards.names:
                pipe.zcard(keys.games_with_status(status, shard))
        counts = iter(pipe.execute())
        return {status: sum(next(counts) for _ in self.shards.names) for status in Lifecycle}

    def indexed(self, status: Lifecycle) -> Iterator[tuple[str, bool]]:
        """The ids of the games with `status`, oldest first, each with whether every seat is taken.

        The index of games in play may hold a game that is over, never lack one that is not. A game
        found under a status it has left is refiled and announced again, so its change is told even
        when its process died before telling."""
        for shard in self.shards.names:
            yield from self._indexed(status, shard)

    def _indexed(self, status: Lifecycle, shard: str) -> Iterator[tuple[str, bool]]:
        index, position = keys.games_with_status(status, shard), 0
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
                    self._refile(filing, game_id, status, actual)
                    moved += 1
            filing.execute()
            position += len(ids) - moved

    def ended(self, game_id: str) -> int | None:
        """When the game was filed as finished (ms since the epoch), if it was."""
        took = self.redis.zscore(keys.games_with_status(Lifecycle.FINISHED, self.shards.of(game_id)), game_id)
        return None if took is None else int(took)

    def refile_finished_since(self, since_ms: int) -> int:
        """Refile and announce each game filed as finished since `since_ms` that its record says is not; how many."""
        # A failover that lost a game's last appends keeps the filing made after them (another slot):
        # the game would be in play but never swept. Only the latest writes are lost: look at recent filings.
        moved = 0
        for shard in self.shards.names:
            index = keys.games_with_status(Lifecycle.FINISHED, shard)
            ids = [raw.decode() for raw in cast(list[bytes], self.redis.zrangebyscore(index, since_ms, "+inf"))]
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hget(keys.meta(game_id), "status")
            filing = self.redis.pipeline(transaction=False)
            for game_id, actual in zip(ids, pipe.execute(), strict=True):
                if actual is not None and actual != Lifecycle.FINISHED.encode():
                    self._refile(filing, game_id, Lifecycle.FINISHED, actual)
                    moved += 1
            filing.execute()
        return moved

    def _refile(self, pipe: Pipeline, game_id: str, filed: Lifecycle, actual: bytes | None) -> None:
        """Queue on `pipe` the move of a game from `filed` to its record's status `actual` (None: gone)."""
        self.file(pipe, game_id, filed, None if actual is None else Lifecycle(actual.decode()), clock.now())
        if actual is not None:
            self.feed.announce(pipe, game_id)

    def build_status_index(self) -> None:
        """File every game under its status, once: for a store written before the status indexes."""
        if self.redis.exists(keys.status_index_built()):
            return
        for ids in self._every_game():
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hmget(keys.meta(game_id), "status", "created")
            filing = self.redis.pipeline(transaction=False)
            for game_id, (status, created) in zip(ids, pipe.execute(), strict=True):
                if status is not None:
                    index = keys.games_with_status(Lifecycle(status.decode()), self.shards.of(game_id))
                    filing.zadd(index, {game_id: int(created)}, nx=True)
            filing.execute()
        self.redis.set(keys.status_index_built(), 1)

    def build_listed_index(self) -> None:
        """File every listed game in the listings, once, for an older store (after `build_status_index`)."""
        if self.redis.exists(keys.listed_index_built()):
            return
        for ids in self._every_game():
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hmget(keys.meta(game_id), "status", "created", "game", "unlisted")
            filing = self.redis.pipeline(transaction=False)
            for game_id, (status, created, game, unlisted) in zip(ids, pipe.execute(), strict=True):
                if status is not None and unlisted != b"1":
                    shard, lifecycle = self.shards.of(game_id), Lifecycle(status.decode())
                    took = self.redis.zscore(keys.games_with_status(lifecycle, shard), game_id) or int(created)
                    _list(filing, game_id, game.decode(), lifecycle, shard, int(created), int(took))
            filing.execute()
        self.redis.set(keys.listed_index_built(), 1)

    def _every_game(self) -> Iterator[list[str]]:
        """The ids of every game, shard by shard, a thousand at a time."""
        for shard in self.shards.names:
            position = 0
            while ids := cast(list[bytes], self.redis.zrange(keys.game_index(shard), position, position + 999)):
                yield [raw_id.decode() for raw_id in ids]
                position += len(ids)

    def file(self, pipe: Pipeline, game_id: str, old: Lifecycle, new: Lifecycle | None, now: int) -> None:
        """Queue on `pipe` the move of a game from status `old`'s indexes to `new`'s (None: a game that is gone)."""
        shard = self.shards.of(game_id)
        pipe.zrem(keys.games_with_status(old, shard), game_id)
        if new is None:
            self._unfile(pipe, game_id)
            return
        pipe.zadd(keys.games_with_status(new, shard), {game_id: now}, nx=True)
        if new is Lifecycle.FINISHED:  # a finished game keeps one snapshot
            snapshots.keep_last(pipe, game_id)
        listings = [key for game in GAMES for key in (keys.listed(game, None, shard), keys.listed(game, old, shard),
                                                      keys.listed(game, new, shard))]
        # as a command, not `pipe.eval`: a cluster's pipeline refuses the method, though it routes
        # an EVAL by its keys (all in the shard's slot) and, the script's text sent, needs no load
        pipe.execute_command("EVAL", _FILE_LISTED, len(listings) + 2, *listings, keys.listed(None, old, shard),
                             keys.listed(None, new, shard), game_id, now)


def _list(pipe: Pipeline, game_id: str, game: str, status: Lifecycle, shard: str, created: int, took: int) -> None:
    """Queue on `pipe` the filing of a listed game in its listings: by creation, and by when it `took` `status`."""
    for listing in (keys.listed(None, None, shard), keys.listed(game, None, shard)):
        pipe.zadd(listing, {game_id: created}, nx=True)
    for listing in (keys.listed(None, status, shard), keys.listed(game, status, shard)):
        pipe.zadd(listing, {game_id: took}, nx=True)


def _reserve(pipe: Pipeline, game_id: str, reserved: Mapping[int, str], links: Mapping[int, str],
             invitees: Mapping[int, str]) -> None:
    """Queue on `pipe` a new game's reservations: seat → player id, or the link's code after LINK; and
    the names of the players reserved seats."""
    if reserved or links:
        pipe.hset(keys.reservations(game_id), mapping={**{str(seat): player_id for seat, player_id in reserved.items()},
                                                       **{str(seat): LINK + code for seat, code in links.items()}})
    if invitees:
        pipe.hset(keys.meta(game_id), "invitees", json.dumps(invitees))


def newest_after(client: redis.Redis, index: str, after: Cursor | None, count: int) -> list[Cursor]:
    """The first `count` entries of the sorted set `index` (scored by time) after `after`, newest first."""
    pipe = client.pipeline(transaction=False)
    _ask_after(pipe, index, after, 0, count)
    return entries_after(client, index, after, count, pipe.execute()[0])


def entries_after(client: redis.Redis, index: str, after: Cursor | None, count: int,
                  pairs: list[tuple[bytes, float]]) -> list[Cursor]:
    """The first `count` entries of `index` after `after`: from `pairs` (its first read), and more read while ties come first."""
    kept: list[Cursor] = []
    offset = 0
    while True:
        entries = [Cursor(int(score), raw_id.decode()) for raw_id, score in pairs]
        kept += [entry for entry in entries if after is None or entry < after]
        if len(entries) < count or len(kept) >= count:
            return kept[:count]
        offset += len(entries)
        pipe = client.pipeline(transaction=False)
        _ask_after(pipe, index, after, offset, count)
        pairs = pipe.execute()[0]


def _ask_after(pipe: Pipeline, index: str, after: Cursor | None, offset: int, count: int) -> None:
    """Queue on `pipe` the read of `count` entries of `index` up to the cursor's time, newest first from `offset`."""
    if after is None:
        pipe.zrevrange(index, offset, offset + count - 1, withscores=True)
    else:
        pipe.zrevrangebyscore(index, after.score, "-inf", start=offset, num=count, withscores=True)


def _own_keys(game_id: str) -> list[str]:
    """The keys of a game that has not started: its record, seats, AIs, players, tokens and reservations,
    what was said in its lobby (its chat, its seats' notes), and the mark that its clocks moved (events.feed)."""
    return [keys.meta(game_id), keys.seats(game_id), keys.bots(game_id), keys.players(game_id), keys.tokens(game_id),
            keys.reservations(game_id), *(keys.chat(game_id, room) for room in ROOMS), keys.chat_hidden(game_id),
            keys.chat_hides(game_id), keys.notes(game_id), keys.clocks_moved(game_id)]


def ask_progress(pipe: Pipeline, game_id: str) -> None:
    """Queue on `pipe` the read of what still changes in a started game's record."""
    pipe.hmget(keys.meta(game_id), "status", "version", "rematch")


def progressed(record: GameRecord, answer: list[bytes | None]) -> GameRecord:
    """A started game's record with its status, version and rematch read again (`ask_progress`)."""
    # the rest of a started game's record (seats, AIs, tokens, settings) no longer changes
    status, version, rematch = answer
    if status is None or version is None:
        raise GameNotFound(record.id)
    return dataclasses.replace(record, status=Lifecycle(status.decode()), version=int(version),
                               rematch=None if rematch is None else rematch.decode())


def ask(pipe: Pipeline, game_id: str) -> None:
    """Queue on `pipe` the PARTS reads that make a game's record."""
    pipe.hgetall(keys.meta(game_id))
    pipe.hgetall(keys.seats(game_id))
    pipe.hgetall(keys.bots(game_id))
    pipe.hgetall(keys.players(game_id))
    pipe.hgetall(keys.tokens(game_id))
    pipe.hgetall(keys.reservations(game_id))


def parse(game_id: str, meta: dict[bytes, bytes], seat_names: dict[bytes, bytes], bots: dict[bytes, bytes],
          holders: dict[bytes, bytes], token_seats: dict[bytes, bytes], reserved: dict[bytes, bytes]) -> GameRecord:
    """The record the answers to `ask` make; raises GameNotFound."""
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
        status=Lifecycle(meta[b"status"].decode()),
        version=int(meta[b"version"]),
        created=int(meta[b"created"]),
        names=per_seat(seat_names),
        bots=per_seat(bots),
        deadline=TurnDeadline.from_json(deadline) if (deadline := json.loads(meta.get(b"deadline", b"null"))) else None,
        spectator_delay=int(meta.get(b"spectator_delay", 0)),
        forked_from=Origin.from_json(origin) if (origin := json.loads(meta.get(b"forked_from", b"null"))) else None,
        holders={int(seat): holder.decode() for seat, holder in holders.items()},
        token_seats={digest.decode(): int(seat) for digest, seat in token_seats.items()},
        devices={int(key[len(DEVICE):]): device.decode() for key, device in meta.items() if key.startswith(DEVICE)},
        lobby_until=int(meta[b"lobby_until"]) if b"lobby_until" in meta else None,
        budgets={int(key.split(b":")[0]): Budget(**json.loads(value)) for key, value in bots.items() if key.endswith(b":budget")},
        unlisted=meta.get(b"unlisted") == b"1",
        chat=meta.get(b"chat") != b"off",
        reserved={int(seat): held.decode() for seat, held in reserved.items() if not held.startswith(LINK.encode())},
        links={int(seat): held.decode()[len(LINK):] for seat, held in reserved.items() if held.startswith(LINK.encode())},
        invitees={int(seat): name for seat, name in json.loads(meta.get(b"invitees", b"{}")).items()},
        rematch_of=meta[b"rematch_of"].decode() if b"rematch_of" in meta else None,
        rematch=meta[b"rematch"].decode() if b"rematch" in meta else None,
        imported=meta.get(b"imported") == b"1",
        original_id=meta[b"original_id"].decode() if b"original_id" in meta else None,
        checked=meta[b"checked"].decode() if b"checked" in meta else None,
        creator=meta[b"creator"].decode() if b"creator" in meta else None,
        private_origin=meta.get(b"private_origin") == b"1",
        rated=meta.get(b"rated") == b"1",
        time_zones={int(seat): zone for seat, zone in json.loads(meta.get(b"time_zones", b"{}")).items()},
        vacations={int(seat): tuple((start, end) for start, end in spans)
                   for seat, spans in json.loads(meta.get(b"vacations", b"{}")).items()},
    )
