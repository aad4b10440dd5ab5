"""Every Redis key Meeple uses. All keys of one game share the hash tag `{game_id}`, so one
append touches one Redis Cluster slot; the store-wide keys its changes touch besides (the feed,
the indexes of games) are split into shards (events.shards), each named with the shard's suffix."""

from __future__ import annotations

import re

from events.envelope import Lifecycle

PREFIX = "meeple"
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def meta(game_id: str) -> str:
    """Hash: game name, options, seat count, status, version, creation time."""
    return f"{PREFIX}:{{{game_id}}}:meta"


def stream(game_id: str) -> str:
    """Stream: the game's events; entry id `<version>-0`."""
    return f"{PREFIX}:{{{game_id}}}:events"


def snapshots(game_id: str) -> str:
    """Hash: version → the game's state at that version as JSON (a cache; see events.snapshots)."""
    return f"{PREFIX}:{{{game_id}}}:snapshots"


def seats(game_id: str) -> str:
    """Hash: seat number → player name."""
    return f"{PREFIX}:{{{game_id}}}:seats"


def players(game_id: str) -> str:
    """Hash: seat number → the id of the registered player holding it."""
    return f"{PREFIX}:{{{game_id}}}:players"


def reservations(game_id: str) -> str:
    """Hash: seat number → the id of the registered player the seat is reserved for (only they
    may take it)."""
    return f"{PREFIX}:{{{game_id}}}:reserved"


def player(player_id: str) -> str:
    """Hash: a registered player's name, token hash and creation time."""
    return f"{PREFIX}:player:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Sorted set: the games a player holds a seat in or is invited to (a seat is reserved for
    them), by joining or invitation time."""
    return f"{PREFIX}:player:{{{player_id}}}:games"


def webhooks(player_id: str) -> str:
    """Hash: webhook id → JSON of its URL, secret and creation time."""
    return f"{PREFIX}:player:{{{player_id}}}:webhooks"


def deliveries(player_id: str) -> str:
    """List: the latest delivery attempts to a player's webhooks, newest first (capped)."""
    return f"{PREFIX}:player:{{{player_id}}}:deliveries"


def contacts(player_id: str) -> str:
    """Set: the ids of the players a player has held seats beside in a game that started."""
    return f"{PREFIX}:player:{{{player_id}}}:contacts"


def blocks(player_id: str) -> str:
    """Sorted set: the ids of the players a player blocks, by when they blocked them."""
    return f"{PREFIX}:player:{{{player_id}}}:blocks"


def notified(game_id: str, key: str) -> str:
    """String: set once a notification about this game was handed out, so it goes out once."""
    return f"{PREFIX}:{{{game_id}}}:notified:{key}"


def player_token(digest: str) -> str:
    """String: the id of the player whose token has this SHA-256."""
    return f"{PREFIX}:player-token:{digest}"


def player_tokens() -> str:
    """Hash: SHA-256 of a player token → player id, as stores kept them before `player_token`
    (each moved from there when it is next used: events.seats.player_of_token)."""
    return f"{PREFIX}:player-tokens"


def stream_ticket(digest: str) -> str:
    """String: what a stream ticket (by its SHA-256) grants, as JSON; expires with the ticket."""
    return f"{PREFIX}:stream-ticket:{digest}"


def bots(game_id: str) -> str:
    """Hash: seat number → the AI level playing it; `<seat>:budget` → the budget it thinks
    within (JSON), if not its level's own."""
    return f"{PREFIX}:{{{game_id}}}:bots"


def tokens(game_id: str) -> str:
    """Hash: SHA-256 of a seat token → seat number."""
    return f"{PREFIX}:{{{game_id}}}:tokens"


def idempotency(game_id: str, key: str) -> str:
    """String: the fingerprint and version range of the command first sent with this key."""
    return f"{PREFIX}:{{{game_id}}}:idem:{key}"


def _sharded(name: str, shard: str) -> str:
    return f"{name}:{shard}" if shard else name


def game_index(shard: str) -> str:
    """Sorted set: the shard's game ids by creation time (written once per game, at creation)."""
    return _sharded(f"{PREFIX}:games", shard)


def games_with_status(status: Lifecycle, shard: str) -> str:
    """Sorted set: the ids of the shard's games with this status, by when they took it (see
    GameRecords.indexed for how it follows a game's status)."""
    return _sharded(f"{PREFIX}:games:{status}", shard)


def listed(game: str | None, status: Lifecycle | None, shard: str) -> str:
    """Sorted set: the ids of the shard's listed games (not unlisted) of one game, or of every game
    (None), with one status or any (None): with a status by when they took it, else by creation
    time (see GameRecords.page)."""
    return _sharded(f"{PREFIX}:listed:{game or 'all'}:{status or 'all'}", shard)


def listed_index_built() -> str:
    """String: set once every game created before the listed games' indexes existed is filed in them."""
    return f"{PREFIX}:listed:built"


def status_index_built() -> str:
    """String: set once every game created before the status indexes existed is filed in them."""
    return f"{PREFIX}:games:by-status"


def feed(shard: str) -> str:
    """Stream: the `game` id of each append to the shard's games, for the reactor and the inbox
    streams (capped; the sweeper covers anything it misses)."""
    return _sharded(f"{PREFIX}:feed", shard)


# RQ queues, by name (RQ builds their keys from it): AI seats' moves; deadlines and reminders,
# scheduled for their time; deliveries to webhooks
BOT_QUEUE = f"{PREFIX}-bots"
DEADLINE_QUEUE = f"{PREFIX}-deadlines"
NOTIFY_QUEUE = f"{PREFIX}-notify"


def rate(subject: str, seconds: int, window: int) -> str:
    """Counter: the requests of one client (`token:<hash>` or `address:<ip>`), the games created
    from one address (`games:<ip>`) or the invitations from strangers to one player
    (`invitations:<player id>`) in one window of a limit (expires with the window)."""
    return f"{PREFIX}:rate:{subject}:{seconds}:{window}"


def open_streams(subject: str) -> str:
    """Sorted set: the event streams one client (`address:<ip>`, or `token:<holder>`: a registered
    player's id or an anonymous seat's token hash) holds open, each a lease scored by when it
    lapses unless renewed (service.leases)."""
    return f"{PREFIX}:streams:{subject}"
