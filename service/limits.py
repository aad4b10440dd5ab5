"""Rate limits per token and per client address: fixed windows counted in the store, so every
API process shares them. A request over a limit is answered 429 with `Retry-After`."""

from __future__ import annotations

import time

import redis
from flask import Flask, request

from events import keys
from events.seats import hash_token
from service.config import Rate
from service.errors import ApiError

UNLIMITED = {"v1.health", "metrics"}  # endpoints monitoring may call as often as it likes


def enforce(client: redis.Redis, rates: list[tuple[str, Rate]]) -> None:
    """Count this request once against each `(key, rate)`; 429 if any is over its rate."""
    now = time.time()
    pipe = client.pipeline(transaction=False)
    for key, rate in rates:
        counter = keys.rate(key, rate.seconds, int(now) // rate.seconds)
        pipe.incr(counter)
        pipe.expire(counter, rate.seconds + 1)
    counts = pipe.execute()[::2]
    over = [rate for (_, rate), count in zip(rates, counts, strict=True) if count > rate.requests]
    if over:
        wait = max(rate.seconds - int(now) % rate.seconds for rate in over)
        raise ApiError(429, "rate_limited", f"Too many requests: at most {over[0].requests} every {over[0].seconds} s.",
                       retry_after=wait)


def install(app: Flask, client: redis.Redis, per_token: Rate | None, per_address: Rate | None) -> None:
    """Count every request but the health check and the metrics scrape against the limits."""

    @app.before_request
    def limit_rate() -> None:
        if request.endpoint in UNLIMITED:
            return
        rates = [(f"address:{request.remote_addr or 'unknown'}", per_address)]
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):  # counted whether or not the token is good
            rates.append((f"token:{hash_token(header.removeprefix('Bearer '))}", per_token))
        if chosen := [(key, rate) for key, rate in rates if rate is not None]:
            enforce(client, chosen)
