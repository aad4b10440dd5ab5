"""Registered players: a name and a token that can join games and act for the seats it holds."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import cast

import redis

from events import keys
from events.store import hash_token


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    created: int  # milliseconds since the epoch


class PlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def register(self, player_id: str, name: str, token: str) -> Player:
        now = int(time.time() * 1000)
        digest = hash_token(token)
        self.redis.hset(keys.player(player_id), mapping={"name": name, "token": digest, "created": now})
        self.redis.hset(keys.player_tokens(), digest, player_id)
        return Player(player_id, name, now)

    def by_token(self, token: str) -> Player | None:
        player_id = cast(bytes | None, self.redis.hget(keys.player_tokens(), hash_token(token)))
        if player_id is None:
            return None
        fields = cast(dict[bytes, bytes], self.redis.hgetall(keys.player(player_id.decode())))
        return Player(player_id.decode(), fields[b"name"].decode(), int(fields[b"created"]))

    def joined(self, player_id: str, game_id: str) -> None:
        self.redis.zadd(keys.player_games(player_id), {game_id: int(time.time() * 1000)})

    def games(self, player_id: str) -> list[str]:
        """The games the player holds a seat in, newest first."""
        return [game_id.decode() for game_id in cast(list[bytes], self.redis.zrevrange(keys.player_games(player_id), 0, -1))]
