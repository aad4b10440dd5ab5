"""The jobs that move tournaments on: one starts a tournament whose sign-up closed, one pairs the
next round once a table of the round under way ends. Both may run any number of times
(application.tournament_rounds pairs each round once); neither holds a worker waiting for another."""

from __future__ import annotations

from application import tournament_rounds
from events import clock
from events.tournaments import Tournaments
from workers.queues import (
    FAILURE_TTL,
    MOVE_JOB_SECONDS,
    RESULT_TTL,
    deadline_queue,
    job_connection,
    job_executor,
    moment,
)

AGAIN_SECONDS = 3  # how soon a job that found its tournament held runs again


def start_tournament(tournament_id: str) -> str:
    """Close the tournament's sign-up and pair its first round, if its start has come."""
    executor = job_executor()
    tournament_rounds.start(executor, Tournaments(executor.store.redis), tournament_id)
    return "started"


def advance_tournament(tournament_id: str) -> str:
    """Keep the results of the tournament's finished tables and pair its next round once every table
    has ended; if another job holds the tournament, run again AGAIN_SECONDS later rather than wait."""
    executor = job_executor()
    if tournament_rounds.advance(executor, Tournaments(executor.store.redis), tournament_id, wait=False):
        return "advanced"
    deadline_queue(job_connection()).enqueue_at(
        moment(clock.now() + AGAIN_SECONDS * 1000), advance_tournament, tournament_id,
        job_id=f"tournament-{tournament_id}-again", job_timeout=MOVE_JOB_SECONDS, result_ttl=RESULT_TTL,
        failure_ttl=FAILURE_TTL)
    return "busy"
