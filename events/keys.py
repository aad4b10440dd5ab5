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


def clocks_moved(game_id: str) -> str:
    """Stream: a mark each time the game's clocks move with no event (a vacation of a seat's player
    begun or ended), which the game's event streams wait on; the latest one kept."""
    return f"{PREFIX}:{{{game_id}}}:clocks"


def staged(game_id: str) -> str:
    """Stream: an imported game's events while they are written, renamed to `stream` when whole (expires till then)."""
    return f"{PREFIX}:{{{game_id}}}:staged"


def staged_meta(game_id: str) -> str:
    """Hash: the version `staged` has reached (as `meta` holds the game's, for append.lua; expires with it)."""
    return f"{PREFIX}:{{{game_id}}}:staged-meta"


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
    """Hash: seat number → the id of the registered player the seat is reserved for, the only one who may take it,
    or `link:<code>` for whoever sends that code (events.records.LINK)."""
    return f"{PREFIX}:{{{game_id}}}:reserved"


def player(player_id: str) -> str:
    """Hash: a registered player's name and creation time (and `token`, the hash of the one token of a
    player registered before tokens were listed, until `held_tokens` takes it in)."""
    return f"{PREFIX}:player:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Sorted set: the games a player holds or is reserved a seat in, by joining or invitation time."""
    return f"{PREFIX}:player:{{{player_id}}}:games"


def vacations(player_id: str) -> str:
    """Sorted set: a player's vacations, each `start:end` (ms since the epoch) scored by its start."""
    return f"{PREFIX}:player:{{{player_id}}}:vacations"


def webhooks(player_id: str) -> str:
    """Hash: webhook id → JSON of its URL, secret and creation time."""
    return f"{PREFIX}:player:{{{player_id}}}:webhooks"


def deliveries(player_id: str) -> str:
    """List: the latest delivery attempts to a player's webhooks, newest first (capped)."""
    return f"{PREFIX}:player:{{{player_id}}}:deliveries"


def mail(player_id: str) -> str:
    """Hash: a player's mail address (`address`, `confirmed` once it is, `pending` while a new one waits
    for its link) and what they get of each kind (`kind:<kind>`)."""
    return f"{PREFIX}:player:{{{player_id}}}:mail"


def mail_confirmation(digest: str) -> str:
    """String: the player and address a confirmation link (by its SHA-256) confirms, as JSON; expires with the link."""
    return f"{PREFIX}:mail-confirmation:{digest}"


def mail_owner(digest: str) -> str:
    """String: the id of the player whose confirmed mail address (its lower case) has this SHA-256; a later confirmation takes it over."""
    return f"{PREFIX}:mail-owner:{digest}"


def mail_stop(digest: str) -> str:
    """String: `<player id> <kind>` that an unsubscribe token (by its SHA-256) stops."""
    return f"{PREFIX}:mail-stop:{digest}"


def mail_secret() -> str:
    """String: the server's secret that unsubscribe tokens are made with (players.mail), made once at random."""
    return f"{PREFIX}:mail-secret"


def mail_outbox() -> str:
    """List: mails asked for by the API, as JSON, that the workers hand to the notify queue (application.outbox)."""
    return f"{PREFIX}:mail-outbox"


def mail_sent(key: str) -> str:
    """String: `sending`, then `sent`, for a mail's once-key, so that it goes out once however often its job runs."""
    return f"{PREFIX}:mail-sent:{key}"


def mail_digests() -> str:
    """Sorted set: the players who get a daily digest, by when their next one is due (ms)."""
    return f"{PREFIX}:mail-digests"


def contacts(player_id: str) -> str:
    """Set: the ids of the players a player has held seats beside in a game that started."""
    return f"{PREFIX}:player:{{{player_id}}}:contacts"


def blocks(player_id: str) -> str:
    """Sorted set: the ids of the players a player blocks, by when they blocked them."""
    return f"{PREFIX}:player:{{{player_id}}}:blocks"


def conversation(one: str, other: str) -> str:
    """Stream: the messages between two players, one entry per message (players.conversations)."""
    return f"{PREFIX}:conversation:{{{':'.join(sorted((one, other)))}}}"


def conversation_hidden(one: str, other: str) -> str:
    """Set: the ids of the two players' messages hidden by the admin, kept in their conversation."""
    return f"{PREFIX}:conversation:{{{':'.join(sorted((one, other)))}}}:hidden"


