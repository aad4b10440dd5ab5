"""Stream tickets: short-lived, single-use stand-ins for a bearer token, so that a web page can
open an event stream with EventSource (which cannot send `Authorization`) without putting the
long-lived token in a URL. A ticket is random, kept only as its SHA-256 with a time to live,
and taken out of the store by the one request that uses it (GETDEL), so it opens one stream."""

from __future__ import annotations

import json
import secrets
from dataclasses import asdict, dataclass
from typing import cast

import redis

from events import keys
from events.seats import hash_token

TICKET_SECONDS = 30  # how long a ticket waits to be used


@dataclass(frozen=True, slots=True)
class StreamGrant:
    """What a ticket opens: a game's stream as `seat`, or, without a game, the inbox of player `holder`."""

    holder: str  # the seat token's SHA-256 or the registered player's id
    game_id: str | None = None
    seat: int | None = None
    token: str | None = None  # the SHA-256 of the player token it was asked with: the stream ends with it


class StreamTickets:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def issue(self, grant: StreamGrant, seconds: int = TICKET_SECONDS) -> str:
        """A new ticket for `grant`, good once within `seconds`."""
        ticket = secrets.token_urlsafe(24)
        self.redis.set(keys.stream_ticket(hash_token(ticket)), json.dumps(asdict(grant)), ex=seconds)
        return ticket

    def redeem(self, ticket: str) -> StreamGrant | None:
        """What the ticket grants, if it is known and unused and has not expired; it is used up."""
        stored = cast(bytes | None, self.redis.getdel(keys.stream_ticket(hash_token(ticket))))
        return None if stored is None else StreamGrant(**json.loads(stored))
