"""Tournaments in the store: each one's settings and status, its entrants, its rounds (each
written once), the results of its finished tables, a stream of its changes, and the indexes the
API lists and the reactors' sweep visits."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

import redis
from redis.client import Pipeline

from domain.tournaments.pairing import Round, Table
from domain.tournaments.standings import Places
from events import clock, keys
from events.envelope import TurnDeadline
from events.records import Cursor, newest_after

NEWS_LENGTH = 100  # changes kept in a tournament's stream of them
REFILED = 200  # tournaments read at a time when those that ended are filed apart
LOCK_SECONDS = 120  # how long pairing a round may hold its tournament
WAIT_SECONDS = 30  # how long a job waits for another pairing the same tournament
_SET_NEW = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'at', ARGV[4])
return 1
"""  # set a hash's field unless it is set, noting the change in the tournament's stream with it
_PAIR = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
return 1
"""  # write a round unless it is written, kept from the readers (no news) until its games are opened
_OPENED = """
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'at', ARGV[3])
return 1
"""  # take a round out of those being opened, noting the change with it if it was one


class Format(StrEnum):
    """How a tournament pairs its rounds (domain.tournaments.pairing)."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class Stage(StrEnum):
    """Where a tournament is in its life."""

    SIGNING_UP = "signing_up"  # entrants sign up until it starts
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # too few entrants when it was to start

    @property
    def over(self) -> bool:
        """Whether a tournament at this stage has ended: finished or cancelled."""
        return self in (Stage.FINISHED, Stage.CANCELLED)


class Entry(StrEnum):
    """What came of a sign-up or its withdrawal before the start."""

    DONE = "done"
    CLOSED = "closed"  # the tournament no longer signs up
    ALREADY = "already"  # the entrant is in already
    FULL = "full"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament's settings, and where it stands."""

    id: str
    name: str
    game: str
    options: dict[str, Any]
    seats: int  # at each table
    format: Format
    deadline: TurnDeadline  # each game's time control; a seat out of time forfeits
    starts: int  # ms since the epoch: sign-up closes and the first round is paired
    creator: str
    unlisted: bool = False
    rounds: int | None = None  # a Swiss's rounds; a round robin's once worked out at its start (Tournaments.plan)
    created: int = 0
    stage: Stage = Stage.SIGNING_UP


@dataclass(frozen=True, slots=True)
class Entrant:
    """One who plays in a tournament: a registered player, or an AI level the creator entered."""

    id: str
    name: str
    joined: int  # ms since the epoch
    level: str | None = None  # an AI's
    withdrawn: int | None = None  # the round after which it is paired no more
    timed_out: bool = False  # withdrawn for running out of time in every game of a round


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table: its entrants by place, and those who ran out of time in it."""

    places: Places
    timed_out: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A tournament read whole in one transaction: its record, entrants, rounds and results, and the id of the
    latest change they hold (its version; each change is written with its note, so one version is one content)."""

    record: TournamentRecord
    entrants: list[Entrant]
    rounds: list[Round]
    results: dict[str, TableResult]
    version: str


