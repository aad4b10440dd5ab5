"""Registered players: a name and the tokens that join games and act for their seats
(players.devices), the games they hold or are invited to, and their time zone (their vacations:
players.vacations)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast

import redis

from events import keys
from events.seats import hash_token, player_of_token
from players.devices import FIRST_DEVICE, PlayerTokens


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: int  # milliseconds since the epoch
    time_zone: str = "UTC"  # an IANA name: where their weekends fall, for clocks that stop on weekends


class PlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def register(self, player_id: str, name: str, token: str, device: str = FIRST_DEVICE) -> Player:
        """A new player holding `token`, the first of their tokens, named `device`."""
        now = int(time.time() * 1000)
        self.redis.hset(keys.player(player_id), mapping={"name": name, "created": now})
        PlayerTokens(self.redis).add(player_id, device, token, now)
        return Player(player_id, name, now)

    def by_token(self, token: str) -> Player | None:
        player_id = player_of_token(self.redis, hash_token(token))
        return None if player_id is None else self.get(player_id)

    def get(self, player_id: str) -> Player | None:
        return _player(player_id, cast(dict[bytes, bytes], self.redis.hgetall(keys.player(player_id))))

    def many(self, player_ids: list[str]) -> list[Player | None]:
        """The players of these ids, in their order (None for an id no player has), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hgetall(keys.player(player_id))
        return [_player(player_id, fields) for player_id, fields in zip(player_ids, pipe.execute(), strict=True)]

    def set_time_zone(self, player_id: str, zone: str) -> None:
        """Set the player's time zone (an IANA name), fixed for each game as it starts."""
        self.redis.hset(keys.player(player_id), "time_zone", zone)

    def joined(self, player_id: str, game_id: str) -> None:
        self.redis.zadd(keys.player_games(player_id), {game_id: int(time.time() * 1000)})

    def games(self, player_id: str) -> list[str]:
        """The games the player holds a seat in or is invited to, newest first."""
        return [game_id.decode() for game_id in cast(list[bytes], self.redis.zrevrange(keys.player_games(player_id), 0, -1))]


def _player(player_id: str, fields: dict[bytes, bytes]) -> Player | None:
    """The player as stored in `fields` (none: no player has the id)."""
    if not fields:
        return None
    return Player(player_id, fields[b"name"].decode(), int(fields[b"created"]), fields.get(b"time_zone", b"UTC").decode())
