"""Settings, read once from `MEEPLE_*` environment variables."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from events.bearer import TOKEN

RATE = re.compile(r"^(\d+)/(\d+)$")
ORIGIN = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#\s]+$")  # scheme://host[:port], as a browser's Origin header names it


@dataclass(frozen=True)
class Rate:
    """At most `requests` in each window of `seconds`."""

    requests: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """`"600/60"` is 600 requests a minute; `"off"` (or empty) means no limit."""
        if text.strip().lower() in ("", "off"):
            return None
        match = RATE.match(text.strip())
        if match is None or int(match.group(1)) < 1 or int(match.group(2)) < 1:
            raise ValueError(f"a rate is `requests/seconds` (e.g. 600/60) or `off`, not {text!r}")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def parse_all(cls, text: str) -> tuple[Rate, ...]:
        """`"10/3600,30/86400"` is at most 10 an hour and 30 a day; `"off"` (or empty) means no limit."""
        return tuple(rate for part in text.split(",") if (rate := cls.parse(part)) is not None)


def _is_smtp_url(url: str) -> bool:
    """smtp:// or smtps://, whose only query may be smtp://'s `starttls=off`, never with a password."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or parts.fragment:
        return False
    return not parts.query or (parts.scheme == "smtp" and parts.query == "starttls=off" and parts.username is None)


def origins(text: str) -> tuple[str, ...]:
    """`"https://a.example, http://localhost:5173"` as its origins; `*` stands for every origin."""
    found = tuple(origin.strip().rstrip("/").lower() for origin in text.split(",") if origin.strip())
    for origin in found:
        if origin != "*" and not ORIGIN.match(origin):
            raise ValueError(f"an origin is `scheme://host[:port]` (e.g. https://play.example.org) or `*`, not {origin!r}")
    return found


