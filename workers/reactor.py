"""Reacting to appended events: whatever a new version makes due is enqueued as an idempotent
job — an AI seat's move at once, a deadline at the time it passes, reminders before it, and
notifications to the players concerned ("your turn", "deadline applied", "game over", "game
cancelled"). The reactor reads the feed through a consumer group; a periodic sweep of the games
in play catches anything the feed missed (an announcement lost with the store, a job lost with
its worker), starts any game whose seats are all taken but whose starter died before starting
it, cancels the games whose lobby time passed with seats still free, deletes the games
cancelled longer ago than their grace, and starts the tournaments whose sign-up closed and moves
on those under way (a finished game that is a tournament's table moves its tournament on at
once). A sweep goes a few games at a time between reads of the feed, so it never holds up a
reaction."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import TypeVar

import redis
from rq import Queue
from rq.job import JobStatus

from application.clocks import Clock
from application.deadlines import due, game_clocks
from application.lobby import start
from application.tournament_rounds import unrecorded
from domain.core.game import GameStatus
from events import clock
from events.envelope import GameRecord, Lifecycle
from events.errors import GameNotFound, GroupLost
from events.execute import Executor, Loaded, awaited
from events.slots import AWAY
from events.tournaments import Tournaments
from workers.bots import play_bot_turn
from workers.digest import queue_digests
from workers.mail import mail_invitations
from workers.notify import KEEP_SECONDS, notify
from workers.overdue import apply_deadline, schedule_reminders
from workers.queues import (
    FAILURE_TTL,
    MOVE_JOB_SECONDS,
    RESULT_TTL,
    ai_games_queue,
    bot_queue,
    deadline_queue,
    moment,
)
from workers.tournaments import advance_tournament, start_tournament

log = logging.getLogger("meeple.reactor")
T = TypeVar("T")

GROUP = "reactors"  # the reactors' consumer group on the feed
LOSSES_SECONDS = 300  # how far back a sweep looks for a game filed as finished that a failover took back


class Reactor:
    """Turns game versions into jobs."""

    def __init__(self, executor: Executor, sweep_seconds: float = 10.0, reminders: tuple[int, ...] = (),
                 queues: redis.Redis | None = None, keep_cancelled: float = 86400) -> None:
        """`queues` is the Redis server of the queues (by default the store's); a game cancelled
        `keep_cancelled` seconds ago is deleted."""
        self.executor = executor
        self.reminders = reminders  # seconds before a deadline at which its player is reminded
        self.redis: redis.Redis = executor.store.redis
        self.queues = queues or self.redis
        self.queue = bot_queue(self.queues)
        self.ai_games = ai_games_queue(self.queues)
        self.deadlines = deadline_queue(self.queues)
        self.sweep_seconds = sweep_seconds
        self.keep_cancelled = keep_cancelled
        self.tournaments = Tournaments(self.redis)
        self.name = f"{socket.gethostname()}-{threading.get_native_id()}-{time.monotonic_ns()}"

    def react(self, game_id: str) -> int:
        """Enqueue what the game's current version makes due; how many move or deadline jobs."""
        try:
            loaded = self.executor.load(game_id)
        except GameNotFound:  # a cancelled game deleted since it was announced
            return 0
        if loaded.version == 0:
            if loaded.record.status is Lifecycle.CANCELLED:
                self._notify_cancelled(loaded)
            elif loaded.record.reserved:
                mail_invitations(self.redis, self.queues, loaded.record)
            return 0
        if not awaited(loaded.record, loaded.game, loaded.state):  # nor announced: met by a sweep
            return 0
        status = loaded.game.status(loaded.state)
        clocks = None if status.finished else game_clocks(self.executor.store, loaded)  # worked out once for every seat
        self._notify(loaded, status, clocks)
        if status.finished:
            self._advance_tournament(game_id)
            return 0
        enqueued = 0
        ais = [seat for seat in status.to_move if loaded.record.bots[seat] is not None]
        # a game of AI seats alone waits while people's games have moves or deadlines due, unless people wait on it
        waited_on = bool(ais) and (None in loaded.record.bots or self.tournaments.of_game(game_id) is not None)
        for seat in status.to_move:
            if seat in ais:
                enqueued += self._enqueue_bot(self.queue if waited_on else self.ai_games, game_id, loaded.version, seat)
            else:
                enqueued += self._schedule_deadline(loaded, seat, clocks)
        return enqueued

    def _notify(self, loaded: Loaded, status: GameStatus, clocks: tuple[Clock, ...] | None) -> None:
        """Tell the registered players what this version means for them."""
        game_id, version = loaded.record.id, loaded.version
        holders = loaded.record.holders
        if not holders:
            return
        latest = self.executor.store.streams.read(game_id, after=version - 1, limit=1)[0]
        kind, _, acting = latest.actor.partition(":")
        base = _about(loaded)
        if kind == "deadline" and int(acting) in holders:
            seat = int(acting)
            notify(self.redis, self.queues, game_id, f"{version}-deadline-{seat}", holders[seat],
                   base | {"id": f"{game_id}-{version}-deadline-{seat}", "kind": "deadline_applied", "seat": seat})
        if status.finished:
            for seat, player_id in holders.items():
                notify(self.redis, self.queues, game_id, f"over-{seat}", player_id,
                       base | {"id": f"{game_id}-over-{seat}", "kind": "game_over", "seat": seat,
                               "ranking": [list(place) for place in status.ranking]})
            return
        for seat in status.to_move:
            if seat in holders and acting != str(seat):  # the turn just came to this seat
                deadline = due(self.executor.store, loaded, seat, clocks)
                notify(self.redis, self.queues, game_id, f"{version}-turn-{seat}", holders[seat],
                       base | {"id": f"{game_id}-{version}-turn-{seat}", "kind": "your_turn", "seat": seat,
                               "deadline": None if deadline is None else deadline.at})

    def _notify_cancelled(self, loaded: Loaded) -> None:
        """Tell the registered players of a cancelled game that it will not start."""
        game_id = loaded.record.id
        for (seat, player_id), marker in zip(loaded.record.holders.items(), _cancelled_markers(loaded.record), strict=True):
            notify(self.redis, self.queues, game_id, marker, player_id,
                   _about(loaded) | {"id": f"{game_id}-cancelled-{seat}", "kind": "game_cancelled", "seat": seat})

    def _advance_tournament(self, game_id: str) -> None:
        """Enqueue the pairing of the next round of the tournament the finished game is a table of, if any."""
        tournament_id = self.tournaments.of_game(game_id)
        if tournament_id is not None:
            self._enqueue_tournament(advance_tournament, tournament_id, f"tournament-{tournament_id}")

    def _move_tournaments(self) -> None:
        """Enqueue the start of every tournament whose sign-up closed, and the next step of every one under
        way with a table ended (or never opened) whose result is not kept yet: one job a tournament."""
        for tournament_id in self.tournaments.due(clock.now()):
            self._enqueue_tournament(start_tournament, tournament_id, f"tournament-{tournament_id}-start")
        for tournament_id in self.tournaments.running():
            if unrecorded(self.executor, self.tournaments, tournament_id):
                self._enqueue_tournament(advance_tournament, tournament_id, f"tournament-{tournament_id}")

    def _enqueue_tournament(self, job: Callable[[str], str], tournament_id: str, job_id: str) -> None:
        if not self._needs_no_copy(job_id, self.queue):
            self.queue.enqueue(job, tournament_id, job_id=job_id, job_timeout=MOVE_JOB_SECONDS,
                               result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL)

    def _enqueue_bot(self, queue: Queue, game_id: str, version: int, seat: int) -> bool:
        job_id = f"bot-{game_id}-{version}-{seat}"
        if self._needs_no_copy(job_id, queue):
            return False
        queue.enqueue(play_bot_turn, game_id, version, seat, job_id=job_id,
                      job_timeout=MOVE_JOB_SECONDS, result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL)
        return True

    def _schedule_deadline(self, loaded: Loaded, seat: int, clocks: tuple[Clock, ...] | None) -> bool:
        """Schedule the seat's deadline, if it has one, for the moment it passes (its clock runs
        out, or the rules' own deadline comes), and the reminders before it; `clocks`, the game's now."""
        deadline = due(self.executor.store, loaded, seat, clocks)
        if deadline is None:
            return False
        # named for its moment too: a deadline that came nearer (a vacation ended early) is scheduled anew
        job_id = f"deadline-{loaded.record.id}-{loaded.version}-{seat}-{deadline.at}"
        if self._needs_no_copy(job_id, self.deadlines):
            return False
        self.deadlines.enqueue_at(moment(deadline.at), apply_deadline, loaded.record.id, loaded.version, seat,
                                  job_id=job_id, job_timeout=MOVE_JOB_SECONDS, result_ttl=RESULT_TTL,
                                  failure_ttl=FAILURE_TTL)
        schedule_reminders(self.deadlines, loaded.record.id, loaded.version, seat, deadline.at, self.reminders)
        return True

    @staticmethod
    def _needs_no_copy(job_id: str, queue: Queue) -> bool:
        """Whether the job is scheduled or still waiting in `queue`. One that a worker took
        (started, or dequeued but not started) may belong to a worker that died (kill -9): it is
        enqueued again, and whichever copy runs second finds its version stale. One that finished
        while the game is still at its version ran before the game got there, or what it did was
        lost with the store (a failover without a replica wait): it is enqueued again too, and a
        copy with nothing to do does nothing. A job that ran is not kept (queues.RESULT_TTL): it is
        found gone, and enqueued again like one that finished."""
        job = queue.fetch_job(job_id)
        if job is None:
            return False
        return job.get_status() == JobStatus.SCHEDULED or queue.get_job_position(job) is not None

    def sweep(self) -> None:
        """Sweep every game at once."""
        for _ in self.sweeping():
            pass

    def sweeping(self) -> Iterator[None]:
        """Queue the daily digests that are due, start every full game that never started, cancel
        every lobby whose time is up, react to every game in play, and delete every game cancelled
        longer ago than `keep_cancelled`, one game a step."""
        store = self.executor.store
        store.games.build_status_index()
        store.games.build_listed_index()
        store.games.refile_finished_since(int(time.time() * 1000) - LOSSES_SECONDS * 1000)
        self.tournaments.refile_ended()
        self._guarded(partial(queue_digests, self.redis, self.queues), failed=0)
        self._guarded(self._move_tournaments, failed=None)
        for game_id, full in store.games.indexed(Lifecycle.WAITING):
            if full:
                self._guarded(partial(start, self.executor, game_id), failed=None)
            else:
                self._guarded(partial(store.seats.cancel_lobby, game_id), failed=False)
            yield
        for game_id, _ in store.games.indexed(Lifecycle.ACTIVE):
            self._guarded(partial(self.react, game_id), failed=0)  # one bad game stops no sweep
            yield
        for game_id in store.games.cancelled_before(clock.now() - int(self.keep_cancelled * 1000)):
            self._guarded(partial(store.games.purge, game_id, _cancelled_markers), failed=False)
            yield

    def run(self, stop: threading.Event) -> None:
        """Consume the feed until `stop` is set, sweeping every `sweep_seconds` (from the end of
        one sweep to the start of the next)."""
        while not stop.is_set() and not self._guarded(self._join_feed, failed=False):
            pass  # the store may be away when the worker starts
        sweep: Iterator[None] | None = None
        next_sweep = 0.0
        while not stop.is_set():
            if sweep is None and time.monotonic() >= next_sweep:
                sweep = self.sweeping()
            if sweep is not None and not self._guarded(partial(self._advance, sweep), failed=False):
                sweep, next_sweep = None, time.monotonic() + self.sweep_seconds
            self._guarded(partial(self._consume, wait=sweep is None), failed=None)

    @staticmethod
    def _advance(sweep: Iterator[None], seconds: float = 0.05) -> bool:
        """Go on with a sweep for about `seconds`; whether it has more to do."""
        until = time.monotonic() + seconds
        for _ in sweep:
            if time.monotonic() >= until:
                return True
        return False

    def _join_feed(self) -> bool:
        """Join the reactors' consumer group on the feed. A group made now reads the announcements
        of the last KEEP_SECONDS: on a fresh store all of them, so that a game that changed before
        any reactor ran (even one already over, which no sweep visits) gets its reactions; on a
        store that lost its group, none older than the notifications are remembered, so that
        none is sent twice. Reacting again is harmless: each job carries its version, and each
        notification is handed out once."""
        self.executor.store.feed.join(GROUP, since_ms=int(time.time() * 1000) - KEEP_SECONDS * 1000)
        return True

    def _consume(self, wait: bool) -> None:
        """React to the games announced on the feed, waiting up to a second for one if `wait`
        (what a store that restarted lost of the feed, the sweep reacts to)."""
        try:
            announced = self.executor.store.feed.take(GROUP, self.name, 100, 1000 if wait else None)
        except GroupLost:
            self._join_feed()
            return
        for game_id in dict.fromkeys(game_id for _, game_id in announced):  # each game once
            try:
                self.react(game_id)
            except AWAY:
                raise
            except Exception:  # one bad game holds up none of the others in the batch
                log.exception("reaction failed", extra={"game_id": game_id})
        self.executor.store.feed.ack(GROUP, announced)

    def _guarded(self, work: Callable[[], T], failed: T) -> T:
        """What `work` returns, or `failed` if it raised."""
        try:
            return work()
        except AWAY as error:
            log.warning("store unreachable, retrying: %s", error)
            time.sleep(1)
        except Exception:  # the loop outlives any one bad game
            log.exception("reaction failed")
            time.sleep(0.1)
        return failed


def _cancelled_markers(record: GameRecord) -> list[str]:
    """The keys under which the players of a cancelled game were told of it, seat by seat."""
    return [f"cancelled-{seat}" for seat in record.holders]


def _about(loaded: Loaded) -> dict[str, object]:
    """What every notification says of its game: its id, the game it is, and its version."""
    return {"game_id": loaded.record.id, "game": loaded.record.game, "version": loaded.version}
