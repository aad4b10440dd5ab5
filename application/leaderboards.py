"""What the ratings show: each game's leaderboard, and a player's (or an AI level's) page — their
rating in each game with its latest history, their places, their latest rated games, the
opponents they met and how they fared against another. Each is read from the counters the fold
keeps (events.ratings), at a cost of what it shows, never of a whole history or a whole game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from application.ratings import Ratings
from application.results import is_ai, shown_name
from events.ratings import HeadToHead, Rating, Result
from players.accounts import PlayerStore


@dataclass(frozen=True, slots=True)
class Ranked:
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
    """An identity in one game: its ranking, its rating after each of its latest games (of
    `history_total` in all), and how many games it finished at each place (`places[0]` won)."""

    game: str
    ranked: Ranked
    history: list[Point]
    history_total: int
    places: list[int]


@dataclass(frozen=True, slots=True)
class Meetings:
    """Two identities' rated games together in one game: how often the first finished ahead, behind or tied."""

    game: str
    record: HeadToHead


@dataclass(frozen=True, slots=True)
class Opponent:
    """An identity met in a game, as shown now, and the record against it."""

    name: str
    record: HeadToHead


def shown_names(players: PlayerStore, identities: Iterable[str], sat: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each identity's name as shown now: an AI level's own, a registered player's as the players'
    store has it (as they sat, in `sat`, if the store no longer has them)."""
    wanted = list(dict.fromkeys(identities))
    people = [identity for identity in wanted if not is_ai(identity)]
    found = {identity: player.name for identity, player in zip(people, players.many(people), strict=True) if player}
    return {identity: shown_name(identity, found.get(identity) or (sat or {}).get(identity)) for identity in wanted}


def leaderboard(ratings: Ratings, players: PlayerStore, game: str, provisional: bool, since: int,
                after: int, limit: int) -> tuple[int, list[Ranked]]:
    """How many established (or provisional) identities played `game` since `since` (ms), and
    `limit` of them past the first `after`, best first (ties by identity)."""
    total, page = ratings.board(game, provisional, since, after, limit)
    names = shown_names(players, (identity for identity, _ in page))
    return total, [Ranked(identity, names[identity], rating, provisional) for identity, rating in page]


def careers(ratings: Ratings, players: PlayerStore, games: list[str], identity: str, points: int) -> list[Career]:
    """The identity's career in each of `games` it played rated, with the latest `points` of its history."""
    name = shown_names(players, [identity])[identity]
    found = []
    for game in games:
        now = ratings.rating(game, identity)
        if now is None:
            continue
        history, total = ratings.history(game, identity, points)
        unknown = [entry.game_id for entry in history if entry.unlisted is None]  # entries written before they said
        unlisted = {result.game_id for result in ratings.results(game, unknown) if result.unlisted}
        unlisted.update(entry.game_id for entry in history if entry.unlisted)
        shown = [Point(None if entry.game_id in unlisted else entry.game_id, entry.at, Rating(entry.mu, entry.sigma, number, entry.at))
                 for number, entry in enumerate(history, start=total - len(history) + 1)]
        ranked = Ranked(identity, name, now, now.sigma > ratings.provisional_sigma)
        found.append(Career(game, ranked, shown, total, ratings.places(game, identity)))
    return found


def recent(ratings: Ratings, players: PlayerStore, games: list[str], identity: str, limit: int) -> list[Result]:
    """The identity's latest `limit` rated results, newest first, each identity named as it is now."""
    latest = sorted(((entry.at, entry.game_id, game) for game in games for entry in ratings.history(game, identity, limit)[0]),
                    reverse=True)[:limit]
    by_game: dict[str, list[str]] = {}
    for _, game_id, game in latest:
        by_game.setdefault(game, []).append(game_id)
    found = {result.game_id: result for game, game_ids in by_game.items() for result in ratings.results(game, game_ids)}
    results = [found[game_id] for _, game_id, _ in latest if game_id in found]
    names = shown_names(players, (each for result in results for each in result.identities()),
                        {each: name for result in results for each, name in result.names.items()})
    return [dataclasses.replace(result, names={each: names[each] for each in result.identities()}) for result in results]


def versus(ratings: Ratings, games: list[str], identity: str, other: str) -> list[Meetings]:
    """How `identity` fared against `other` in each game they played rated together."""
    return [Meetings(game, record) for game in games if (record := ratings.versus(game, identity, other)) is not None]


def opponents(ratings: Ratings, players: PlayerStore, game: str, identity: str, after: int, limit: int) -> tuple[int, list[Opponent]]:
    """How many identities `identity` met in `game`, and `limit` of them past the first `after`, most met first."""
    total, records = ratings.opponents(game, identity, after, limit)
    names = shown_names(players, (record.other for record in records))
    return total, [Opponent(names[record.other], record) for record in records]