@dataclass(frozen=True)
class Config:
    redis_url: str | None = None  # None: `meeple serve` starts the embedded store
    redis_cluster: bool = False  # the store is a Redis Cluster, redis_url any of its nodes
    queue_url: str | None = None  # the Redis server of the queues (None: the store's; see queues_url)
    append_replicas: int = 0  # replicas that must hold an append before it is acknowledged
    append_wait_ms: int = 1000  # how long an append waits for them
    data_dir: str = "var"  # where the embedded store keeps its data and append-only file
    max_body_bytes: int = 64 * 1024
    connections: int = 1000  # requests (event streams included) each API process serves at once
    # what gunicorn reads of a request's head before it refuses it (414, 431): its own ceilings are
    # 8190 bytes for the line and 32768 fields
    max_request_line: int = 8190  # bytes of the request line (method, path and query, version)
    max_header_fields: int = 100  # header fields
    max_header_field_bytes: int = 8190  # bytes of one header field, name and value
    # event streams open at once, across every API process: per client address, and per token
    # (a seat's, or a registered player's for all of their seats and their inbox)
    streams_per_address: int = 256
    streams_per_token: int = 32
    max_import_bytes: int = 16 * 1024 * 1024  # an imported log may be long
    # events an imported log may hold: a 10-seat TAKI tournament of random bots runs to some 26,000
    max_import_events: int = 100_000
    # moderates (reports, hidden messages, mutes) and may export or fork a game still in play; a bearer
    # token as every other: 16 to 128 letters, digits, '-' or '_'
    admin_token: str | None = None
    lobby_seconds: int = 14 * 86400  # how long a new game waits for its seats to be taken, unless it says
    provisional_sigma: float = 6.0  # a rating is provisional while its uncertainty is above this (docs/ratings.md)
    rating_days: int = 90  # a leaderboard lists the players who played a rated game in this many days, unless asked
    rating_history_points: int = 500  # a player page's chart shows each game's latest so many ratings
    sweep_seconds: float = 10.0  # seconds from the end of one sweep of the games in play to the next
    cancelled_keep_seconds: int = 86400  # how long a cancelled game is kept (and listed) before a sweep deletes it
    reminders: tuple[int, ...] = (86400, 3600)  # seconds before a deadline at which players are reminded
    # vacation days each player has a year, spent by going on vacation or, a day at a time, when one of
    # their clocks would otherwise run out (pente.org and mychess.de give a yearly allowance too)
    vacation_days_per_year: int = 30
    stream_heartbeat_ms: int = 15_000  # an open stream with nothing new sends a comment this often
    rate_per_token: Rate | None = Rate(1200, 60)  # requests one token may make (None: no limit)
    rate_per_address: Rate | None = Rate(6000, 60)  # requests one client address may make
    games_per_address: Rate | None = Rate(1000, 86400)  # games one client address may create a day (forks, imports, rematches too)
    invitations_per_day: int = 20  # invitations a player receives a day from players who are not their contacts
    chat_per_minute: int = 100  # messages one writer may send a minute: game chat, private messages and reports together
    chat_per_address: Rate | None = Rate(300, 60)  # the same, from one client address, whoever writes
    chat_messages_per_room: int = 5000  # messages a room of a game's chat holds at most
    chat_seconds_after_end: int = 7 * 86400  # how long a finished game's chat is written; then it is only read
    # players one client address may register: each rate a window (10 an hour and 30 a day)
    registrations_per_address: tuple[Rate, ...] = (Rate(10, 3600), Rate(30, 86400))
    # a player is mailed the words of one writer in one game's chat (a mention) or one conversation once in this long
    chat_mail_seconds: int = 600
    open_reports_per_reporter: int = 20  # reports one reporter may have open, waiting for the admin
    open_reports_per_address: int = 100  # reports filed from one client address that may be open, whoever filed them
    closed_reports_days: int = 90  # how long a report the admin decided is kept
    conversation_kept: int = 1000  # the latest messages kept of a conversation between two players
    # confirmation mails one player may ask for a day, one mail address may be sent, whoever asks, and one
    # client address may ask for
    confirmations_per_player: int = 5
    confirmations_per_address: Rate | None = Rate(3, 86400)
    confirmations_per_client: Rate | None = Rate(10, 3600)
    # sign-in links one client address may ask for one mail address, and in all
    sign_in_links_per_address: Rate | None = Rate(5, 3600)
    sign_in_links_per_client: Rate | None = Rate(20, 3600)
    vacations_per_player: Rate | None = Rate(6, 3600)  # vacations one player may begin or move
    max_blocks: int = 1000  # players one player may block
    trusted_proxies: int = 0  # proxies in front whose X-Forwarded-For names the client's address
    # an IPv6 client is its network of this many bits for every per-address limit: one holder of a /64
    # has 2^64 addresses (IPv4 clients are their address)
    ipv6_prefix: int = 64
    cors_origins: tuple[str, ...] = ()  # web origins whose pages may call the API (`*`: any); none by default
    webhooks_per_player: int = 5  # webhooks one player may have: each notification is POSTed to every one
    tokens_per_player: int = 20  # tokens one player may hold: one for each device or program
    webhook_resolve_seconds: float = 2.0  # how long a registration waits to resolve a webhook's host name
    # how long `meeple serve` tries to start its embedded store again when it dies, before it exits
    store_restart_seconds: float = 60.0
    # when the embedded store flushes its append-only file to the disk: "always" before each answer (nothing answered
    # is lost, even to a machine's crash), "everysec" once a second (a busy disk can hold writes back for up to two
    # seconds, answered meanwhile: a killed store or machine loses them)
    store_fsync: str = "always"
    # where the workers send mail: smtp://user:password@host:587 (STARTTLS required), smtp://localhost:25?starttls=off
    # (plain text, no password: a relay on this machine), smtps://… (TLS from the start); None writes each mail as a
    # .eml file under <data_dir>/mail
    smtp_url: str | None = None
    mail_from: str = "Meeple <meeple@localhost>"  # the From of every mail
    public_url: str = "http://127.0.0.1:8000"  # where people reach the web client: the links in mail start with it
    mail_hold_seconds: int = 300  # how often a "your turn" mail held back while its player is online looks again

    def __post_init__(self) -> None:
        if self.redis_cluster and self.redis_url is None:
            raise ValueError("MEEPLE_REDIS_CLUSTER needs MEEPLE_REDIS_URL: the address of any node of the cluster")
        if self.redis_cluster and self.queue_url is None:
            raise ValueError("MEEPLE_REDIS_CLUSTER needs MEEPLE_QUEUE_URL: a Redis server (not a cluster) for the queues")
        if self.webhooks_per_player < 1 or self.webhook_resolve_seconds <= 0:
            raise ValueError("MEEPLE_WEBHOOKS_PER_PLAYER is 1 or more, MEEPLE_WEBHOOK_RESOLVE_SECONDS more than 0")
        if self.tokens_per_player < 1:
            raise ValueError("MEEPLE_TOKENS_PER_PLAYER is 1 or more")
        if not (1 <= self.max_request_line <= 8190 and 1 <= self.max_header_fields <= 32768
                and self.max_header_field_bytes >= 1):
            raise ValueError("MEEPLE_MAX_REQUEST_LINE is 1 to 8190, MEEPLE_MAX_HEADER_FIELDS 1 to 32768, "
                             "MEEPLE_MAX_HEADER_FIELD_BYTES 1 or more")
        if self.streams_per_address < 1 or self.streams_per_token < 1:
            raise ValueError("MEEPLE_STREAMS_PER_ADDRESS and MEEPLE_STREAMS_PER_TOKEN are 1 or more")
        if not 1 <= self.ipv6_prefix <= 128:
            raise ValueError("MEEPLE_IPV6_PREFIX is 1 to 128 (bits of an IPv6 address that name one client)")
        self._check_store()
        self._check_admin()
        self._check_mail()
        self._check_chat()
        self._check_ratings()

    def _check_admin(self) -> None:
        if self.admin_token is not None and not re.fullmatch(TOKEN, self.admin_token):
            raise ValueError("MEEPLE_ADMIN_TOKEN is 16 to 128 letters, digits, '-' or '_', as every bearer token, or no "
                             "request could carry it: make one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`")

    def _check_store(self) -> None:
        if self.store_restart_seconds <= 0:
            raise ValueError("MEEPLE_STORE_RESTART_SECONDS is more than 0")
        if self.store_fsync not in ("always", "everysec"):
            raise ValueError("MEEPLE_STORE_FSYNC is always or everysec")
        if self.append_replicas < 0 or self.append_wait_ms < 1:
            raise ValueError("MEEPLE_APPEND_REPLICAS is 0 or more, MEEPLE_APPEND_WAIT_MS 1 or more (0 would wait for ever)")

    def _check_ratings(self) -> None:
        if self.rating_history_points < 1 or self.rating_days < 1:
            raise ValueError("MEEPLE_RATING_HISTORY_POINTS and MEEPLE_RATING_DAYS are 1 or more (a chart of no point, "
                             "or a leaderboard of no day, would show nothing)")

    def _check_chat(self) -> None:
        if self.chat_messages_per_room < 1 or self.chat_seconds_after_end < 1:
            raise ValueError("MEEPLE_CHAT_MESSAGES_PER_ROOM and MEEPLE_CHAT_SECONDS_AFTER_END are 1 or more")

    def _check_mail(self) -> None:
        if self.smtp_url is not None and not _is_smtp_url(self.smtp_url):
            raise ValueError("MEEPLE_SMTP_URL is smtp://[user:password@]host[:port], smtp://host[:port]?starttls=off "
                             "(plain text, no password) or smtps://[user:password@]host[:port]")
        if min(self.confirmations_per_player, self.chat_mail_seconds, self.open_reports_per_reporter, self.open_reports_per_address,
               self.closed_reports_days, self.conversation_kept) < 1:
            raise ValueError("MEEPLE_CONFIRMATIONS_PER_PLAYER, MEEPLE_CHAT_MAIL_SECONDS, MEEPLE_OPEN_REPORTS_PER_REPORTER, "
                             "MEEPLE_OPEN_REPORTS_PER_ADDRESS, MEEPLE_CLOSED_REPORTS_DAYS and MEEPLE_CONVERSATION_KEPT are 1 or more")
        if not self.public_url.startswith(("http://", "https://")) or self.mail_hold_seconds < 1:
            raise ValueError("MEEPLE_PUBLIC_URL is an http(s) URL, MEEPLE_MAIL_HOLD_SECONDS 1 or more")

    @property
    def queues_url(self) -> str | None:
        """The Redis server of the queues: MEEPLE_QUEUE_URL, or else the store's, when that is one server."""
        return self.queue_url or (None if self.redis_cluster else self.redis_url)

    @classmethod
    def from_env(cls) -> Config:
        env = os.environ
        return cls(
            redis_url=env.get("MEEPLE_REDIS_URL") or None,
            redis_cluster=env.get("MEEPLE_REDIS_CLUSTER", "").strip().lower() in ("1", "true", "yes", "on"),
            queue_url=env.get("MEEPLE_QUEUE_URL") or None,
            append_replicas=int(env.get("MEEPLE_APPEND_REPLICAS", cls.append_replicas)),
            append_wait_ms=int(env.get("MEEPLE_APPEND_WAIT_MS", cls.append_wait_ms)),
            data_dir=env.get("MEEPLE_DATA_DIR", cls.data_dir),
            max_body_bytes=int(env.get("MEEPLE_MAX_BODY_BYTES", cls.max_body_bytes)),
            connections=int(env.get("MEEPLE_CONNECTIONS", cls.connections)),
            max_request_line=int(env.get("MEEPLE_MAX_REQUEST_LINE", cls.max_request_line)),
            max_header_fields=int(env.get("MEEPLE_MAX_HEADER_FIELDS", cls.max_header_fields)),
            max_header_field_bytes=int(env.get("MEEPLE_MAX_HEADER_FIELD_BYTES", cls.max_header_field_bytes)),
            streams_per_address=int(env.get("MEEPLE_STREAMS_PER_ADDRESS", cls.streams_per_address)),
            streams_per_token=int(env.get("MEEPLE_STREAMS_PER_TOKEN", cls.streams_per_token)),
            max_import_bytes=int(env.get("MEEPLE_MAX_IMPORT_BYTES", cls.max_import_bytes)),
            max_import_events=int(env.get("MEEPLE_MAX_IMPORT_EVENTS", cls.max_import_events)),
            admin_token=env.get("MEEPLE_ADMIN_TOKEN") or None,
            stream_heartbeat_ms=int(env.get("MEEPLE_STREAM_HEARTBEAT_MS", cls.stream_heartbeat_ms)),
            rate_per_token=Rate.parse(env["MEEPLE_RATE_PER_TOKEN"]) if "MEEPLE_RATE_PER_TOKEN" in env else cls.rate_per_token,
            rate_per_address=Rate.parse(env["MEEPLE_RATE_PER_ADDRESS"]) if "MEEPLE_RATE_PER_ADDRESS" in env
            else cls.rate_per_address,
            games_per_address=Rate.parse(env["MEEPLE_GAMES_PER_ADDRESS"]) if "MEEPLE_GAMES_PER_ADDRESS" in env
            else cls.games_per_address,
            invitations_per_day=int(env.get("MEEPLE_INVITATIONS_PER_DAY", cls.invitations_per_day)),
            chat_per_minute=int(env.get("MEEPLE_CHAT_PER_MINUTE", cls.chat_per_minute)),
            chat_mail_seconds=int(env.get("MEEPLE_CHAT_MAIL_SECONDS", cls.chat_mail_seconds)),
            chat_per_address=Rate.parse(env["MEEPLE_CHAT_PER_ADDRESS"]) if "MEEPLE_CHAT_PER_ADDRESS" in env
            else cls.chat_per_address,
            chat_messages_per_room=int(env.get("MEEPLE_CHAT_MESSAGES_PER_ROOM", cls.chat_messages_per_room)),
            chat_seconds_after_end=int(env.get("MEEPLE_CHAT_SECONDS_AFTER_END", cls.chat_seconds_after_end)),
            registrations_per_address=Rate.parse_all(env["MEEPLE_REGISTRATIONS_PER_ADDRESS"])
            if "MEEPLE_REGISTRATIONS_PER_ADDRESS" in env else cls.registrations_per_address,
            open_reports_per_reporter=int(env.get("MEEPLE_OPEN_REPORTS_PER_REPORTER", cls.open_reports_per_reporter)),
            open_reports_per_address=int(env.get("MEEPLE_OPEN_REPORTS_PER_ADDRESS", cls.open_reports_per_address)),
            closed_reports_days=int(env.get("MEEPLE_CLOSED_REPORTS_DAYS", cls.closed_reports_days)),
            conversation_kept=int(env.get("MEEPLE_CONVERSATION_KEPT", cls.conversation_kept)),
            confirmations_per_player=int(env.get("MEEPLE_CONFIRMATIONS_PER_PLAYER", cls.confirmations_per_player)),
            confirmations_per_address=Rate.parse(env["MEEPLE_CONFIRMATIONS_PER_ADDRESS"])
            if "MEEPLE_CONFIRMATIONS_PER_ADDRESS" in env else cls.confirmations_per_address,
            confirmations_per_client=Rate.parse(env["MEEPLE_CONFIRMATIONS_PER_CLIENT"])
            if "MEEPLE_CONFIRMATIONS_PER_CLIENT" in env else cls.confirmations_per_client,
            sign_in_links_per_address=Rate.parse(env["MEEPLE_SIGN_IN_LINKS_PER_ADDRESS"])
            if "MEEPLE_SIGN_IN_LINKS_PER_ADDRESS" in env else cls.sign_in_links_per_address,
            sign_in_links_per_client=Rate.parse(env["MEEPLE_SIGN_IN_LINKS_PER_CLIENT"])
            if "MEEPLE_SIGN_IN_LINKS_PER_CLIENT" in env else cls.sign_in_links_per_client,
            vacations_per_player=Rate.parse(env["MEEPLE_VACATIONS_PER_PLAYER"])
            if "MEEPLE_VACATIONS_PER_PLAYER" in env else cls.vacations_per_player,
            max_blocks=int(env.get("MEEPLE_MAX_BLOCKS", cls.max_blocks)),
            trusted_proxies=int(env.get("MEEPLE_TRUSTED_PROXIES", cls.trusted_proxies)),
            ipv6_prefix=int(env.get("MEEPLE_IPV6_PREFIX", cls.ipv6_prefix)),
            cors_origins=origins(env.get("MEEPLE_CORS_ORIGINS", "")),
            webhooks_per_player=int(env.get("MEEPLE_WEBHOOKS_PER_PLAYER", cls.webhooks_per_player)),
            webhook_resolve_seconds=float(env.get("MEEPLE_WEBHOOK_RESOLVE_SECONDS", cls.webhook_resolve_seconds)),
            tokens_per_player=int(env.get("MEEPLE_TOKENS_PER_PLAYER", cls.tokens_per_player)),
            store_restart_seconds=float(env.get("MEEPLE_STORE_RESTART_SECONDS", cls.store_restart_seconds)),
            store_fsync=env.get("MEEPLE_STORE_FSYNC", cls.store_fsync),
            smtp_url=env.get("MEEPLE_SMTP_URL") or None,
            mail_from=env.get("MEEPLE_MAIL_FROM") or cls.mail_from,
            public_url=(env.get("MEEPLE_PUBLIC_URL") or cls.public_url).rstrip("/"),
            mail_hold_seconds=int(env.get("MEEPLE_MAIL_HOLD_SECONDS", cls.mail_hold_seconds)),
            lobby_seconds=int(env.get("MEEPLE_LOBBY_SECONDS", cls.lobby_seconds)),
            provisional_sigma=float(env.get("MEEPLE_PROVISIONAL_SIGMA", cls.provisional_sigma)),
            rating_days=int(env.get("MEEPLE_RATING_DAYS", cls.rating_days)),
            rating_history_points=int(env.get("MEEPLE_RATING_HISTORY_POINTS", cls.rating_history_points)),
            sweep_seconds=float(env.get("MEEPLE_SWEEP_SECONDS", cls.sweep_seconds)),
            cancelled_keep_seconds=int(env.get("MEEPLE_CANCELLED_KEEP_SECONDS", cls.cancelled_keep_seconds)),
            vacation_days_per_year=int(env.get("MEEPLE_VACATION_DAYS_PER_YEAR", cls.vacation_days_per_year)),
            reminders=tuple(int(s) for s in env["MEEPLE_REMINDERS"].split(",") if s) if "MEEPLE_REMINDERS" in env
            else cls.reminders,
        )
