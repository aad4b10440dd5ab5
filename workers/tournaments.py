"""The jobs that move tournaments on: one starts a tournament whose sign-up closed, one pairs the
next round once a table of the round under way ends. Both may run any number of times
(application.tournament_rounds pairs each round once)."""

from __future__ import annotations

from application import tournament_rounds
from events.tournaments import Tournaments
from workers.queues import job_executor


def start_tournament(tournament_id: str) -> str:
    """Close the tournament's sign-up and pair its first round, if its start has come."""
    executor = job_executor()
    tournament_rounds.start(executor, Tournaments(executor.store.redis), tournament_id)
    return "started"


def advance_tournament(tournament_id: str) -> str:
    """Keep the results of the tournament's finished tables and pair its next round once every table has ended."""
    executor = job_executor()
    tournament_rounds.advance(executor, Tournaments(executor.store.redis), tournament_id)
    return "advanced"
