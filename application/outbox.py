"""Mail asked for by the API or by an operation: each is put on the store's outbox, which the
workers drain into jobs that render and send it (workers.mail). Nothing here sends.

    queue_mail(client, Mail("sign_in", key=f"sign-in-{digest}", to_player=player_id, data={"link": url}))

A mail to a player goes to their confirmed address, if they have one and, for a kind they choose
(players.mail.KINDS), if they chose to get it; a mail to an address goes there as it is (only the
confirmation of an unconfirmed address is sent so). The same `key` is sent once, however often it
is queued."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import redis

from events import keys


@dataclass(frozen=True, slots=True)
class Mail:
    kind: str  # names its templates (application/templates/mail/<kind>.txt, .html): a kind of players.mail.KINDS or one always sent
    key: str  # once per key: a game's mail is keyed by (player, kind, game, version)
    to_player: str | None = None  # the player's id: their confirmed address
    to_address: str | None = None  # an address as it is
    # what its templates read, JSON-able: `link`, `game_id`, …; and `expires`, for a mail whose link has a life:
    # when (ms since the epoch) it ends, past which the mail is dropped rather than sent or kept
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.to_player is None) == (self.to_address is None):
            raise ValueError("a mail goes to a player or to an address, one of the two")

    def seconds_left(self, now: float | None = None) -> float | None:
        """How long the mail's link still works, or None if it has no end; 0 or less once it has ended."""
        expires = self.data.get("expires")
        return None if expires is None else expires / 1000 - (time.time() if now is None else now)

    def dumps(self) -> str:
        return json.dumps({"kind": self.kind, "key": self.key, "to_player": self.to_player,
                           "to_address": self.to_address, "data": dict(self.data)}, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str | bytes) -> Mail:
        return cls(**json.loads(text))


def queue_mail(client: redis.Redis, mail: Mail) -> None:
    """Put `mail` on the outbox, for the workers to send (within about a second while they run)."""
    client.rpush(keys.mail_outbox(), mail.dumps())


def mail_player(client: redis.Redis, player_id: str, kind: str, key: str, **data: Any) -> None:
    """Queue a mail of `kind` to the player's confirmed address."""
    queue_mail(client, Mail(kind, key, to_player=player_id, data=data))


def first_in(client: redis.Redis, player_id: str, author: str, scope: str, seconds: int) -> bool:
    """Whether the player is mailed `author`'s words in `scope` (a game, a conversation) for the first time in
    `seconds`: those written after are not mailed until the seconds have passed."""
    return bool(client.set(keys.mail_held(player_id, author, scope), 1, nx=True, ex=seconds))


def expires_in(seconds: int) -> int:
    """The `expires` of a mail whose link works for `seconds` from now."""
    return int((time.time() + seconds) * 1000)


def mail_address(client: redis.Redis, address: str, kind: str, key: str, **data: Any) -> None:
    """Queue a mail of `kind` to `address`, confirmed or not."""
    queue_mail(client, Mail(kind, key, to_address=address, data=data))
