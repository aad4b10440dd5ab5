"""Ratings, a projection of the finished rated games: each result (application.results) is
recorded once, by its game's id, and folded into its identities' ratings in one order per game,
that of the fold: its last event's time, then its game's id. A result recorded after a later one
was folded is folded again from its place on, so the ratings never depend on the order results
arrived in, and rebuilding them from the stored games gives the same numbers to the last bit.
The model is OpenSkill's Plackett-Luce, its parameters stated below (docs/ratings.md); the
storage is events.ratings, the fold events.rating_fold, a rebuild events.rating_rebuild."""

from __future__ import annotations

import redis
from openskill.models import PlackettLuce

from application.results import result_of
from domain import GAMES
from events import clock
from events.envelope import Lifecycle
from events.execute import Executor
from events.rating_fold import RatingStore
from events.rating_rebuild import Rebuild, forget_old
from events.ratings import Rating, Result
from runtime.config import Config

MU = 25.0  # a new identity's mean skill
SIGMA = MU / 3  # its uncertainty: three sigmas span the scale
BETA = SIGMA / 2  # the skill gap that makes a win about 76% likely between two
TAU = SIGMA / 100  # the uncertainty added before each game, so that a rating keeps moving
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)
NEWCOMER = Rating(MU, SIGMA)


def rate(result: Result, before: dict[str, Rating]) -> dict[str, Rating]:
    """Each identity's rating after `result`, from `before` (a new identity starts at MU, SIGMA)."""
    identities = result.identities()
    was = [before.get(identity, NEWCOMER) for identity in identities]
    teams = [[MODEL.create_rating([rating.mu, rating.sigma])] for rating in was]
    ranks = [float(result.place_of(identity)) for identity in identities]
    after = MODEL.rate(teams, ranks=ranks)
    return {identity: Rating(team[0].mu, team[0].sigma, rating.games + 1, result.at)
            for identity, team, rating in zip(identities, after, was, strict=True)}


class Ratings(RatingStore):
    """The ratings of every game, folded by this model; provisional while sigma is above `provisional_sigma`."""

    def __init__(self, client: redis.Redis, provisional_sigma: float = Config.provisional_sigma) -> None:
        super().__init__(client, rate, provisional_sigma)


def rebuild(executor: Executor, provisional_sigma: float = Config.provisional_sigma) -> int:
    """Fold each game's ratings afresh from every finished game the store holds, one game at a time,
    each result recorded meanwhile kept; delete the keys the ratings were kept under before each game
    had a slot of its own; how many results count."""
    forget_old(executor.store.redis)
    ratings = Ratings(executor.store.redis, provisional_sigma)
    return sum(_rebuilt(executor, ratings, game) for game in GAMES)


def _rebuilt(executor: Executor, ratings: Ratings, game: str) -> int:
    """Rebuild `game`'s ratings end to end: its lock and marker taken, its finished games read, folded
    and swapped in, the generation before deleted, the lock let go; how many results count."""
    with Rebuild(ratings, game) as rebuilding:
        started = clock.now()  # every result recorded from now on reaches the fresh keys too
        for game_id, _ in executor.store.games.indexed(Lifecycle.FINISHED):
            rebuilding.keep_in_time()  # unrated games and other games' too take time to read
            if executor.store.games.get(game_id).game == game and (result := result_of(executor, game_id)) is not None:
                rebuilding.add(result)
        rebuilding.swap(started)
        return rebuilding.added
