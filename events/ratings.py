"""Ratings in the store, each game's in a slot of its own (events.keys.ratings_root), read from the
generation its `current` key names: the values (a rated result, a rating, a history entry, a
head-to-head record), the recording of each result once, and the reads the pages make: a rating,
its history, places, head to head, opponents and the leaderboard. What folds the results into them
is events.rating_fold (docs/ratings.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import redis

from domain import GAMES
from events import keys, scripts

WALK = 200  # identities a leaderboard reads at a time, walking down from its top


@dataclass(frozen=True, slots=True)
class Result:
    """A finished rated game's places, best first, each a tuple of identities sharing it, and the
    time (ms since the epoch) of its last event; `names` shows each identity as it sat. An unlisted
    game (or a copy of one) is `unlisted`: what the ratings show never names it."""

    game_id: str
    game: str
    at: int
    places: tuple[tuple[str, ...], ...]
    names: dict[str, str]
    unlisted: bool = False

    @property
    def public_id(self) -> str | None:
        """The game's id as the ratings show it: none for an unlisted game."""
        return None if self.unlisted else self.game_id

    @property
    def position(self) -> tuple[int, str]:
        """Where it stands in the fold's order: its last event's time, then its game's id."""
        return self.at, self.game_id

    def identities(self) -> list[str]:
        return [identity for place in self.places for identity in place]

    def place_of(self, identity: str) -> int:
        """Its place, 1 for the best."""
        return next(index for index, place in enumerate(self.places, start=1) if identity in place)

    def to_json(self) -> str:
        return json.dumps({"game_id": self.game_id, "game": self.game, "at": self.at,
                           "places": [list(place) for place in self.places], "names": self.names,
                           "unlisted": self.unlisted}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Result:
        data: dict[str, Any] = json.loads(text)
        return cls(data["game_id"], data["game"], data["at"], tuple(tuple(place) for place in data["places"]), data["names"],
                   data.get("unlisted", False))


@dataclass(frozen=True, slots=True)
class Rating:
    """An identity's skill in one game: its mean and uncertainty, the results it took part in, and
    the time of its latest (ms since the epoch)."""

    mu: float
    sigma: float
    games: int = 0
    last: int = 0

    @property
    def value(self) -> float:
        """The rating shown and ranked by: the skill it has with 99.7% certainty, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> str:
        return json.dumps([self.mu, self.sigma, self.games, self.last])

    @classmethod
    def from_json(cls, text: str | bytes) -> Rating:
        mu, sigma, games, last = json.loads(text)
        return cls(mu, sigma, games, last)


LISTING = {"listed": False, "unlisted": True}  # an entry's last word: whether its game is unlisted


@dataclass(frozen=True, slots=True)
class Entry:
    """A history entry: the game, its time, the rating's mu and sigma after it (to the last bit), the
    place taken, and whether the game is unlisted (None in an entry written before entries said)."""

    game_id: str
    at: int
    mu: float
    sigma: float
    place: int
    unlisted: bool | None = False

    @property
    def text(self) -> str:
        return f"{self.game_id} {self.mu!r} {self.sigma!r} {self.place} {'unlisted' if self.unlisted else 'listed'}"

    @property
    def position(self) -> tuple[int, str]:
        """Where it stands in the fold's order: its game's time, then its game's id."""
        return self.at, self.game_id

    @classmethod
    def parse(cls, text: bytes, at: float) -> Entry:
        game_id, mu, sigma, place, *listing = text.decode().split(" ")
        return cls(game_id, int(at), float(mu), float(sigma), int(place), LISTING[listing[0]] if listing else None)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How an identity fared against one other in a game: games together, and those it finished ahead, behind, level."""

    other: str
    ahead: int
    behind: int
    tied: int

    @property
    def played(self) -> int:
        return self.ahead + self.behind + self.tied

    @classmethod
    def parse(cls, other: str, text: bytes | None) -> HeadToHead:
        ahead, behind, tied = (int(count) for count in (text or b"0 0 0").split(b" "))
        return cls(other, ahead, behind, tied)


Rate = Callable[[Result, dict[str, Rating]], dict[str, Rating]]  # each identity's rating after a result, from those before


class RatingBook:
    """Every game's recorded results and the ratings read from them; an identity is provisional
    while its sigma is above `provisional_sigma`."""

    def __init__(self, client: redis.Redis, provisional_sigma: float) -> None:
        self.redis = client
        self.provisional_sigma = provisional_sigma
        self._record = scripts.register(client, "record_result.lua")

    def generation(self, game: str) -> str:
        """The generation of the game's ratings the pages read ("" the first)."""
        raw = cast(bytes | None, self.redis.get(keys.rating_current(game)))
        return "" if raw is None else raw.decode()

    def root(self, game: str) -> str:
        """The prefix of the keys of the game's current generation."""
        return keys.ratings_root(game, self.generation(game))

    def record(self, result: Result) -> bool:
        """Record `result` for folding, unless its game's was recorded before; whether it is new.
        While a rebuild of its game runs, it is recorded into the rebuild's generation too."""
        game = result.game
        while True:
            pipe = self.redis.pipeline(transaction=False)
            pipe.get(keys.rating_current(game))
            pipe.get(keys.rating_rebuilding(game))
            current, rebuilding = ((raw or b"").decode() for raw in pipe.execute())
            targets = [keys.rating_current(game), keys.rating_rebuilding(game)]
            for generation in (current, rebuilding) if rebuilding else (current,):
                root = keys.ratings_root(game, generation)
                targets += [keys.rating_results(root), keys.rating_order(root), keys.rating_unfolded(root)]
            recorded = int(self._record(keys=targets, args=[result.game_id, result.to_json(), result.at, current, rebuilding]))
            if recorded >= 0:  # else a generation changed between the read and the script: read again
                return bool(recorded)

    def is_recorded(self, game: str, game_id: str) -> bool:
        return bool(self.redis.hexists(keys.rating_results(self.root(game)), game_id))

    def marks(self) -> dict[str, int | None]:
        """Each game's sweep mark: up to when (ms) the finished games were swept for it (None if never)."""
        read = {game: cast(bytes | None, self.redis.get(keys.rating_swept(game))) for game in GAMES}  # a slot each: no MGET
        return {game: None if mark is None else int(mark) for game, mark in read.items()}

    def mark_swept(self, until: int, was: dict[str, int | None]) -> dict[str, int | None]:
        """Move each game's mark to `until` where it is still what `was` says (a mark another process
        set meanwhile, a rebuild's, stays); the marks now, as far as this process set them."""
        now = dict(was)
        for game, mark in was.items():
            with self.redis.pipeline(transaction=True) as pipe:
                pipe.watch(keys.rating_swept(game))
                found = cast(bytes | None, pipe.get(keys.rating_swept(game)))
                if (None if found is None else int(found)) != mark:
                    now.pop(game)
                    continue
                pipe.multi()
                pipe.set(keys.rating_swept(game), until)
                try:
                    pipe.execute()
                    now[game] = until
                except redis.WatchError:
                    now.pop(game)
        return now

    def rating(self, game: str, identity: str) -> Rating | None:
        """The identity's rating in `game`, if it has one."""
        raw = cast(bytes | None, self.redis.hget(keys.rating_now(self.root(game)), identity))
        return None if raw is None else Rating.from_json(raw)

    def history(self, game: str, identity: str, latest: int | None = None) -> tuple[list[Entry], int]:
        """The identity's history in `game` (its `latest` entries only, if given), oldest first, and how many entries it has in all."""
        history = keys.rating_history(self.root(game), identity)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(history, 0 if latest is None else -latest, -1, withscores=True)
        pipe.zcard(history)
        entries, total = pipe.execute()
        return [Entry.parse(raw, at) for raw, at in entries], int(total)

    def places(self, game: str, identity: str) -> list[int]:
        """How many times the identity finished at each place in `game`, from the first to its worst."""
        raw = cast(dict[bytes, bytes], self.redis.hgetall(keys.rating_places(self.root(game), identity)))
        found = {int(place): int(count) for place, count in raw.items()}
        return [found.get(place, 0) for place in range(1, max(found, default=0) + 1)]

    def versus(self, game: str, identity: str, other: str) -> HeadToHead | None:
        """How the identity fared against `other` in `game`, if they met."""
        raw = cast(bytes | None, self.redis.hget(keys.rating_versus(self.root(game), identity), other))
        return None if raw is None else HeadToHead.parse(other, raw)

    def opponents(self, game: str, identity: str, after: int, limit: int) -> tuple[int, list[HeadToHead]]:
        """How many identities the identity met in `game`, and `limit` of them past the first `after`, most met first."""
        root = self.root(game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcard(keys.rating_opponents(root, identity))
        pipe.zrange(keys.rating_opponents(root, identity), after, after + limit - 1)
        total, others = pipe.execute()
        if not others:
            return int(total), []
        raw = cast(list[bytes | None], self.redis.hmget(keys.rating_versus(root, identity), others))
        return int(total), [HeadToHead.parse(other.decode(), each) for other, each in zip(others, raw, strict=True)]

    def board(self, game: str, provisional: bool, since: int, after: int, limit: int) -> tuple[int, list[tuple[str, Rating]]]:
        """How many established (or provisional) identities played `game` since `since` (ms), and
        `limit` of them past the first `after`, best first (ties by identity): at a cost of the page
        when everyone on the board is active, else of the cheaper of walking the board from its top
        and sorting the active ones (docs/ratings.md)."""
        root = self.root(game)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zcount(keys.rating_last(root, provisional), since, "+inf")
        pipe.zcard(keys.rating_board(root, provisional))
        total, size = (int(each) for each in pipe.execute())
        if after >= total:
            return total, []
        if total >= size:
            found = [raw.decode() for raw in cast(list[bytes], self.redis.zrange(keys.rating_board(root, provisional), after, after + limit - 1))]
        elif total <= (after + limit) * size // total:  # sorting the active ones reads fewer than walking down to the page
            found = self._sorted(root, provisional, since)[after:after + limit]
        else:
            found = self._walked(root, provisional, since, after, limit, total)
        raw = cast(list[bytes | None], self.redis.hmget(keys.rating_now(root), found)) if found else []
        return total, [(identity, Rating.from_json(each)) for identity, each in zip(found, raw, strict=True) if each]

    def _sorted(self, root: str, provisional: bool, since: int) -> list[str]:
        """The identities active since `since`, best first (ties by identity), read from their latest times."""
        active = [raw.decode() for raw in cast(list[bytes], self.redis.zrangebyscore(keys.rating_last(root, provisional), since, "+inf"))]
        scores = self.redis.zmscore(keys.rating_board(root, provisional), active) if active else []
        return [identity for score, identity in sorted((score, identity) for identity, score in zip(active, scores, strict=True)
                                                       if score is not None)]

    def _walked(self, root: str, provisional: bool, since: int, after: int, limit: int, total: int) -> list[str]:
        """`limit` identities active since `since` past the first `after`, walking the board down from its top."""
        found: list[str] = []
        skipped, position = 0, 0
        while len(found) < limit and skipped + len(found) < total:
            walked = [raw.decode() for raw in cast(list[bytes], self.redis.zrange(keys.rating_board(root, provisional), position, position + WALK - 1))]
            if not walked:
                break
            lasts = self.redis.zmscore(keys.rating_last(root, provisional), walked)
            active = [identity for identity, last in zip(walked, lasts, strict=True) if last is not None and last >= since]
            taken = active[max(0, after - skipped):]
            skipped += len(active) - len(taken)
            found.extend(taken[:limit - len(found)])
            position += WALK
        return found

    def results(self, game: str, game_ids: list[str]) -> list[Result]:
        """The recorded results of these games, in their order, leaving out any not recorded."""
        return self.results_at(self.root(game), game_ids)

    def results_at(self, root: str, game_ids: list[str]) -> list[Result]:
        """The results of these games recorded in the generation at `root`, in their order, leaving out any not recorded."""
        if not game_ids:
            return []
        raw = cast(list[bytes], self.redis.hmget(keys.rating_results(root), game_ids))
        return [Result.from_json(each) for each in raw if each]
