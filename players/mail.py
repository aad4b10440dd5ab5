"""Players' mail: one address each, confirmed by a link before anything but the confirmation goes
to it; what they get of each kind of mail; and the token in each mail that stops its kind."""

from __future__ import annotations

import base64
import hmac
import json
import secrets
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

import redis

from events import keys, rates
from events.seats import hash_token
from players.errors import MailAddressTaken

CONFIRM_SECONDS = 2 * 86400  # how long a confirmation link works
CONFIRMATIONS_PER_DAY = 5  # confirmation mails one player may ask for a day
DAY_MS = 86_400_000


# Confirm the pending address the link was for, if it is still the one pending: the check and the
# write at once, so that an address set in between is never confirmed by another's link.
_CONFIRM = """
if redis.call('HGET', KEYS[1], 'pending') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'address', ARGV[1], 'confirmed', ARGV[2])
redis.call('HDEL', KEYS[1], 'pending')
return 1
"""
# Take the owner key of an address for a player if it is free, theirs, or held by `ARGV[2]` (an owner
# who no longer holds the address confirmed): 1 if taken, 0 if another holds it.
_OWN = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and owner ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
return 1
"""


class Choice(StrEnum):
    ON = "on"  # sent
    OFFLINE = "offline"  # sent once the player holds no event stream open (a page of the web client)
    OFF = "off"  # not sent


@dataclass(frozen=True, slots=True)
class Kind:
    default: Choice
    choices: tuple[Choice, ...]


# what a player chooses to get. Other mails (the
# confirmation, a sign-in link) are asked for by the player and always sent
KINDS: dict[str, Kind] = {
    "your_turn": Kind(Choice.OFFLINE, (Choice.ON, Choice.OFFLINE, Choice.OFF)),
    "digest": Kind(Choice.OFF, (Choice.ON, Choice.OFF)),  # once a day: the games waiting on them, by time left
    "reminder": Kind(Choice.ON, (Choice.ON, Choice.OFF)),  # before a clock runs out
    "invitation": Kind(Choice.ON, (Choice.ON, Choice.OFF)),
    "game_over": Kind(Choice.ON, (Choice.ON, Choice.OFF)),
    "mention": Kind(Choice.ON, (Choice.ON, Choice.OFF)),  # a seat's `@name` in a game's chat (application.chat)
    "message": Kind(Choice.ON, (Choice.ON, Choice.OFF)),  # a message from another player (application.conversations)
}


@dataclass(frozen=True, slots=True)
class MailSettings:
    address: str | None  # the confirmed address, or (with none confirmed) the one waiting for its link
    confirmed: bool
    pending: str | None  # an address waiting for its link; a confirmed one keeps getting mail meanwhile
    choices: dict[str, Choice]


class Mailboxes:
    """Every player's mail address and choices."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._confirm = client.register_script(_CONFIRM)
        self._own = client.register_script(_OWN)

    def of(self, player_id: str) -> MailSettings:
        fields = {k.decode(): v.decode() for k, v in cast(dict[bytes, bytes], self.redis.hgetall(keys.mail(player_id))).items()}
        choices = {kind: Choice(fields.get(f"kind:{kind}", spec.default)) for kind, spec in KINDS.items()}
        confirmed, pending = "confirmed" in fields, fields.get("pending")
        address = fields.get("address") if confirmed else pending
        return MailSettings(address, confirmed, pending, choices)

    def recipient(self, player_id: str, kind: str) -> str | None:
        """The address a mail of `kind` goes to: the player's confirmed one, unless they chose not to get that kind."""
        settings = self.of(player_id)
        if not settings.confirmed or settings.choices.get(kind) is Choice.OFF:
            return None
        return settings.address

    def ask_confirmation(self, player_id: str, address: str, per_day: int = CONFIRMATIONS_PER_DAY) -> str | None:
        """Make `address` the player's pending one, and a token that confirms it; None past `per_day` asked today.
        A confirmed address keeps getting mail until the pending one is confirmed."""
        counter = keys.rate(f"mail-confirmations:{player_id}", 86400, int(time.time()) // 86400)
        if rates.take(self.redis, [(counter, per_day, 86400)])[0][1]:
            return None
        token = secrets.token_urlsafe(32)
        pipe = self.redis.pipeline()
        pipe.set(keys.mail_confirmation(hash_token(token)), json.dumps({"player": player_id, "address": address}),
                 ex=CONFIRM_SECONDS)
        pipe.hset(keys.mail(player_id), "pending", address)
        pipe.execute()
        return token

    def confirm(self, token: str) -> str | None:
        """Confirm the address a confirmation token names, once; the player's id, or None for a used,
        expired or unknown token, or one for an address the player has changed since. Raises
        MailAddressTaken if another player holds the address confirmed."""
        raw = cast(bytes | None, self.redis.getdel(keys.mail_confirmation(hash_token(token))))
        if raw is None:
            return None
        player_id, address = json.loads(raw)["player"], json.loads(raw)["address"]
        owner_key = keys.mail_owner(_address_digest(address))
        holder = cast(bytes | None, self.redis.get(owner_key))
        stale = "" if holder is None or self.player_of(address) is not None else holder.decode()
        if not self._own(keys=[owner_key], args=[player_id, stale]):
            raise MailAddressTaken(address)
        if not self._confirm(keys=[keys.mail(player_id)], args=[address, int(time.time() * 1000)]):
            return None
        return cast(str, player_id)

    def player_of(self, address: str) -> str | None:
        """The player whose confirmed address `address` is (compared without regard to case), or None."""
        owner = cast(bytes | None, self.redis.get(keys.mail_owner(_address_digest(address))))
        if owner is None:
            return None
        settings = self.of(owner.decode())
        if not settings.confirmed or settings.address is None or _address_digest(settings.address) != _address_digest(address):
            return None
        return owner.decode()

    def remove(self, player_id: str) -> None:
        """Forget the player's address, and the one pending; their choices stay for the next one."""
        self.redis.hdel(keys.mail(player_id), "address", "confirmed", "pending")

    def choose(self, player_id: str, choices: dict[str, Choice]) -> None:
        """Set what the player gets of each kind named; a digest on is due a day from now."""
        if not choices:
            return
        pipe = self.redis.pipeline()
        pipe.hset(keys.mail(player_id), mapping={f"kind:{kind}": str(choice) for kind, choice in choices.items()})
        if choices.get("digest") is Choice.ON:
            pipe.zadd(keys.mail_digests(), {player_id: int(time.time() * 1000) + DAY_MS}, nx=True)
        elif choices.get("digest") is Choice.OFF:
            pipe.zrem(keys.mail_digests(), player_id)
        pipe.execute()

    def stop_token(self, player_id: str, kind: str) -> str:
        """The token that stops the player's mail of `kind`, the same in every such mail: an HMAC of both under
        the store's mail secret, kept only as its SHA-256."""
        mac = hmac.digest(self._secret(), f"{player_id} {kind}".encode(), "sha256")
        token = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
        pipe = self.redis.pipeline()
        pipe.set(keys.mail_stop(hash_token(token)), f"{player_id} {kind}")
        pipe.hdel(keys.mail(player_id), f"stop:{kind}")  # a token kept as it was before: its link works on, by its hash
        pipe.execute()
        return token

    def _secret(self) -> bytes:
        """The mail secret, made at random by whichever process needs it first."""
        self.redis.set(keys.mail_secret(), secrets.token_urlsafe(32), nx=True)
        return cast(bytes, self.redis.get(keys.mail_secret()))

    def stopped_by(self, token: str) -> tuple[str, str] | None:
        """The player and kind of mail an unsubscribe token names, or None for an unknown token."""
        raw = cast(bytes | None, self.redis.get(keys.mail_stop(hash_token(token))))
        if raw is None:
            return None
        player_id, kind = raw.decode().split(" ", 1)
        return player_id, kind

    def stop(self, token: str) -> tuple[str, str] | None:
        """Stop the kind of mail the token names: its player and kind, or None for an unknown token."""
        found = self.stopped_by(token)
        if found is not None:
            self.choose(found[0], {found[1]: Choice.OFF})
        return found


def _address_digest(address: str) -> str:
    """An address as the index of confirmed addresses knows it: the SHA-256 of its lower case."""
    return hash_token(address.strip().lower())
