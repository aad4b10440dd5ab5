"""Players' webhooks: where their notifications go, and the log of every delivery attempt."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from typing import cast

import redis

from events import keys


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
