"""Rate limits per token and per client address: fixed windows counted in the store, so every
API process shares them. Every answer counted against a limit says where the client stands in the
headers of the IETF draft "RateLimit header fields for HTTP"; a request over a limit is answered
429 with `Retry-After`."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, current_app, g, request

from events import keys, rates
from events.seats import hash_token
from runtime.config import Rate
from service.errors import ApiError

UNLIMITED = {"v1.health", "metrics"}  # endpoints monitoring may call as often as it likes


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a client stands against one policy: its name, the rate, and what this window has left."""

    policy: str
    rate: Rate
    remaining: int
    reset: int  # seconds until the window ends

    def policy_item(self) -> str:
        return f'"{self.policy}";q={self.rate.requests};w={self.rate.seconds}'

    def limit_item(self) -> str:
        return f'"{self.policy}";r={self.remaining};t={self.reset}'


def count(client: redis.Redis, policies: list[tuple[str, str, Rate]]) -> list[tuple[Standing, bool]]:
    """Count one more in the current window of each `(policy, key, rate)`, or in none if any is full
    (events.rates): the standing in each, and whether it is over."""
    now = time.time()
    counted = rates.take(client, [(keys.rate(key, rate.seconds, int(now) // rate.seconds), rate.requests, rate.seconds)
                                  for _, key, rate in policies])
    return [(Standing(policy, rate, max(0, rate.requests - number), rate.seconds - int(now) % rate.seconds), over)
            for (policy, _, rate), (number, over) in zip(policies, counted, strict=True)]


def enforce(client: redis.Redis, policies: list[tuple[str, str, Rate]]) -> list[Standing]:
    """Count this request once against each `(policy, key, rate)`; the standings, or 429 if any is over."""
    counted = count(client, policies)
    standings = [standing for standing, _ in counted]
    g.rate_limits = standings  # for the answer's headers, a 429 included
    over = [standing for standing, is_over in counted if is_over]
    if over:
        raise ApiError(429, "rate_limited", f"Too many requests: at most {over[0].rate.requests} every {over[0].rate.seconds} s.",
                       retry_after=max(standing.reset for standing in over))
    return standings


def within(client: redis.Redis, policies: Sequence[tuple[str, str, Rate | None]], code: str, detail: str,
           **extra: Any) -> None:
    """Count one more against each `(policy, key, rate)` (a None rate: no limit); 429 `code`, saying `detail`, past any."""
    counted = count(client, [(policy, key, rate) for policy, key, rate in policies if rate is not None])
    if over := [standing for standing, is_over in counted if is_over]:
        raise ApiError(429, code, detail, **extra, retry_after=max(standing.reset for standing in over))


def client_address() -> str:
    """The request's client as per-address limits count it: the peer, or whom trusted proxies name (`address_key`)."""
    return address_key(request.remote_addr or "unknown", current_app.config["MEEPLE_IPV6_PREFIX"])


def address_key(address: str, ipv6_prefix: int) -> str:
    """An address as a limit counts it: IPv4 (mapped too) as is, IPv6 as its `ipv6_prefix`-bit network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip.packed, ipv6_prefix), strict=False))  # one holder has all of it
    return str(ip)


def limit_games(client: redis.Redis, rate: Rate | None) -> None:
    """Count one more game created from the client's address; 429 `game_creation_limited` past `rate` (None: none)."""
    if rate is None:
        return
    [(standing, over)] = count(client, [("games", f"games:{client_address()}", rate)])
    if over:
        raise ApiError(429, "game_creation_limited",
                       f"This address has created {rate.requests} games in {rate.seconds} s, as many as it may.",
                       limit=rate.requests, retry_after=standing.reset)


def limit_invitations(client: redis.Redis, strangers: list[str], per_day: int) -> None:
    """Count one more invitation from a stranger to each of `strangers`; 429 `invitation_limited` past `per_day`."""
    if not strangers:
        return
    rate = Rate(per_day, 86400)
    within(client, [("invitations", f"invitations:{invitee}", rate) for invitee in strangers], "invitation_limited",
           f"A player receives at most {per_day} invitations a day from players they have not played with.",
           limit=per_day)  # which invitee is not said


def limit_sign_in_links(client: redis.Redis, mail_address: str, per_address: Rate | None, per_client: Rate | None) -> None:
    """Count one more sign-in link asked for `mail_address` from the client's address, and from that address at all;
    429 `sign_in_limited` past either (None: no limit). Only this client is held back: the links a player is mailed,
    whoever asks, are bounded where they are issued (players.sign_in.LINKS_PER_HOUR)."""
    asker = client_address()
    policies = [("sign-in-links", f"sign-in-to:{asker}:{hash_token(mail_address.lower())}", per_address),
                ("sign-in-links", f"sign-in-from:{asker}", per_client)]
    within(client, policies, "sign_in_limited", "As many sign-in links were asked for this address from this client, or "
           "from this client in all, as may be for now.")


def told(client: redis.Redis, policies: Sequence[tuple[str, str, Rate | None]]) -> list[Standing]:
    """Count one more against each `(policy, key, rate)` (a None rate: no limit) and join the standings to the answer's
    RateLimit headers; those over their rate."""
    counted = count(client, [(policy, key, rate) for policy, key, rate in policies if rate is not None])
    g.rate_limits = [*g.get("rate_limits", []), *(standing for standing, _ in counted)]
    return [standing for standing, over in counted if over]


def limit_chat(client: redis.Redis, writer: str, per_minute: int) -> None:
    """Count one more chat message of `writer` (a player's id, or a seat token's hash) and of the client's address
    (MEEPLE_CHAT_PER_ADDRESS); past either it is refused 429 `chat_limited`."""
    if over := told(client, [("chat", f"chat:{writer}", Rate(per_minute, 60)),
                             ("chat-address", f"chat-from:{client_address()}", current_app.config["MEEPLE_CHAT_PER_ADDRESS"])]):
        whom = "one writer" if over[0].policy == "chat" else "one client address"
        raise ApiError(429, "chat_limited", f"At most {over[0].rate.requests} chat messages every {over[0].rate.seconds} s "
                       f"from {whom}.", limit=over[0].rate.requests, retry_after=max(standing.reset for standing in over))


def limit_registrations(client: redis.Redis, policies: Sequence[Rate]) -> None:
    """Count one more player registered from the client's address against each of `policies`; 429 `registration_limited`
    past any, so that a muted or blocked player does not come back under new names at will."""
    address = client_address()
    if over := told(client, [(f"registrations-{rate.seconds}", f"registrations:{address}", rate) for rate in policies]):
        raise ApiError(429, "registration_limited", f"This address has registered {over[0].rate.requests} players in "
                       f"{over[0].rate.seconds} s, as many as it may.", limit=over[0].rate.requests,
                       retry_after=max(standing.reset for standing in over))


def limit_vacations(client: redis.Redis, player_id: str, rate: Rate | None) -> None:
    """Count one more vacation begun or moved by the player (each announces all their games again); its
    standing joins the answer's RateLimit headers, and past `rate` (None: no limit) it is refused 429
    `vacation_limited`."""
    if rate is None:
        return
    [(standing, over)] = count(client, [("vacation", f"vacation:{player_id}", rate)])
    g.rate_limits = [*g.get("rate_limits", []), standing]
    if over:
        raise ApiError(429, "vacation_limited", f"At most {rate.requests} vacations begun or moved every {rate.seconds} s.",
                       limit=rate.requests, retry_after=standing.reset)


def install(app: Flask, client: redis.Redis, per_token: Rate | None, per_address: Rate | None) -> None:
    """Count every request but health, metrics and preflights against the limits; tell the client where it stands."""

    @app.before_request
    def limit_rate() -> None:
        if request.endpoint in UNLIMITED or request.method == "OPTIONS":
            return
        policies = [("address", f"address:{client_address()}", per_address)]
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer "):  # counted whether or not the token is good
            policies.append(("token", f"token:{hash_token(header.removeprefix('Bearer '))}", per_token))
        if chosen := [(policy, key, rate) for policy, key, rate in policies if rate is not None]:
            enforce(client, chosen)

    @app.after_request
    def tell_standing(response: Response) -> Response:
        if standings := g.get("rate_limits"):
            # `RateLimit-Policy: "address";q=6000;w=60, "token";q=1200;w=60` states each policy, and
            # `RateLimit: "address";r=5998;t=41, …` the requests left in the window and its seconds to go
            response.headers["RateLimit-Policy"] = ", ".join(standing.policy_item() for standing in standings)
            response.headers["RateLimit"] = ", ".join(standing.limit_item() for standing in standings)
        return response


def limit_confirmations(client: redis.Redis, mail_address: str, per_address: Rate | None, per_client: Rate | None) -> None:
    """Count one more confirmation mail to `mail_address` and from the client's address; 429
    `confirmations_limited` past either (None: no limit), so that no one mails an address often through Meeple."""
    policies = [("confirmations", f"confirm-to:{hash_token(mail_address.strip().lower())}", per_address),
                ("confirmations", f"confirm-from:{client_address()}", per_client)]
    within(client, policies, "confirmations_limited", "As many confirmation mails were sent to this address, or asked "
           "for from this client, as may be for now.")
