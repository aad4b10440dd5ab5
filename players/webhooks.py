"""Players' webhooks: where their notifications go, and the log of every delivery attempt."""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from typing import cast

import redis

from events import keys
from players.errors import WebhookLimitReached

# KEYS: the player's webhooks; ARGV: the new one's id, the webhook, and how many a player may have (0: any number)
_ADD = """
local most = tonumber(ARGV[3])
if most > 0 and redis.call('HLEN', KEYS[1]) >= most then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


@dataclass(frozen=True, slots=True)
class Webhook:
    id: str
    url: str
    secret: str
    created: int
    form: str = "meeple"  # the body: Meeple's signed JSON, or a chat's incoming webhook (application.chat_lines.FORMATS)


class Webhooks:
    """Where a player's notifications go, and the log of every delivery attempt."""

    LOG_LENGTH = 500

    def __init__(self, client: redis.Redis, per_player: int | None = None) -> None:
        """`per_player`: how many webhooks a player may have (None: any number, for what only reads them)."""
        self.redis, self.per_player = client, per_player
        self._add = client.register_script(_ADD)

    def add(self, player_id: str, webhook_id: str, url: str, secret: str, form: str = "meeple") -> Webhook:
        """A new webhook of the player's; raises WebhookLimitReached if they have `per_player` already."""
        hook, most = Webhook(webhook_id, url, secret, int(time.time() * 1000), form), self.per_player or 0
        if not self._add(keys=[keys.webhooks(player_id)], args=[webhook_id, json.dumps(dataclasses.asdict(hook)), most]):
            raise WebhookLimitReached(most)
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
