"""The jobs of a seat whose time runs out: applying a deadline that passed, and reminding a player before."""

from __future__ import annotations

import time

from rq import Queue

from application.deadlines import due, game_clocks, spend_vacation_day
from application.vacations import announce_games
from domain.core.rng import SystemRng
from events.envelope import DeadlinePolicy
from events.execute import Loaded
from players.vacations import Spent
from runtime.config import Config
from workers.acting import act_for
from workers.notify import notify
from workers.queues import (
    FAILURE_TTL,
    MOVE_JOB_SECONDS,
    RESULT_TTL,
    deadline_queue,
    job_connection,
    job_executor,
    moment,
)


def apply_deadline(game_id: str, version: int, seat: int) -> str:
    """Act for `seat` as its deadline's policy says, if the game still waits for it at `version`.

    A move that came first wins, and a deadline applied once is never applied again; one that
    moved since it was scheduled (a vacation) is scheduled again for its new time, and so is one
    whose player has a vacation day left to spend in a correspondence game, or had one spent by
    another game's job meanwhile (application.deadlines.spend_vacation_day)."""
    executor = job_executor()
    loaded = executor.load(game_id)
    deadline = due(executor.store, loaded, seat) if loaded.version == version else None
    if deadline is None:
        return "stale"
    if deadline.at > time.time() * 1000:
        _schedule(game_id, version, seat, deadline.at)
        return "postponed"
    spent = spend_vacation_day(executor.store, loaded, seat, deadline.at, Config.from_env().vacation_days_per_year)
    later = deadline if spent is Spent.NONE else due(executor.store, loaded, seat)
    if later is None:
        return "stale"
    if later.at != deadline.at:  # a day spent, or another game's job spent one first
        _schedule(game_id, version, seat, later.at)
        if spent is Spent.DAY and (player_id := loaded.record.holders.get(seat)) is not None:
            announce_games(executor.store, player_id)  # every clock of theirs stopped: each game tells its readers
        return "vacation" if spent is Spent.DAY else "postponed"

    def choose(loaded: Loaded) -> object:
        if deadline.policy is DeadlinePolicy.AUTO and deadline.level is not None:
            return loaded.game.bot(deadline.level, deadline.budget, time.perf_counter)(loaded.state, seat, SystemRng())
        if deadline.policy is DeadlinePolicy.FORFEIT:
            return loaded.game.forfeit_command(seat)
        return loaded.game.timeout_command(loaded.state, seat)

    return act_for(game_id, version, seat, "deadline", choose)


def _schedule(game_id: str, version: int, seat: int, at: int) -> None:
    """Schedule the seat's deadline at `version` for `at` (once per moment it may fall at), and its reminders."""
    queue = deadline_queue(job_connection())
    queue.enqueue_at(
        moment(at), apply_deadline, game_id, version, seat,
        job_id=f"deadline-{game_id}-{version}-{seat}-{at}", job_timeout=MOVE_JOB_SECONDS,
        result_ttl=RESULT_TTL, failure_ttl=FAILURE_TTL,
    )
    schedule_reminders(queue, game_id, version, seat, at, Config.from_env().reminders)


def schedule_reminders(queue: Queue, game_id: str, version: int, seat: int, at: int, reminders: tuple[int, ...]) -> None:
    """Schedule a reminder `before` seconds ahead of the seat's deadline at `at`, for each of
    `reminders` still to come, named for the deadline's moment too: a deadline that moved has its own."""
    for before in reminders:
        if (remind_at := at - before * 1000) > time.time() * 1000:
            queue.enqueue_at(moment(remind_at), remind, game_id, version, seat, before, at,
                             job_id=f"remind-{game_id}-{version}-{seat}-{before}-{at}", result_ttl=RESULT_TTL,
                             failure_ttl=FAILURE_TTL)


def remind(game_id: str, version: int, seat: int, before: int, deadline: int) -> str:
    """Remind the player at `seat` of its deadline `before` seconds ahead, if the game still waits at
    `version`, the deadline has not moved since (the reminders of a moved one are scheduled with
    it) and the seat's clock is not stopped for a vacation (a reminder then would tell its end)."""
    executor = job_executor()
    loaded = executor.load(game_id)
    player_id = loaded.record.holders.get(seat)
    if loaded.version != version or seat not in loaded.game.status(loaded.state).to_move or player_id is None:
        return "stale"
    clocks = game_clocks(executor.store, loaded)
    current = due(executor.store, loaded, seat, clocks)
    if current is None or current.at != deadline or (clocks is not None and clocks[seat].paused == "vacation"):
        return "stale"
    notify(executor.store.redis, job_connection(), game_id, f"{version}-remind-{seat}-{before}-{deadline}", player_id, {
        "id": f"{game_id}-{version}-remind-{seat}-{before}-{deadline}", "kind": "reminder", "game_id": game_id,
        "game": loaded.record.game, "version": version, "seat": seat, "deadline": deadline,
    })
    return "reminded"