class Tournaments:
    """Every tournament in one Redis server. Each change to what a tournament shows is noted in its stream of
    changes in the same transaction (its keys share one cluster slot)."""

    def __init__(self, client: redis.Redis, waiting: redis.Redis | None = None) -> None:
        """`waiting` serves the blocking reads of a tournament's changes (by default `client`)."""
        self.redis = client
        self.waiting = waiting or client
        self._set_new = client.register_script(_SET_NEW)
        self._pair = client.register_script(_PAIR)
        self._opened = client.register_script(_OPENED)

    def create(self, record: TournamentRecord) -> None:
        """Store a new tournament signing up, listed unless it is unlisted."""
        settings = {key: value for key, value in dataclasses.asdict(record).items() if key != "stage"}  # kept apart
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.tournament(record.id), mapping={"record": json.dumps(settings), "stage": record.stage})
        pipe.zadd(keys.tournaments_waiting(), {record.id: record.starts})
        if not record.unlisted:
            pipe.zadd(keys.tournaments_listed(), {record.id: record.starts})
        pipe.execute()

    def get(self, tournament_id: str) -> TournamentRecord | None:
        """The tournament, or None."""
        return _record(cast(dict[bytes, bytes], self.redis.hgetall(keys.tournament(tournament_id))))

    def many(self, tournament_ids: list[str]) -> list[TournamentRecord | None]:
        """The tournaments (None for one there is not), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for tournament_id in tournament_ids:
            pipe.hgetall(keys.tournament(tournament_id))
        return [_record(stored) for stored in cast(list[dict[bytes, bytes]], pipe.execute())]

    def snapshot(self, tournament_id: str) -> Snapshot | None:
        """The tournament whole as of its latest change, read in one transaction; None if there is none.
        A round whose games are still being opened is not in it yet."""
        pipe = self.redis.pipeline(transaction=True)
        for key in (keys.tournament, keys.tournament_entrants, keys.tournament_rounds, keys.tournament_results):
            pipe.hgetall(key(tournament_id))
        pipe.smembers(keys.tournament_opening(tournament_id))
        pipe.xrevrange(keys.tournament_news(tournament_id), count=1)
        stored, entrants, rounds, results, opening, latest = pipe.execute()
        record = _record(stored)
        if record is None:
            return None
        shown = {number: value for number, value in rounds.items() if number not in opening}
        return Snapshot(record, _entrants(entrants), _rounds(shown), _results(results), latest[0][0].decode() if latest else "0-0")

    def listed(self, ended: bool, after: Cursor | None, limit: int) -> tuple[list[str], Cursor | None]:
        """A page of the listed tournaments' ids after the cursor `after`: those signing up or under way, latest
        start first, or those that `ended`, latest end first; and the next page's cursor (None on the last).
        A cursor names the last one shown, so a tournament filed meanwhile neither repeats nor hides another."""
        key = keys.tournaments_ended() if ended else keys.tournaments_listed()
        found = newest_after(self.redis, key, after, limit + 1)
        return [each.game_id for each in found[:limit]], found[limit - 1] if len(found) > limit else None

    def refile_ended(self) -> int:
        """File each listed tournament that ended but is still among the open ones (ended before they were kept
        apart), once, for an older store: how many."""
        if self.redis.exists(keys.ended_tournaments_filed()):
            return 0
        listed = [each.decode() for each in cast(list[bytes], self.redis.zrange(keys.tournaments_listed(), 0, -1))]
        moved = 0
        for start in range(0, len(listed), REFILED):
            batch = listed[start:start + REFILED]
            for tournament_id, record in zip(batch, self.many(batch), strict=True):
                if record is not None and record.stage.over:
                    self.file(tournament_id, record.stage)
                    moved += 1
        self.redis.set(keys.ended_tournaments_filed(), 1)
        return moved

    def due(self, now: int) -> list[str]:
        """The tournaments signing up whose start has come."""
        return [each.decode() for each in cast(list[bytes], self.redis.zrangebyscore(keys.tournaments_waiting(), 0, now))]

    def running(self) -> list[str]:
        """The tournaments under way."""
        return sorted(each.decode() for each in cast(set[bytes], self.redis.smembers(keys.tournaments_running())))

    def plan(self, tournament_id: str, rounds: int) -> None:
        """Keep the rounds a round robin plays, worked out as it starts; the first kept stays."""
        self._set_once(keys.tournament(tournament_id), tournament_id, "rounds", str(rounds))

    def begin(self, tournament_id: str) -> None:
        """Mark the tournament under way: its entrants are those signed up now (`enter` and `leave` refuse
        from now on); then file it, and list it for each player who signed up (again, if a sign-up was
        cut short before)."""
        self._set(keys.tournament(tournament_id), tournament_id, "stage", Stage.RUNNING)
        self.file(tournament_id, Stage.RUNNING)
        pipe = self.redis.pipeline(transaction=False)
        for entrant in self.entrants(tournament_id):
            if entrant.level is None:
                pipe.zadd(keys.player_tournaments(entrant.id), {tournament_id: entrant.joined})
        pipe.execute()

    def end(self, tournament_id: str, stage: Stage) -> None:
        """Mark the tournament finished or cancelled, then file it."""
        self._set(keys.tournament(tournament_id), tournament_id, "stage", stage)
        self.file(tournament_id, stage)

    def file(self, tournament_id: str, stage: Stage) -> None:
        """Keep the tournament among those signing up, or under way, as long as its `stage` says it is,
        and nowhere else; once it ended, a listed one among those that ended. The indexes are global, on
        other cluster slots than the tournament's keys: they follow its stage, and whoever finds one
        behind (a job cut short, the workers' sweep) files it again."""
        pipe = self.redis.pipeline(transaction=False)
        if stage is not Stage.SIGNING_UP:
            pipe.zrem(keys.tournaments_waiting(), tournament_id)
        if stage is Stage.RUNNING:
            pipe.sadd(keys.tournaments_running(), tournament_id)
        else:
            pipe.srem(keys.tournaments_running(), tournament_id)
        pipe.execute()
        if stage.over and self.redis.zscore(keys.tournaments_listed(), tournament_id) is not None:
            # among the ended (by its last change: its end) before it leaves the open, each step on its own, so
            # that one cut short between leaves it in one index or both, never in none
            latest = cast(list[tuple[bytes, Any]], self.redis.xrevrange(keys.tournament_news(tournament_id), count=1))
            ended = int(latest[0][0].split(b"-")[0]) if latest else clock.now()
            self.redis.zadd(keys.tournaments_ended(), {tournament_id: ended}, nx=True)
            self.redis.zrem(keys.tournaments_listed(), tournament_id)

    def enter(self, tournament_id: str, entrant: Entrant, most: int) -> Entry:
        """Add the entrant while the tournament signs up, unless it is in already or the tournament holds `most`."""
        joined = [entrant.joined]  # after every entrant before it, so that sign-up order has no ties

        def add(pipe: Pipeline) -> None:
            pipe.hset(keys.tournament_entrants(tournament_id), entrant.id, _json(dataclasses.replace(entrant, joined=joined[0])))

        def check(pipe: Pipeline) -> Entry | None:
            stored = cast(dict[bytes, bytes], pipe.hgetall(keys.tournament_entrants(tournament_id)))
            if entrant.id.encode() in stored:
                return Entry.ALREADY
            joined[0] = max([entrant.joined, *(json.loads(each)["joined"] + 1 for each in stored.values())])
            return Entry.FULL if len(stored) >= most else None

        entry = self._while_signing_up(tournament_id, check, add)
        if entry is Entry.DONE and entrant.level is None:  # the player's list is on their slot: after (begin lists again)
            self.redis.zadd(keys.player_tournaments(entrant.id), {tournament_id: joined[0]})
        return entry

    def leave(self, tournament_id: str, entrant_id: str) -> Entry:
        """Take back a sign-up while the tournament signs up."""
        def remove(pipe: Pipeline) -> None:
            pipe.hdel(keys.tournament_entrants(tournament_id), entrant_id)

        entry = self._while_signing_up(tournament_id, lambda pipe: None, remove)
        if entry is Entry.DONE:
            self.redis.zrem(keys.player_tournaments(entrant_id), tournament_id)
        return entry

    def _while_signing_up(self, tournament_id: str, check: Callable[[Pipeline], Entry | None],
                          change: Callable[[Pipeline], None]) -> Entry:
        """Make `change` (to the tournament's own keys, one cluster slot) unless `check` refuses it or the
        tournament no longer signs up, as one transaction that the tournament's start (`begin`) cannot come between."""
        with self.redis.pipeline(transaction=True) as pipe:  # a cluster client's watches only in a transaction's
            while True:
                try:
                    pipe.watch(keys.tournament(tournament_id), keys.tournament_entrants(tournament_id))
                    if pipe.hget(keys.tournament(tournament_id), "stage") != Stage.SIGNING_UP.encode():
                        return Entry.CLOSED
                    if (refused := check(pipe)) is not None:
                        return refused
                    pipe.multi()
                    change(pipe)
                    self._note(pipe, tournament_id)
                    pipe.execute()
                    return Entry.DONE
                except redis.WatchError:
                    continue

    def withdraw(self, tournament_id: str, entrant: Entrant, after: int, timed_out: bool = False) -> None:
        """Pair the entrant no more after round `after`."""
        withdrawn = dataclasses.replace(entrant, withdrawn=after, timed_out=timed_out)
        self._set(keys.tournament_entrants(tournament_id), tournament_id, entrant.id, _json(withdrawn))

    def entrants(self, tournament_id: str) -> list[Entrant]:
        """The entrants in sign-up order."""
        return _entrants(cast(dict[bytes, bytes], self.redis.hgetall(keys.tournament_entrants(tournament_id))))

    def pair(self, tournament_id: str, number: int, paired: Round) -> bool:
        """Write round `number` unless it was written already, kept from the readers until `opened`; whether this
        wrote it."""
        written = {"tables": [{"game_id": table.game_id, "entrants": list(table.entrants)} for table in paired.tables],
                   "byes": list(paired.byes)}
        return bool(self._pair(keys=[keys.tournament_rounds(tournament_id), keys.tournament_opening(tournament_id)],
                               args=[number, json.dumps(written)]))

    def being_opened(self, tournament_id: str, number: int) -> bool:
        """Whether round `number` was paired and is kept from the readers until its games are all opened."""
        return bool(self.redis.sismember(keys.tournament_opening(tournament_id), str(number)))

    def opened(self, tournament_id: str, number: int) -> None:
        """Show round `number`, its games all opened, to the tournament's readers."""
        self._opened(keys=[keys.tournament_opening(tournament_id), keys.tournament_news(tournament_id)],
                     args=[number, NEWS_LENGTH, clock.now()])

    def rounds(self, tournament_id: str) -> list[Round]:
        """The rounds paired so far, first first."""
        return _rounds(cast(dict[bytes, bytes], self.redis.hgetall(keys.tournament_rounds(tournament_id))))

    def record_result(self, tournament_id: str, game_id: str, result: TableResult) -> None:
        """Keep a finished table's result (the same each time it is worked out)."""
        self._set_once(keys.tournament_results(tournament_id), tournament_id, game_id, json.dumps(dataclasses.asdict(result)))

    def results(self, tournament_id: str) -> dict[str, TableResult]:
        """The results of the finished tables, by game id."""
        return _results(cast(dict[bytes, bytes], self.redis.hgetall(keys.tournament_results(tournament_id))))

    def mark_table(self, game_id: str, tournament_id: str) -> None:
        """Note that the game is a table of the tournament."""
        self.redis.set(keys.tournament_of(game_id), tournament_id)

    def of_game(self, game_id: str) -> str | None:
        """The tournament the game is a table of, if any."""
        found = cast(bytes | None, self.redis.get(keys.tournament_of(game_id)))
        return None if found is None else found.decode()

    def invite(self, tournament_id: str, player_ids: list[str]) -> None:
        """Tell each of the players of the tournament (those an invitation reaches: players.invitations)."""
        now = clock.now()
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.zadd(keys.tournament_invitations(player_id), {tournament_id: now}, nx=True)
        if player_ids:
            pipe.sadd(keys.tournament_invitees(tournament_id), *player_ids)
        pipe.execute()

    def invitees(self, tournament_id: str) -> list[str]:
        """The players the tournament invited (those who declined too), until its invitations end."""
        return sorted(each.decode() for each in cast(set[bytes], self.redis.smembers(keys.tournament_invitees(tournament_id))))

    def uninvite(self, tournament_id: str, player_ids: list[str]) -> None:
        """Take the tournament out of the players' invitations (it starts, or is cancelled)."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.zrem(keys.tournament_invitations(player_id), tournament_id)
        pipe.execute()

    def forget_invitees(self, tournament_id: str) -> None:
        """Drop the list of the players the tournament invited, once their invitations have ended."""
        self.redis.delete(keys.tournament_invitees(tournament_id))

    def unanswered(self, player_id: str, limit: int) -> list[str]:
        """The tournaments the player is invited to, latest first, but those signed up for: at most `limit`."""
        found: list[str] = []
        for start in itertools.count(0, limit):
            invited = cast(list[bytes], self.redis.zrevrange(keys.tournament_invitations(player_id), start, start + limit - 1))
            if not invited:
                break
            names = [each.decode() for each in invited]
            entered = self.redis.zmscore(keys.player_tournaments(player_id), names)
            found += [each for each, joined in zip(names, entered, strict=True) if joined is None]
            if len(found) >= limit:
                break
        return found[:limit]

    def decline(self, tournament_id: str, player_id: str) -> bool:
        """Take the tournament out of the player's invitations; whether it was there."""
        return bool(self.redis.zrem(keys.tournament_invitations(player_id), tournament_id))

    def of_player(self, player_id: str, limit: int) -> tuple[list[str], set[str]]:
        """The tournaments the player was invited to or signed up for, latest first, and those of them it was invited to."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrevrange(keys.tournament_invitations(player_id), 0, limit - 1)
        pipe.zrevrange(keys.player_tournaments(player_id), 0, limit - 1)
        invited, entered = ([each.decode() for each in found] for found in cast(list[list[bytes]], pipe.execute()))
        return list(dict.fromkeys([*entered, *invited]))[:limit], set(invited)

    @contextmanager
    def pairing(self, tournament_id: str, wait: bool = True) -> Iterator[bool]:
        """Hold the tournament while a round is paired and opened, once another holding it lets go (waiting
        up to WAIT_SECONDS, or not at all unless `wait`): whether this holds it. One that waits sees the
        tables that ended meanwhile."""
        lock = self.redis.lock(keys.tournament_lock(tournament_id), timeout=LOCK_SECONDS, blocking_timeout=WAIT_SECONDS)
        held = lock.acquire(blocking=wait)
        try:
            yield held
        finally:
            if held:
                lock.release()

    def _set(self, key: str, tournament_id: str, field: str, value: str) -> None:
        """Set the field of the tournament's hash `key`, with its note, in one transaction."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(key, field, value)
        self._note(pipe, tournament_id)
        pipe.execute()

    def _set_once(self, key: str, tournament_id: str, field: str, value: str) -> bool:
        """Set the field of the tournament's hash `key` unless it is set, with its note; whether this set it."""
        return bool(self._set_new(keys=[key, keys.tournament_news(tournament_id)],
                                  args=[field, value, NEWS_LENGTH, clock.now()]))

    @staticmethod
    def _note(pipe: Pipeline, tournament_id: str) -> None:
        """Note in the transaction `pipe` that the tournament changed, for whoever follows it."""
        pipe.xadd(keys.tournament_news(tournament_id), {"at": clock.now()}, maxlen=NEWS_LENGTH, approximate=True)

    def news(self, tournament_id: str, after: str, timeout_ms: int) -> str | None:
        """The id of the latest change after the change `after`, waiting up to `timeout_ms` for one; None if none came."""
        answer = self.waiting.xread({keys.tournament_news(tournament_id): after}, block=timeout_ms)
        return cast(list[tuple[bytes, list[tuple[bytes, Any]]]], answer)[0][1][-1][0].decode() if answer else None


def _json(entrant: Entrant) -> str:
    return json.dumps(dataclasses.asdict(entrant))


def _record(stored: dict[bytes, bytes]) -> TournamentRecord | None:
    if not stored:
        return None
    settings = json.loads(stored[b"record"])
    return TournamentRecord(**{**settings, "format": Format(settings["format"]),
                               "deadline": TurnDeadline.from_json(settings["deadline"]),
                               "stage": Stage(stored[b"stage"].decode()),
                               "rounds": int(stored[b"rounds"]) if b"rounds" in stored else settings["rounds"]})


def _entrants(stored: dict[bytes, bytes]) -> list[Entrant]:
    return sorted((Entrant(**json.loads(value)) for value in stored.values()), key=lambda each: (each.joined, each.id))


def _rounds(stored: dict[bytes, bytes]) -> list[Round]:
    read = {int(number): json.loads(value) for number, value in stored.items()}
    return [Round(tuple(Table(table["game_id"], tuple(table["entrants"])) for table in read[number]["tables"]),
                  tuple(read[number]["byes"])) for number in sorted(read)]


def _results(stored: dict[bytes, bytes]) -> dict[str, TableResult]:
    return {game_id.decode(): _result(json.loads(value)) for game_id, value in stored.items()}


def _result(stored: dict[str, Any]) -> TableResult:
    return TableResult(tuple(tuple(place) for place in stored["places"]), tuple(stored["timed_out"]))