def conversations(player_id: str) -> str:
    """Sorted set: the ids of the players a player has a conversation with, by its latest message (ms)."""
    return f"{PREFIX}:player:{{{player_id}}}:conversations"


def delivered(player_id: str) -> str:
    """Hash: player id → the id of the latest of their messages delivered to this player."""
    return f"{PREFIX}:player:{{{player_id}}}:delivered"


def read_up_to(player_id: str) -> str:
    """Hash: player id → the id of the latest message of their conversation with this player that this player read."""
    return f"{PREFIX}:player:{{{player_id}}}:read"


def mail_held(player_id: str, author: str, scope: str) -> str:
    """String: set while mail of `author`'s words in `scope` (a game, a conversation) to the player is held back."""
    return f"{PREFIX}:player:{{{player_id}}}:mail-held:{author}:{scope}"


def muted(writer: str) -> str:
    """String: until when (ms) the admin muted a writer, a player (their id) or a guest seat (its token's hash); expires then."""
    return f"{PREFIX}:player:{{{writer}}}:muted"


def report(report_id: str) -> str:
    """Hash: a report of a message, with a copy of the message (players.moderation)."""
    return f"{PREFIX}:report:{report_id}"


def reports(status: str) -> str:
    """Sorted set: the open reports by when they were made, or the closed ones by when they were closed."""
    return f"{PREFIX}:reports:{status}"


def reports_by(reporter: str) -> str:
    """Set: the ids of a reporter's open reports (a player's id, or a seat token's hash)."""
    return f"{PREFIX}:reporter:{{{reporter}}}:open"


def reports_from(address: str) -> str:
    """Set: the ids of the open reports filed from one client address (its hash)."""
    return f"{PREFIX}:report-address:{{{address}}}:open"


def reported(message: str) -> str:
    """Set: the ids of the open reports of one message (players.moderation.Reported.ref)."""
    return f"{PREFIX}:reported:{message}"


def chat(game_id: str, room: str) -> str:
    """Stream: a room of the game's chat (`table` or `spectators`), one entry per message (events.chat)."""
    return f"{PREFIX}:{{{game_id}}}:chat:{room}"


def chat_hidden(game_id: str) -> str:
    """Set: the game's chat messages hidden by the admin, kept in their room's stream, each as `<room> <id>`
    (the rooms' streams number their messages apart: the same id may name one message in each)."""
    return f"{PREFIX}:{{{game_id}}}:chat-hidden"


def chat_hides(game_id: str) -> str:
    """Stream: one entry per message of the game's chat the admin hides (its room and id), which its open streams wait on."""
    return f"{PREFIX}:{{{game_id}}}:chat-hides"


def notes(game_id: str) -> str:
    """Hash: seat number → the private notes its holder keeps on the game."""
    return f"{PREFIX}:{{{game_id}}}:notes"


def notified(game_id: str, key: str) -> str:
    """String: set once a notification about this game was handed out, so it goes out once."""
    return f"{PREFIX}:{{{game_id}}}:notified:{key}"


def player_token(digest: str) -> str:
    """String: the id of the player whose token has this SHA-256."""
    return f"{PREFIX}:player-token:{digest}"


def player_tokens() -> str:
    """Hash: SHA-256 of a player token → player id, as kept before `player_token` (moved on use)."""
    return f"{PREFIX}:player-tokens"


def player_token_use(digest: str) -> str:
    """String: when the player token with this SHA-256 was last used (ms), written at most once a minute."""
    return f"{PREFIX}:player-token:{digest}:used"


def held_tokens(player_id: str) -> str:
    """Hash: the id of each token a player holds → its SHA-256, name and creation time, as JSON."""
    return f"{PREFIX}:player:{{{player_id}}}:tokens"


def sign_in_link(digest: str) -> str:
    """String: the player a sign-in link (by its SHA-256) signs in, as JSON, then `used`; expires with the link."""
    return f"{PREFIX}:sign-in-link:{digest}"


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


def letters() -> str:
    """Stream: the `player` whose inbox changed besides their games and `about` what, one entry each time: their
    unread private `messages` (a message delivered to them, or read by them) or their invitations to `tournaments`
    (one arriving, declined, answered by signing up, or its tournament started), or both (a block); capped. The
    inbox streams wait on it (players.conversations.wake_inboxes)."""
    return f"{PREFIX}:letters"


