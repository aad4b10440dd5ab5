"""What the ratings show: each game's leaderboard, and a player's (or an AI level's) page — their
rating in each game with its history, their places, their latest rated games and how they fared
against another."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from application.ratings import Rating, Ratings
from application.results import Result, is_ai, shown_name
from players.accounts import PlayerStore


@dataclass(frozen=True, slots=True)
class Standing:
    """An identity's rating in a game, and whether it is still provisional (sigma above the threshold)."""

    identity: str
    name: str
    rating: Rating
    provisional: bool


@dataclass(frozen=True, slots=True)
class Point:
    """An identity's rating after one rated game: the game (none if unlisted), its time, and mu and sigma after it."""

    game_id: str | None
    at: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class Career:
    """An identity in one game: its standing, its rating after each game, and how many games it
    finished at each place (`places[0]` won)."""

    game: str
    standing: Standing
    history: list[Point]
    places: list[int]


@dataclass(frozen=True, slots=True)
class Meetings:
    """Two identities' rated games together in one game: how often the first finished ahead, behind or tied."""

    game: str
    played: int
    ahead: int
    behind: int
    tied: int


def shown_names(players: PlayerStore, identities: Iterable[str], sat: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each identity's name as shown now: an AI level's own, a registered player's as the players'
    store has it (as they sat, in `sat`, if the store no longer has them)."""
    wanted = list(dict.fromkeys(identities))
    people = [identity for identity in wanted if not is_ai(identity)]
    found = {identity: player.name for identity, player in zip(people, players.many(people), strict=True) if player}
    return {identity: shown_name(identity, found.get(identity) or (sat or {}).get(identity)) for identity in wanted}


def leaderboard(ratings: Ratings, players: PlayerStore, game: str, since: int,
                provisional_sigma: float) -> tuple[list[Standing], list[Standing]]:
    """The identities that played `game` since `since` (ms), best first (ties by identity):
    those established, and those still provisional."""
    active = {identity: rating for identity, rating in ratings.current(game).items() if rating.last >= since}
    names = shown_names(players, active)
    standings = [Standing(identity, names.get(identity, identity), rating, rating.sigma > provisional_sigma)
                 for identity, rating in sorted(active.items(), key=lambda item: (-item[1].value, item[0]))]
    return [each for each in standings if not each.provisional], [each for each in standings if each.provisional]


def careers(ratings: Ratings, players: PlayerStore, games: list[str], identity: str, provisional_sigma: float) -> list[Career]:
    """The identity's career in each of `games` it played rated."""
    name = shown_names(players, [identity])[identity]
    found = []
    for game in games:
        history, now = ratings.history(game, identity), ratings.rating(game, identity)
        if not history or now is None:  # none, or a rebuild under way
            continue
        results = {result.game_id: result for result in ratings.results([game_id for game_id, _, _, _ in history])}
        points = [Point(results[game_id].public_id if game_id in results else None, at, Rating(mu, sigma, number, at))
                  for number, (game_id, at, mu, sigma) in enumerate(history, start=1)]
        counted = Counter(result.place_of(identity) for result in results.values())
        places = [counted[place] for place in range(1, max(counted, default=0) + 1)]
        found.append(Career(game, Standing(identity, name, now, now.sigma > provisional_sigma), points, places))
    return found


def _game_ids(ratings: Ratings, games: list[str], identity: str, latest: int | None = None) -> list[tuple[int, str]]:
    """Each rated game the identity played (its `latest` in each game, if given), as (time, game id)."""
    return [(at, game_id) for game in games for game_id, at, _, _ in ratings.history(game, identity, latest)]


def recent(ratings: Ratings, players: PlayerStore, games: list[str], identity: str, limit: int) -> list[Result]:
    """The identity's latest `limit` rated results, newest first, each identity named as it is now."""
    latest = sorted(_game_ids(ratings, games, identity, limit), reverse=True)[:limit]
    results = ratings.results([game_id for _, game_id in latest])
    names = shown_names(players, (each for result in results for each in result.identities()),
                        {each: name for result in results for each, name in result.names.items()})
    return [dataclasses.replace(result, names={each: names[each] for each in result.identities()}) for result in results]


def versus(ratings: Ratings, games: list[str], identity: str, other: str) -> list[Meetings]:
    """How `identity` fared against `other` in each game they played rated together."""
    theirs = {game_id for _, game_id in _game_ids(ratings, games, other)}
    shared = [result for result in ratings.results([game_id for _, game_id in _game_ids(ratings, games, identity)])
              if result.game_id in theirs]
    meetings = []
    for game in games:
        compared = Counter((result.place_of(identity) > result.place_of(other)) - (result.place_of(identity) < result.place_of(other))
                           for result in shared if result.game == game)
        if compared:
            meetings.append(Meetings(game, sum(compared.values()), compared[-1], compared[1], compared[0]))
    return meetings
