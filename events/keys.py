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
    """Hash: seat number → the id of the registered player the seat is reserved for, the only one who may take it."""
    return f"{PREFIX}:{{{game_id}}}:reserved"


def player(player_id: str) -> str:
    """Hash: a registered player's name, token hash and creation time."""
    return f"{PREFIX}:player:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Sorted set: the games a player holds or is reserved a seat in, by joining or invitation time."""
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
    """Hash: SHA-256 of a player token → player id, as kept before `player_token` (moved on use)."""
    return f"{PREFIX}:player-tokens"


def stream_ticket(digest: str) -> str:
    """String: what a stream ticket (by its SHA-256) grants, as JSON; expires with the ticket."""
    return f"{PREFIX}:stream-ticket:{digest}"


def bots(game_id: str) -> str:
    """Hash: seat number → the AI level playing it; `<seat>:budget` → its budget (JSON), if not its level's own."""
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
    """Sorted set: the ids of the shard's games with this status, by when they took it (GameRecords.indexed)."""
    return _sharded(f"{PREFIX}:games:{status}", shard)


def listed(game: str | None, status: Lifecycle | None, shard: str) -> str:
    """Sorted set: the shard's listed games of `game` (None: all) with `status` (None: any), by when they took it."""
    # without a status, by creation time (GameRecords.page)
    return _sharded(f"{PREFIX}:listed:{game or 'all'}:{status or 'all'}", shard)


def listed_index_built() -> str:
    """String: set once every game created before the listed games' indexes existed is filed in them."""
    return f"{PREFIX}:listed:built"


def status_index_built() -> str:
    """String: set once every game created before the status indexes existed is filed in them."""
    return f"{PREFIX}:games:by-status"


def feed(shard: str) -> str:
    """Stream: the `game` id of each append to the shard's games (capped; the sweeper covers what it loses)."""
    return _sharded(f"{PREFIX}:feed", shard)


# RQ queues, by name (RQ builds their keys from it): AI seats' moves; deadlines and reminders,
# scheduled for their time; deliveries to webhooks
BOT_QUEUE = f"{PREFIX}-bots"
DEADLINE_QUEUE = f"{PREFIX}-deadlines"
NOTIFY_QUEUE = f"{PREFIX}-notify"


def rate(subject: str, seconds: int, window: int) -> str:
    """Counter: a subject's count in one window of a limit; expires with the window."""
    # subject: a client's requests (`token:<hash>`, `address:<ip>`), the games created from one
    # address (`games:<ip>`), the invitations from strangers to one player (`invitations:<player id>`)
    return f"{PREFIX}:rate:{subject}:{seconds}:{window}"


def open_streams(subject: str) -> str:
    """Sorted set: the event streams one client holds open, each a lease scored by when it lapses (service.leases)."""
    # subject: `address:<ip>`, or `token:<holder>`: a registered player's id or a seat's token hash
    return f"{PREFIX}:streams:{subject}"
