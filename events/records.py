"""Game records — what the store keeps about a game beside its events — and the indexes that
list them: every game by creation time, and the games of each status by when they took it, each
index split into the store's shards (events.shards) and read across all of them. An unlisted game
is filed in the indexes like any other (the reactor's sweep reads them) but never shown on a page
of them."""

from __future__ import annotations

import dataclasses
import heapq
import json
from collections.abc import Iterator, Mapping
from typing import Any, cast

import redis
from redis.client import Pipeline

from domain.core.game import Budget
from events import clock, keys
from events.envelope import GameNotFound, GameRecord, Lifecycle, Origin, TurnDeadline
from events.feed import Feed
from events.shards import Shards

PARTS = 6  # the hashes a game's record is read from (ask)


class GameRecords:
    """The records of the games in one Redis server or cluster, and their indexes."""

    def __init__(self, client: redis.Redis, shards: Shards, feed: Feed) -> None:
        """`feed` is told of the games a sweep finds filed under a status they have left."""
        self.redis = client
        self.shards = shards
        self.feed = feed

    def create(
        self, game_id: str, game: str, options: dict[str, Any], seats: int, deadline: TurnDeadline | None = None,
        spectator_delay: int = 0, forked_from: Origin | None = None, lobby_seconds: int | None = None,
        unlisted: bool = False, reserved: Mapping[int, str] | None = None, rematch_of: str | None = None,
        imported: bool = False, original_id: str | None = None,
    ) -> GameRecord:
        """A game waiting for its players; cancelled `lobby_seconds` from now if seats are still free.
        An `unlisted` game is never shown in a listing; a `reserved` seat (seat → registered player
        id) can be taken by its player only. An `imported` game is loaded from a log, which may name
        the game's `original_id`."""
        now = clock.now()
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.meta(game_id), mapping={
            "game": game, "options": json.dumps(options), "seats": seats, "status": Lifecycle.WAITING, "version": 0,
            "created": now, "deadline": json.dumps(None if deadline is None else dataclasses.asdict(deadline)),
            "spectator_delay": spectator_delay,
            "forked_from": json.dumps(None if forked_from is None else dataclasses.asdict(forked_from)),
        })
        if lobby_seconds is not None:
            pipe.hset(keys.meta(game_id), "lobby_until", now + lobby_seconds * 1000)
        if unlisted:
            pipe.hset(keys.meta(game_id), "unlisted", 1)
        if rematch_of is not None:
            pipe.hset(keys.meta(game_id), "rematch_of", rematch_of)
        if imported:
            pipe.hset(keys.meta(game_id), "imported", 1)
        if original_id is not None:
            pipe.hset(keys.meta(game_id), "original_id", original_id)
        if reserved:
            pipe.hset(keys.reservations(game_id), mapping={str(seat): player_id for seat, player_id in reserved.items()})
        shard = self.shards.of(game_id)
        pipe.zadd(keys.game_index(shard), {game_id: now})
        pipe.zadd(keys.games_with_status(Lifecycle.WAITING, shard), {game_id: now})
        pipe.execute()
        return self.get(game_id)

    def get(self, game_id: str) -> GameRecord:
        """The game's record; raises GameNotFound."""
        pipe = self.redis.pipeline(transaction=False)
        ask(pipe, game_id)
        return parse(game_id, *pipe.execute())

    def page(self, game: str | None, status: Lifecycle | None, offset: int, limit: int) -> tuple[list[GameRecord], int | None]:
        """Listed games filtered, newest first (by when they took `status`, if given); the page
        and the offset of the next one (None at the end). Unlisted games are passed over."""
        found: list[GameRecord] = []
        indexes = [keys.game_index(shard) if status is None else keys.games_with_status(status, shard)
                   for shard in self.shards.names]
        for position, ids in self._index_pages(indexes, offset, max(limit, 50)):
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                ask(pipe, game_id)
            answers = pipe.execute()
            for number, game_id in enumerate(ids):
                fields = answers[number * PARTS:(number + 1) * PARTS]
                if not fields[0]:
                    continue  # a game an index still holds though it failed to be created
                record = parse(game_id, *fields)
                if record.unlisted:
                    continue
                if (game is None or record.game == game) and (status is None or record.status == status):
                    found.append(record)
                    if len(found) == limit:
                        return found, position + number + 1
        return found, None

    def name_rematch(self, game_id: str, rematch_id: str) -> str:
        """Name `rematch_id` as the game's rematch unless it already has one; the rematch it names."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(keys.meta(game_id), "rematch", rematch_id)
        pipe.hget(keys.meta(game_id), "rematch")
        return cast(bytes, pipe.execute()[1]).decode()

    def discard(self, game_id: str) -> None:
        """Delete a game that never started and that nobody was told of (a rematch made in a race
        another one won): its record and its place in the indexes."""
        pipe = self.redis.pipeline(transaction=False)
        for key in (keys.meta(game_id), keys.seats(game_id), keys.bots(game_id), keys.players(game_id),
                    keys.tokens(game_id), keys.reservations(game_id)):
            pipe.delete(key)  # one at a time: a cluster's pipeline sends no DEL of several keys
        shard = self.shards.of(game_id)
        pipe.zrem(keys.game_index(shard), game_id)
        for status in Lifecycle:
            pipe.zrem(keys.games_with_status(status, shard), game_id)
        pipe.execute()

    def count_by_status(self) -> dict[Lifecycle, int]:
        """How many games wait for players, are in play, are over and were cancelled, as the
        status indexes hold them (a game whose process died as it finished counts as in play
        until the next sweep)."""
        pipe = self.redis.pipeline(transaction=False)
        for status in Lifecycle:
            for shard in self.shards.names:
                pipe.zcard(keys.games_with_status(status, shard))
        counts = iter(pipe.execute())
        return {status: sum(next(counts) for _ in self.shards.names) for status in Lifecycle}

    def indexed(self, status: Lifecycle) -> Iterator[tuple[str, bool]]:
        """The ids of the games with `status`, oldest first, each with whether every seat is taken.

        A game changes index in the round trip of the append that starts it, and in the one
        after the append that ends it: the index of games in play may hold a game that is over,
        never lack one that is not. A game found under a status it has left is moved to its own
        and announced on the feed again, so that whatever its change meant is told even when the
        process that changed it died before telling (each notification goes out once however often
        its game is announced)."""
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

    def refile_finished_since(self, since_ms: int) -> int:
        """Move every game filed as finished since `since_ms` whose record says otherwise back
        under its own status, and announce it; how many were. A failover that lost a game's last
        appends keeps the filing made after them, which lives in another slot: without this, a
        game whose ending was lost would be in play but never swept. Losses are of the latest
        writes only, so only recent filings are looked at."""
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
        """Queue on `pipe` the move of a game filed under `filed` to the status its record holds
        (`actual`; None for a game discarded since, which is only taken out), and if it is still
        there its announcement."""
        self.file(pipe, game_id, filed, None if actual is None else Lifecycle(actual.decode()), clock.now())
        if actual is not None:
            self.feed.announce(pipe, game_id)

    def build_status_index(self) -> None:
        """File every game under its status, once: for a store written before the status indexes."""
        if self.redis.exists(keys.status_index_built()):
            return
        for _, ids in self._index_pages([keys.game_index(shard) for shard in self.shards.names], 0, 1000):
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

    def file(self, pipe: Pipeline, game_id: str, old: Lifecycle, new: Lifecycle | None, now: int) -> None:
        """Queue on `pipe` the move of a game from the index of status `old` to that of `new`
        (None: a game that is gone)."""
        shard = self.shards.of(game_id)
        pipe.zrem(keys.games_with_status(old, shard), game_id)
        if new is not None:
            pipe.zadd(keys.games_with_status(new, shard), {game_id: now}, nx=True)

    def _index_pages(self, indexes: list[str], start: int, size: int) -> Iterator[tuple[int, list[str]]]:
        """The game ids of an index split in `indexes`, newest first, in pages from `start`: each
        page's position and ids. The shards are merged by score; a page of one index is read from
        `start` at once."""
        if len(indexes) == 1:
            position = start
            while ids := cast(list[bytes], self.redis.zrevrange(indexes[0], position, position + size - 1)):
                yield position, [raw_id.decode() for raw_id in ids]
                position += len(ids)
            return
        merged = heapq.merge(*(self._newest_first(index, size) for index in indexes), reverse=True)
        page: list[str] = []
        for position, (_, game_id) in enumerate(merged):
            if position >= start:
                page.append(game_id)
            if len(page) == size:
                yield position + 1 - size, page
                page = []
        if page:
            yield position + 1 - len(page), page

    def _newest_first(self, index: str, size: int) -> Iterator[tuple[float, str]]:
        """An index's (score, id) pairs, newest first, read `size` at a time."""
        position = 0
        while pairs := cast(list[tuple[bytes, float]], self.redis.zrevrange(index, position, position + size - 1,
                                                                            withscores=True)):
            yield from ((score, raw_id.decode()) for raw_id, score in pairs)
            position += len(pairs)


