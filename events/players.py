"""Registered players: a name and a token that can join games and act for the seats it holds;
their webhooks and the log of deliveries to them."""

from __future__ import annotations

import dataclasses
import json
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
    vacation_until: int | None = None  # milliseconds since the epoch


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
        return self.get(player_id.decode())

    def get(self, player_id: str) -> Player | None:
        fields = cast(dict[bytes, bytes], self.redis.hgetall(keys.player(player_id)))
        if not fields:
            return None
        vacation = int(fields[b"vacation_until"]) if b"vacation_until" in fields else None
        return Player(player_id, fields[b"name"].decode(), int(fields[b"created"]), vacation)

    def set_vacation(self, player_id: str, until: int | None) -> None:
        """Declare a vacation until `until` (ms since the epoch), or end it (None)."""
        if until is None:
            self.redis.hdel(keys.player(player_id), "vacation_until")
        else:
            self.redis.hset(keys.player(player_id), "vacation_until", until)

    def joined(self, player_id: str, game_id: str) -> None:
        self.redis.zadd(keys.player_games(player_id), {game_id: int(time.time() * 1000)})

    def left(self, player_id: str, game_id: str) -> None:
        self.redis.zrem(keys.player_games(player_id), game_id)

    def games(self, player_id: str) -> list[str]:
        """The games the player holds a seat in, newest first."""
        return [game_id.decode() for game_id in cast(list[bytes], self.redis.zrevrange(keys.player_games(player_id), 0, -1))]


@dataclass(frozen=True, slots=True)
class Webhook:
    id: str
    url: str
    secret: str
    created: int


class Webhooks:
    """Where a player's notifications go, and the log of every delivery attempt."""

    LOG_LENGTH = 500

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def add(self, player_id: str, webhook_id: str, url: str, secret: str) -> Webhook:
        hook = Webhook(webhook_id, url, secret, int(time.time() * 1000))
        self.redis.hset(keys.webhooks(player_id), webhook_id, json.dumps(dataclasses.asdict(hook)))
        return hook

    def remove(self, player_id: str, webhook_id: str) -> bool:
        return bool(self.redis.hdel(keys.webhooks(player_id), webhook_id))

    def of(self, player_id: str) -> list[Webhook]:
        stored = cast(dict[bytes, bytes], self.redis.hgetall(keys.webhooks(player_id)))
        return sorted((Webhook(**json.loads(raw)) for raw in stored.values()), key=lambda hook: hook.created)

    def log(self, player_id: str, attempt: dict[str, object]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(keys.deliveries(player_id), json.dumps(attempt))
        pipe.ltrim(keys.deliveries(player_id), 0, self.LOG_LENGTH - 1)
        pipe.execute()

    def attempts(self, player_id: str, limit: int) -> list[dict[str, object]]:
        return [json.loads(raw) for raw in cast(list[bytes], self.redis.lrange(keys.deliveries(player_id), 0, limit - 1))]
