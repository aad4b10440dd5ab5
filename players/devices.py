"""The tokens a registered player holds, one for each device or program (a phone, a laptop, a bot):
each named, kept only as its SHA-256, listed with when it was made and last used, and revoked one
by one. Every token acts for its player (events.seats.player_of_token finds the player by its
digest and records its use); a revoked one finds nobody from the moment it is revoked.

A player registered before tokens were listed kept their one token's digest in their own record
(`token`); the first time their tokens are read or changed it joins the list as `FIRST_DEVICE`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TypedDict, cast

import redis

from events import clock, keys
from events.seats import hash_token
from players.errors import LastToken, TokenLimitReached

FIRST_DEVICE = "First device"  # the name of a token whose player named none: registration's, an older player's

# KEYS: the player's tokens; ARGV: the new one's id, its entry, and how many a player may hold (0: any number)
_ADD = """
local most = tonumber(ARGV[3])
if most > 0 and redis.call('HLEN', KEYS[1]) >= most then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
# KEYS: the player's tokens; ARGV: the token's id, and 1 if it may be the player's last one.
# Answers its entry, -1 if it is the last and may not go, 0 if the player holds no such token
_REVOKE = """
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then return 0 end
if ARGV[2] == '0' and redis.call('HLEN', KEYS[1]) == 1 then return -1 end
redis.call('HDEL', KEYS[1], ARGV[1])
return entry
"""


class _Entry(TypedDict):
    digest: str
    name: str
    created: int


@dataclass(frozen=True, slots=True)
class HeldToken:
    """One of a player's tokens, as the player sees it: never the token, nor its digest."""

    id: str
    name: str
    created: int  # ms since the epoch
    last_used: int | None  # ms since the epoch, to the minute; None if never used


def token_id(digest: str) -> str:
    """A token's id: the first 16 hex digits of its SHA-256, which tells nothing of the token."""
    return digest[:16]


class PlayerTokens:
    """The tokens of the players in one Redis server or cluster."""

    def __init__(self, client: redis.Redis, per_player: int | None = None) -> None:
        """`per_player`: how many tokens a player may hold (None: any number)."""
        self.redis, self.per_player = client, per_player
        self._add = client.register_script(_ADD)
        self._revoke = client.register_script(_REVOKE)

    def add(self, player_id: str, name: str, token: str, now: int | None = None) -> HeldToken:
        """A new token of the player's, acting for them at once; raises TokenLimitReached if they
        hold `per_player` already."""
        self._take_in_first(player_id)
        digest, created = hash_token(token), clock.now() if now is None else now
        entry = json.dumps(_Entry(digest=digest, name=name, created=created))
        most = self.per_player or 0
        if not self._add(keys=[keys.held_tokens(player_id)], args=[token_id(digest), entry, most]):
            raise TokenLimitReached(most)
        self.redis.set(keys.player_token(digest), player_id)
        return HeldToken(token_id(digest), name, created, None)

    def of(self, player_id: str) -> list[HeldToken]:
        """The player's tokens, oldest first."""
        self._take_in_first(player_id)
        entries = self._entries(player_id)
        pipe = self.redis.pipeline(transaction=False)
        for entry in entries.values():
            pipe.get(keys.player_token_use(entry["digest"]))
        uses = cast(list[bytes | None], pipe.execute())
        held = [HeldToken(id, entry["name"], entry["created"], None if used is None else int(used))
                for (id, entry), used in zip(entries.items(), uses, strict=True)]
        return sorted(held, key=lambda token: (token.created, token.id))

    def rename(self, player_id: str, id: str, name: str) -> bool:
        """Name the player's token `id` anew; whether they hold it."""
        self._take_in_first(player_id)
        entry = self._entries(player_id).get(id)
        if entry is None:
            return False
        self.redis.hset(keys.held_tokens(player_id), id, json.dumps(entry | {"name": name}))
        return True

    def revoke(self, player_id: str, id: str, *, last: bool = True) -> bool:
        """Revoke the player's token `id`: refused from now on, wherever it was accepted; whether they held it.
        Raises LastToken if it is the only one they hold and `last` is false."""
        self._take_in_first(player_id)
        entry = self._revoke(keys=[keys.held_tokens(player_id)], args=[id, int(last)])
        if entry == -1:
            raise LastToken()
        if entry == 0:
            return False
        digest = cast(_Entry, json.loads(entry))["digest"]
        pipe = self.redis.pipeline(transaction=False)  # keys of different slots
        pipe.delete(keys.player_token(digest))
        pipe.delete(keys.player_token_use(digest))
        pipe.execute()
        return True

    def _entries(self, player_id: str) -> dict[str, _Entry]:
        stored = cast(dict[bytes, bytes], self.redis.hgetall(keys.held_tokens(player_id)))
        return {id.decode(): json.loads(raw) for id, raw in stored.items()}

    def _take_in_first(self, player_id: str) -> None:
        """List the token an older player's record holds, made when they registered."""
        digest, created = cast(list[bytes | None], self.redis.hmget(keys.player(player_id), "token", "created"))
        if digest is None or created is None:
            return
        entry = json.dumps(_Entry(digest=digest.decode(), name=FIRST_DEVICE, created=int(created)))
        self.redis.hsetnx(keys.held_tokens(player_id), token_id(digest.decode()), entry)
        self.redis.hdel(keys.player(player_id), "token")
