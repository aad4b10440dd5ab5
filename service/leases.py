"""How many event streams one client holds open at once, counted across every API process: per
client address (as the rate limits read it) and per token (a registered player's, for all of their
seats and their inbox, else an anonymous seat's).

Each open stream holds a lease under each, scored by when it lapses. A stream renews its leases
as it sends (at least once a heartbeat) and gives them up as it closes; those of a killed process
lapse by themselves after LEASE_HEARTBEATS heartbeats. A stream whose client takes nothing for
SEND_HEARTBEATS heartbeats is closed before its leases can lapse (service.api.streams)."""

from __future__ import annotations

import logging
import math
import time
import uuid
from collections.abc import Callable

import redis

from events import keys
from service.errors import ApiError

log = logging.getLogger("meeple")

LEASE_HEARTBEATS = 3  # heartbeats a lease outlasts without being renewed
# how long one message may take to be sent: less than the LEASE_HEARTBEATS - 1 heartbeats a lease
# outlasts a stream's last message (it is renewed at most once a heartbeat)
SEND_HEARTBEATS = 1.5
# KEYS[1]: a client's open streams; ARGV: now, when the new lease lapses, the limit, the lease, the
# key's time to live. Drops the lapsed leases, then takes one if fewer than the limit are held.
TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


class StreamLeases:
    """The leases of the open streams: at most `per_address` for one client address, `per_token` for one token."""

    def __init__(self, client: redis.Redis, per_address: int, per_token: int, heartbeat_ms: int,
                 clock: Callable[[], float] = time.time) -> None:
        self.redis, self.clock = client, clock
        self.limits = {"address": per_address, "token": per_token}
        self.seconds = LEASE_HEARTBEATS * heartbeat_ms / 1000
        self.send_seconds = SEND_HEARTBEATS * heartbeat_ms / 1000
        self.take_script = client.register_script(TAKE)

    def take(self, address: str, holder: str | None) -> Lease:
        """A lease for one more stream of `address` and `holder` (None: a spectator); 429 `too_many_streams` if full."""
        lease = Lease(self, uuid.uuid4().hex)
        subjects = {"address": address} | ({"token": holder} if holder is not None else {})
        for policy, subject in subjects.items():
            key, limit = keys.open_streams(f"{policy}:{subject}"), self.limits[policy]
            now = self.clock()
            if not self.take_script([key], [now, now + self.seconds, limit, lease.id, math.ceil(self.seconds) + 1]):
                lease.release()
                raise ApiError(429, "too_many_streams", f"This {policy} holds {limit} event streams open, as many as it "
                               "may: close one before opening another.", exceeded=f"streams_per_{policy}", limit=limit)
            lease.keys.append(key)
        lease.renewed = self.clock()
        return lease


class Lease:
    """One open stream's place under each of its keys."""

    def __init__(self, leases: StreamLeases, lease_id: str) -> None:
        self.leases, self.id = leases, lease_id
        self.keys: list[str] = []
        self.renewed = 0.0

    def renew(self) -> None:
        """Keep the stream's places, lapsed ones too, for LEASE_HEARTBEATS more heartbeats; a write a heartbeat."""
        now = self.leases.clock()
        if now - self.renewed < self.leases.seconds / LEASE_HEARTBEATS:
            return
        self.renewed = now
        pipe = self.leases.redis.pipeline(transaction=False)
        for key in self.keys:
            pipe.zadd(key, {self.id: now + self.leases.seconds})
            pipe.expire(key, math.ceil(self.leases.seconds) + 1)
        pipe.execute()

    def release(self) -> None:
        """Give up the stream's places as it closes; out of the store's reach, they lapse by themselves."""
        pipe = self.leases.redis.pipeline(transaction=False)
        for key in self.keys:
            pipe.zrem(key, self.id)
        self.keys = []
        try:
            pipe.execute()
        except redis.RedisError:
            log.warning("stream leases not given up: the store is out of reach; they lapse in %.0f s", self.leases.seconds)