def feed(shard: str) -> str:
    """Stream: the `game` id of each append to the shard's games (capped; the sweeper covers what it loses)."""
    return _sharded(f"{PREFIX}:feed", shard)


# RQ queues, by name (RQ builds their keys from it): AI seats' moves in games people play, and the
# tournaments' steps; deadlines and reminders, scheduled for their time; deliveries to webhooks and
# mail; AI seats' moves in games of AI seats alone, which nobody waits on
BOT_QUEUE = f"{PREFIX}-bots"
DEADLINE_QUEUE = f"{PREFIX}-deadlines"
NOTIFY_QUEUE = f"{PREFIX}-notify"
AI_GAMES_QUEUE = f"{PREFIX}-ai-games"
# the order a worker takes jobs in: a queue's jobs wait while one before it has any
WORKER_QUEUES = (DEADLINE_QUEUE, BOT_QUEUE, NOTIFY_QUEUE, AI_GAMES_QUEUE)


def rate(subject: str, seconds: int, window: int) -> str:
    """Counter: a subject's count in one window of a limit; expires with the window."""
    # subject: a client's requests (`token:<hash>`, `address:<ip>`), the games created from one
    # address (`games:<ip>`), the invitations from strangers to one player (`invitations:<player id>`),
    # the sign-in links asked from one client for one mail address (`sign-in-to:<ip>:<its SHA-256>`) or in all
    # (`sign-in-from:<ip>`), and those mailed to one player (`sign-in-links:<player id>`),
    # the confirmation mails sent to one mail address (`confirm-to:<its SHA-256>`) or asked for from one client (`confirm-from:<ip>`),
    # the chat messages one writer sends (`chat:<player id or seat token hash>`)
    return f"{PREFIX}:rate:{subject}:{seconds}:{window}"


def open_streams(subject: str) -> str:
    """Sorted set: the event streams one client holds open, each a lease scored by when it lapses (service.leases)."""
    # subject: `address:<ip>`, or `token:<holder>`: a registered player's id or a seat's token hash
    return f"{PREFIX}:streams:{subject}"


def clock_moves(game_id: str) -> str:
    """The moves a game's clocks read, folded from its log up to a version (application.timelines)."""
    return f"{PREFIX}:{{{game_id}}}:clock-moves"


def ratings_root(game: str, generation: str = "") -> str:
    """The prefix of every key of one generation of a game's ratings (events.ratings,
    events.rating_fold), the first ("") that of the keys made before there were generations: one
    slot per game, so that a game's fold, its lock and a rebuild's swap are each one transaction.
    The rating keys below that name no game take such a root."""
    return f"{PREFIX}:{{ratings:{game}}}" + (f":gen:{generation}" if generation else "")


def rating_current(game: str) -> str:
    """String: the generation of the game's ratings the pages read and the fold folds ("" if none)."""
    return f"{ratings_root(game)}:current"


def rating_generations(game: str) -> str:
    """String: a counter, the number of the game's latest generation (each rebuild makes one)."""
    return f"{ratings_root(game)}:generations"


def old_ratings() -> str:
    """The pattern of the keys the ratings were kept under before each game had a slot of its own
    (`meeple ratings rebuild` deletes them)."""
    return f"{PREFIX}:{{ratings}}:*"


def rating_results(root: str) -> str:
    """Hash: game id → the rated result it counts for, as JSON, recorded once."""
    return f"{root}:results"


def rating_order(root: str) -> str:
    """Sorted set: every recorded result's game id, scored by its last event's time; ties by id (the fold's order)."""
    return f"{root}:order"


def rating_unfolded(root: str) -> str:
    """Sorted set: the results the fold has yet to reach, scored as `rating_order` (the next fold starts at the first)."""
    return f"{root}:unfolded"


def rating_now(root: str) -> str:
    """Hash: identity → its rating now, as JSON (mu, sigma, games, last)."""
    return f"{root}:now"


def rating_board(root: str, provisional: bool) -> str:
    """Sorted set: the established (or provisional) identities, scored by minus their rating shown."""
    return f"{root}:board:{'provisional' if provisional else 'established'}"


def rating_last(root: str, provisional: bool) -> str:
    """Sorted set: the same identities as `rating_board`, scored by the time of their latest result."""
    return f"{root}:last:{'provisional' if provisional else 'established'}"


def rating_history(root: str, identity: str) -> str:
    """Sorted set: an entry after each of the identity's results (events.ratings.Entry), scored by its time."""
    return f"{root}:history:{identity}"


