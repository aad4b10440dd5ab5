"""Sign-in links: a secret mailed to a player's confirmed address that, used once within
`LINK_SECONDS`, gives a new device a token of its own. The secret is kept only as its SHA-256; a
used link stays marked `used` until it would have expired, so that it is refused as used rather
than as unknown."""

from __future__ import annotations

import json
import time
from typing import cast

import redis

from events import keys, rates
from events.seats import hash_token
from players.errors import SignInLinkRefused

LINK_SECONDS = 15 * 60  # how long a sign-in link may be used
LINKS_PER_HOUR = 5  # sign-in links one player is mailed an hour, whoever asks
USED = b"used"


class SignInLinks:
    """The sign-in links of one Redis server or cluster."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def issue(self, player_id: str, secret: str, seconds: int = LINK_SECONDS) -> bool:
        """Let `secret` sign `player_id` in, once, within `seconds`, unless LINKS_PER_HOUR were issued to them this
        hour already; whether it does."""
        counter = keys.rate(f"sign-in-links:{player_id}", 3600, int(time.time()) // 3600)
        if rates.take(self.redis, [(counter, LINKS_PER_HOUR, 3600)])[0][1]:
            return False
        return bool(self.redis.set(keys.sign_in_link(hash_token(secret)), json.dumps({"player": player_id}), ex=seconds))

    def redeem(self, secret: str) -> str:
        """The player the link signs in, marking it used; raises SignInLinkRefused for a link used,
        expired or never issued."""
        link = keys.sign_in_link(hash_token(secret))
        stored = cast(bytes | None, self.redis.set(link, USED, xx=True, keepttl=True, get=True))  # one step: used once
        if stored == USED:
            raise SignInLinkRefused("link_used", "This sign-in link was used already: each link signs in once. "
                                    "Ask for a new one.")
        if stored is None:
            raise SignInLinkRefused("link_expired", f"This sign-in link has expired (a link lasts {LINK_SECONDS // 60} "
                                    "minutes) or is not one this server sent. Ask for a new one.")
        return cast(str, json.loads(stored)["player"])
