"""The Flask application factory."""

from __future__ import annotations

import logging

import redis
from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from application.lobby import Lobby
from events.execute import Executor
from events.tickets import StreamTickets
from players.accounts import PlayerStore
from players.conversations import Letters
from players.devices import PlayerTokens
from players.invitations import Invitations
from players.vacations import Vacations
from players.webhooks import Webhooks
from runtime import connections, metrics
from runtime.config import Config
from service import conditional, cors, headers, limits, observability
from service.announcements import Announcements
from service.answers import Answers
from service.api.chat import bp as chat
from service.api.conversations import bp as conversations
from service.api.docs import bp as docs
from service.api.games import bp as games
from service.api.mail import bp as mail
from service.api.moderation import bp as moderation
from service.api.players import bp as players
from service.api.ratings import bp as ratings
from service.api.signing_in import bp as signing_in
from service.api.streams import bp as streams
from service.api.tournaments import bp as tournaments
from service.bodies import CappedRequest
from service.errors import handle_error
from service.leases import StreamLeases
from service.legal import LegalCommands
from service.routing_without_cycles import RoutingMap
from service.web import bp as web


class GameId(BaseConverter):
    """A game id in a path: any segment but the names of the routes beside it (`types`, `import`)."""

    regex = r"(?!(?:types|import)$)[^/]+"


def create_app(config: Config | None = None, client: redis.Redis | None = None) -> Flask:
    """The API over the store at `config.redis_url` (or over `client`, as tests do)."""
    config = config or Config.from_env()
    waiting = queues = None
    if client is None:
        if config.redis_url is None:
            raise ValueError("MEEPLE_REDIS_URL is not set; `meeple serve` starts the embedded store")
        # a connection for each request the process may serve at once, so that under load no
        # request waits for one behind others; each open event stream holds one more of its own
        # while it waits for the next event
        client = connections.store_client(config, config.connections)
        waiting = connections.store_client(config, max_connections=100_000,
                                           socket_timeout=config.stream_heartbeat_ms / 1000 + 10)
        queues = connections.queue_client(config)
    app = _Meeple("meeple")
    app.request_class = CappedRequest  # a chunked body over the limit is a 413, as one with a Content-Length is
    app.url_map.converters["game"] = GameId
    app.config["MAX_CONTENT_LENGTH"] = config.max_body_bytes
    app.config["MEEPLE_MAX_IMPORT_BYTES"] = config.max_import_bytes
    app.config["MEEPLE_MAX_IMPORT_EVENTS"] = config.max_import_events
    app.config["MEEPLE_PROVISIONAL_SIGMA"] = config.provisional_sigma
    app.config["MEEPLE_RATING_DAYS"] = config.rating_days
    app.config["MEEPLE_RATING_HISTORY_POINTS"] = config.rating_history_points
    app.config["MEEPLE_ADMIN_TOKEN"] = config.admin_token
    app.config["MEEPLE_STREAM_HEARTBEAT_MS"] = config.stream_heartbeat_ms
    app.config["MEEPLE_WEBHOOK_RESOLVE_SECONDS"] = config.webhook_resolve_seconds
    app.config["MEEPLE_GAMES_PER_ADDRESS"] = config.games_per_address
    app.config["MEEPLE_IPV6_PREFIX"] = config.ipv6_prefix
    app.config["MEEPLE_INVITATIONS_PER_DAY"] = config.invitations_per_day
    app.config["MEEPLE_CHAT_PER_MINUTE"] = config.chat_per_minute
    app.config["MEEPLE_CHAT_MAIL_SECONDS"] = config.chat_mail_seconds
    app.config["MEEPLE_CHAT_PER_ADDRESS"] = config.chat_per_address
    app.config["MEEPLE_CHAT_MESSAGES_PER_ROOM"] = config.chat_messages_per_room
    app.config["MEEPLE_CHAT_SECONDS_AFTER_END"] = config.chat_seconds_after_end
    app.config["MEEPLE_REGISTRATIONS_PER_ADDRESS"] = config.registrations_per_address
    app.config["MEEPLE_OPEN_REPORTS_PER_REPORTER"] = config.open_reports_per_reporter
    app.config["MEEPLE_OPEN_REPORTS_PER_ADDRESS"] = config.open_reports_per_address
    app.config["MEEPLE_CLOSED_REPORTS_DAYS"] = config.closed_reports_days
    app.config["MEEPLE_CONVERSATION_KEPT"] = config.conversation_kept
    app.config["MEEPLE_CONFIRMATIONS_PER_PLAYER"] = config.confirmations_per_player
    app.config["MEEPLE_CONFIRMATIONS"] = (config.confirmations_per_address, config.confirmations_per_client)
    app.config["MEEPLE_SIGN_IN_LINKS"] = (config.sign_in_links_per_address, config.sign_in_links_per_client)
    app.config["MEEPLE_VACATIONS_PER_PLAYER"] = config.vacations_per_player
    app.config["MEEPLE_PUBLIC_URL"] = config.public_url
    app.json.sort_keys = False  # type: ignore[attr-defined]
    if config.trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config.trusted_proxies)  # type: ignore[method-assign]
    store = connections.event_store(config, client, waiting)
    executor = app.extensions["meeple"] = Executor(store, on_append=metrics.APPEND_SECONDS.observe)
    player_store = app.extensions["meeple.players"] = PlayerStore(client)
    app.extensions["meeple.webhooks"] = Webhooks(client, config.webhooks_per_player)
    app.extensions["meeple.vacations"] = Vacations(client, config.vacation_days_per_year)
    app.extensions["meeple.tokens"] = PlayerTokens(client, config.tokens_per_player)
    invitations = app.extensions["meeple.invitations"] = Invitations(client, config.max_blocks)
    app.extensions["meeple.lobby"] = Lobby(executor, player_store, invitations, config.lobby_seconds)
    app.extensions["meeple.tickets"] = StreamTickets(client)
    app.extensions["meeple.leases"] = StreamLeases(client, config.streams_per_address, config.streams_per_token,
                                                   config.stream_heartbeat_ms)
    app.extensions["meeple.announcements"] = Announcements(store.feed, Letters(client, store.feed.waiting))
    app.extensions["meeple.legal"] = LegalCommands()
    # answers pass the hooks in the reverse order: CORS, conditional reads, rate-limit headers, the
    # headers of every answer, the log line
    observability.install(app, store, queues or client)
    headers.install(app)
    limits.install(app, client, config.rate_per_token, config.rate_per_address)
    conditional.install(app)
    cors.install(app, config.cors_origins)
    app.register_blueprint(games)
    app.register_blueprint(players)
    app.register_blueprint(ratings)
    app.register_blueprint(mail)
    app.register_blueprint(signing_in)
    app.register_blueprint(streams)
    app.register_blueprint(tournaments)
    app.register_blueprint(chat)
    app.register_blueprint(conversations)
    app.register_blueprint(moderation)
    app.register_blueprint(docs)
    app.register_blueprint(web)
    app.register_error_handler(Exception, handle_error)
    logging.getLogger("meeple").setLevel(logging.INFO)
    return app


class _Meeple(Flask):
    """Flask, its URLs matched without a reference cycle per request (`service.routing_without_cycles`) and its
    answers' JSON written by orjson (`service.answers`)."""

    url_map_class = RoutingMap
    json_provider_class = Answers
