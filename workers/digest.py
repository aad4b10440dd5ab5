"""The daily digest: once a day, each player who chose it is mailed the games waiting for their
move, the one with the least time left first."""

from __future__ import annotations

import time
from typing import cast

import redis
from rq import Queue

from application.deadlines import due, game_clocks
from application.letters import game_link
from application.outbox import Mail
from domain import GAMES
from events import keys
from players.accounts import PlayerStore
from players.mail import DAY_MS
from runtime.config import Config
from workers.mail import FAILED_SECONDS, TIMEOUT_SECONDS, enqueue
from workers.queues import job_connection, job_executor


def queue_digests(store: redis.Redis, queues: redis.Redis) -> int:
    """Queue the digest of every player whose digest is due, and make their next one due a day later; how many."""
    now = int(time.time() * 1000)
    due_now = cast(list[tuple[bytes, float]], store.zrangebyscore(keys.mail_digests(), "-inf", now, withscores=True))
    for member, at in due_now:
        player_id, day = member.decode(), int(at) // DAY_MS
        Queue(keys.NOTIFY_QUEUE, connection=queues).enqueue(
            send_digest, player_id, day, job_id=f"digest-{player_id}-{day}", job_timeout=TIMEOUT_SECONDS,
            result_ttl=0, failure_ttl=FAILED_SECONDS)
        store.zadd(keys.mail_digests(), {player_id: next_due(int(at), now)}, xx=True)
    return len(due_now)


def next_due(at: int, now: int) -> int:
    """The first time after `now` at the digest's time of day (`at` plus whole days): one digest after an outage."""
    return at + DAY_MS * -(-(now - at + 1) // DAY_MS)


def send_digest(player_id: str, day: int) -> str:
    """Mail the player the games that wait for their move, the one with the least time left first; none if none wait."""
    executor = job_executor()
    public_url = Config.from_env().public_url
    waiting = []
    for game_id in PlayerStore(executor.store.redis).games(player_id):
        loaded = executor.load(game_id)
        seat = loaded.record.seat_of(player_id)
        if seat is None or loaded.version == 0 or seat not in loaded.game.status(loaded.state).to_move:
            continue
        clocks = game_clocks(executor.store, loaded)  # once for both: the deadline and the time left
        deadline, ticking = due(executor.store, loaded, seat, clocks), None if clocks is None else clocks[seat]
        waiting.append({"title": GAMES[loaded.record.game].title, "link": game_link(public_url, game_id),
                        "left": None if ticking is None else ticking.remaining, "paused": ticking and ticking.paused,
                        "deadline": None if deadline is None else deadline.at})
    if not waiting:
        return "nothing waits"
    # as the inbox sorts them: least time left on the clock first, then the soonest deadline
    waiting.sort(key=lambda game: (game["left"] is None, game["left"] or 0, game["deadline"] is None, game["deadline"] or 0))
    enqueue(job_connection(), Mail("digest", f"{player_id}-digest-{day}", to_player=player_id, data={"games": waiting}))
    return "queued"