def rating_places(root: str, identity: str) -> str:
    """Hash: place → how many times the identity finished there."""
    return f"{root}:places:{identity}"


def rating_versus(root: str, identity: str) -> str:
    """Hash: another identity → `<ahead> <behind> <tied>`, the identity's games against it."""
    return f"{root}:versus:{identity}"


def rating_opponents(root: str, identity: str) -> str:
    """Sorted set: every identity met, scored by minus the games together (most met first, ties by id)."""
    return f"{root}:opponents:{identity}"


def rating_rebuilding(game: str) -> str:
    """String, expiring: the generation a rebuild of the game's ratings folds into, while it runs, so
    that each result recorded meanwhile is recorded into it too."""
    return f"{ratings_root(game)}:rebuilding"


def rating_sweeping() -> str:
    """String: held by the one rating keeper sweeping the finished games (workers.ratings)."""
    return f"{PREFIX}:ratings-sweeping"


def rating_lock(game: str) -> str:
    """String: held by the one process folding (or rebuilding) a game's ratings."""
    return f"{ratings_root(game)}:lock"


def rating_swept(game: str) -> str:
    """String: ms since the epoch up to which the finished games were swept for the game's results the feed lost."""
    return f"{ratings_root(game)}:swept"


def rating_game_keys(game: str) -> list[str]:
    """The game's own rating keys, of no generation, though under the first generation's root."""
    return [rating_lock(game), rating_swept(game), rating_rebuilding(game), rating_current(game), rating_generations(game)]


def tournament(tournament_id: str) -> str:
    """Hash: a tournament's settings (`record`, JSON) and its `stage`."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}"


def tournament_entrants(tournament_id: str) -> str:
    """Hash: entrant id (a player's id, or `ai-<id>` for an AI the creator entered) → JSON of its name,
    AI level, sign-up time and the round it withdrew in, if it did."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:entrants"


def tournament_rounds(tournament_id: str) -> str:
    """Hash: round number (from 1) → JSON of its tables (game id, entrant ids by seat) and byes, each written once."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:rounds"


def tournament_opening(tournament_id: str) -> str:
    """Set: the numbers of the rounds paired whose games are not all opened yet, kept from the tournament's
    readers until they are (so no table names a game that is not there)."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:opening"


def tournament_results(tournament_id: str) -> str:
    """Hash: game id of a finished table → JSON of its entrants by place and those who ran out of time."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:results"


def tournament_news(tournament_id: str) -> str:
    """Stream: an entry each time the tournament changes (capped); its standings stream waits on it."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:news"


def tournament_lock(tournament_id: str) -> str:
    """String: held while the tournament's next round is paired and its games opened."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:lock"


def tournament_of(game_id: str) -> str:
    """String: the tournament whose table the game is."""
    return f"{PREFIX}:{{{game_id}}}:tournament"


def tournaments_listed() -> str:
    """Sorted set: the listed tournaments signing up or under way, by start time."""
    return f"{PREFIX}:tournaments:listed"


def tournaments_ended() -> str:
    """Sorted set: the listed tournaments that ended (finished or cancelled), by when they ended."""
    return f"{PREFIX}:tournaments:ended"


def ended_tournaments_filed() -> str:
    """String: set once the tournaments that ended among the open ones (an older store's) were filed apart."""
    return f"{PREFIX}:tournaments:ended-filed"


def tournaments_waiting() -> str:
    """Sorted set: the tournaments signing up, by start time (the reactors' sweep starts those due)."""
    return f"{PREFIX}:tournaments:waiting"


def tournaments_running() -> str:
    """Set: the tournaments under way (the reactors' sweep advances each, whatever the feed missed)."""
    return f"{PREFIX}:tournaments:running"


def tournament_invitations(player_id: str) -> str:
    """Sorted set: the tournaments a player is invited to, by invitation time, until declined or started."""
    return f"{PREFIX}:player:{{{player_id}}}:tournament-invitations"


def tournament_invitees(tournament_id: str) -> str:
    """Set: the players a tournament invited, until it starts, which ends their invitations (then deleted)."""
    return f"{PREFIX}:tournament:{{{tournament_id}}}:invitees"


def player_tournaments(player_id: str) -> str:
    """Sorted set: the tournaments a player signed up for, by sign-up time."""
    return f"{PREFIX}:player:{{{player_id}}}:tournaments"