def ask_progress(pipe: Pipeline, game_id: str) -> None:
    """Queue on `pipe` the read of what still changes in a started game's record."""
    pipe.hmget(keys.meta(game_id), "status", "version", "rematch")


def progressed(record: GameRecord, answer: list[bytes | None]) -> GameRecord:
    """A started game's record with what still changes read again (`ask_progress`): its status,
    version and rematch. Its seats, AIs, tokens and settings are fixed once it starts."""
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
        forked_from=Origin(**origin) if (origin := json.loads(meta.get(b"forked_from", b"null"))) else None,
        holders={int(seat): holder.decode() for seat, holder in holders.items()},
        token_seats={digest.decode(): int(seat) for digest, seat in token_seats.items()},
        lobby_until=int(meta[b"lobby_until"]) if b"lobby_until" in meta else None,
        budgets={int(key.split(b":")[0]): Budget(**json.loads(value)) for key, value in bots.items() if key.endswith(b":budget")},
        unlisted=meta.get(b"unlisted") == b"1",
        reserved={int(seat): player_id.decode() for seat, player_id in reserved.items()},
        rematch_of=meta[b"rematch_of"].decode() if b"rematch_of" in meta else None,
        rematch=meta[b"rematch"].decode() if b"rematch" in meta else None,
        imported=meta.get(b"imported") == b"1",
        original_id=meta[b"original_id"].decode() if b"original_id" in meta else None,
    )
