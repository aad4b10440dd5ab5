"""Mail sent by the workers: the outbox drained into jobs, a game's notifications and invitations
turned into mail for the players who chose it ("your turn" held back while its player is online),
and the job that renders and sends one mail, retried with backoff and sent once per key however
often it runs."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from datetime import timedelta
from typing import Any, cast

import redis
from rq import Queue, Retry
from rq.job import Job

from application.letters import compose
from application.outbox import Mail
from application.signing_in import SIGN_IN_ASKED, mail_sign_in_link
from events import keys
from events.envelope import GameRecord
from players.accounts import PlayerStore
from players.mail import KINDS, Choice, Mailboxes
from players.presence import is_online
from runtime import mailer
from runtime.config import Config
from workers.errors import MailFailed
from workers.queues import attempt_number, job_connection, job_executor, retry_intervals

log = logging.getLogger("meeple.worker")

TIMEOUT_SECONDS = 60  # a job's time to render and hand over one mail
SENDING_SECONDS = 120  # how long a job sending a mail holds its key: past it, the mail counts as not sent
KEEP_SECONDS = 30 * 86400  # how long a sent mail's key is remembered
# how long a failed mail's job is kept for its operator to read why; one that ran is not kept, since
# its arguments may hold a link's secret (the mail's key answers a second copy)
FAILED_SECONDS = 3600
OUTBOX_BATCH = 100
# what a game's notifications become in mail: notification kind → kind of players.mail.KINDS
MAILED = {"your_turn": "your_turn", "reminder": "reminder", "game_over": "game_over"}


def mail_retry(within: float | None = None) -> Retry | None:
    """A mail job's attempts after its first: MEEPLE_MAIL_RETRY seconds apart, those that start `within` seconds."""
    intervals = retry_intervals("MEEPLE_MAIL_RETRY", "10,60,300,1800,7200")
    if within is not None:
        intervals = [gap for n, gap in enumerate(intervals) if sum(intervals[:n + 1]) < within]
    return Retry(max=len(intervals), interval=intervals) if intervals else None


def enqueue(queues: redis.Redis, mail: Mail) -> None:
    """A job that sends `mail`, unless one for its key is waiting or failed."""
    job_id = f"mail-{hashlib.sha256(mail.key.encode()).hexdigest()[:40]}"
    life = mail.seconds_left()
    if Job.exists(job_id, connection=queues) or (life is not None and life <= 0):
        return
    # a mail whose link ends is tried while the link works, and a failed one kept no longer than it
    Queue(keys.NOTIFY_QUEUE, connection=queues).enqueue(
        send_mail, mail.dumps(), job_id=job_id, job_timeout=TIMEOUT_SECONDS, retry=mail_retry(life), result_ttl=0,
        failure_ttl=FAILED_SECONDS if life is None else max(1, min(FAILED_SECONDS, int(life))))


def drain_outbox(store: redis.Redis, queues: redis.Redis) -> int:
    """Turn the mails on the outbox into jobs, each taken off only once its job is queued; how many."""
    taken = cast(list[bytes], store.lrange(keys.mail_outbox(), 0, OUTBOX_BATCH - 1))
    for raw in taken:
        try:
            mail = Mail.loads(raw)
            if mail.kind == SIGN_IN_ASKED:  # the address is looked up here, where its time tells the asker nothing
                mail_sign_in_link(store, mail, Config.from_env().public_url)
            else:
                enqueue(queues, mail)
        except (ValueError, TypeError):
            log.warning("a mail on the outbox cannot be read; dropped", extra={"mail": raw[:200].decode(errors="replace")})
        # another reactor may have taken it first: a job queued twice sends once
        store.lrem(keys.mail_outbox(), 1, raw)  # type: ignore[arg-type]  # redis-py takes the bytes it gave
    return len(taken)


def run_outbox(store: redis.Redis, queues: redis.Redis, stop: threading.Event, every: float = 0.5) -> None:
    """Drain the outbox every `every` seconds until `stop` is set, through store outages."""
    while not stop.wait(every):
        try:
            while drain_outbox(store, queues) == OUTBOX_BATCH:
                pass
        except redis.RedisError as error:
            log.warning("mail outbox: store unreachable, retrying: %s", error)


def mail_notification(store: redis.Redis, queues: redis.Redis, player_id: str, notification: dict[str, Any]) -> None:
    """Mail a game's notification to its player, if it is of a kind they chose; "your turn" first waits while they are online."""
    kind = MAILED.get(notification["kind"])
    if kind is None or Mailboxes(store).recipient(player_id, kind) is None:
        return
    data = {"game_id": notification["game_id"], "game": notification["game"], "version": notification["version"],
            "deadline": notification.get("deadline")}
    if kind == "game_over":
        places = [i + 1 for i, group in enumerate(notification["ranking"]) if notification["seat"] in group]
        data |= {"place": places[0] if places else None, "seats": sum(len(group) for group in notification["ranking"])}
    mail = Mail(kind, f"{player_id}-{notification['id']}", to_player=player_id, data=data)
    if kind != "your_turn":
        enqueue(queues, mail)
        return
    # retried as a mail is: the notification is marked handed out once this is queued, so nothing queues it again
    Queue(keys.NOTIFY_QUEUE, connection=queues).enqueue(
        mail_turn, mail.dumps(), notification["seat"], job_id=f"mail-turn-{mail.key}-0",
        job_timeout=TIMEOUT_SECONDS, retry=mail_retry(), result_ttl=0, failure_ttl=FAILED_SECONDS)


def mail_invitations(store: redis.Redis, queues: redis.Redis, record: GameRecord) -> None:
    """Mail each player a waiting game keeps a seat for, whom the invitation reached (it is in their inbox), once;
    not its creator, whose own seat a game may keep too (a rematch's)."""
    inviter = PlayerStore(store).get(record.creator) if record.creator else None
    for player_id in dict.fromkeys(record.reserved.values()):
        if (player_id == record.creator or record.invitation(player_id) is None or Mailboxes(store).recipient(player_id, "invitation") is None
                or store.zscore(keys.player_games(player_id), record.id) is None):
            continue
        enqueue(queues, Mail("invitation", f"{player_id}-invitation-{record.id}", to_player=player_id, data={
            "game_id": record.id, "game": record.game, "inviter": inviter.name if inviter else None}))


def mail_turn(raw: str, seat: int) -> str:
    """Send a "your turn" mail while the game still waits for `seat` at its version; held back, and
    looked at again every MEEPLE_MAIL_HOLD_SECONDS, while its player chose so and is online."""
    mail, executor = Mail.loads(raw), job_executor()
    loaded = executor.load(mail.data["game_id"])
    if loaded.version != mail.data["version"] or seat not in loaded.game.status(loaded.state).to_move:
        return "stale"
    assert mail.to_player is not None
    store = executor.store.redis
    if Mailboxes(store).of(mail.to_player).choices["your_turn"] is Choice.OFFLINE and is_online(store, mail.to_player):
        hold = Config.from_env().mail_hold_seconds
        Queue(keys.NOTIFY_QUEUE, connection=job_connection()).enqueue_in(
            timedelta(seconds=hold), mail_turn, raw, seat, job_id=f"mail-turn-{mail.key}-{time.time_ns()}",
            job_timeout=TIMEOUT_SECONDS, retry=mail_retry(), result_ttl=0, failure_ttl=FAILED_SECONDS)
        return "held"
    enqueue(job_connection(), mail)
    return "queued"


def send_mail(raw: str) -> str:
    """Render and send one mail, unless its key was sent already or its link expired; raising MailFailed makes RQ
    try again later."""
    mail, store = Mail.loads(raw), job_executor().store.redis
    config = Config.from_env()
    if (life := mail.seconds_left()) is not None and life <= 0:
        return "expired"  # its link no longer works: nothing to send
    found = _recipient(store, mail)
    if found is None:
        return "no address"
    address, name, stop_token = found
    marker = keys.mail_sent(mail.key)
    if not store.set(marker, "sending", nx=True, ex=SENDING_SECONDS):
        if store.get(marker) == b"sent":
            return "sent before"
        raise MailFailed(mail.key, attempt_number(), "being sent by another job")
    message = compose(mail, address, name, public_url=config.public_url, sender=config.mail_from, stop_token=stop_token)
    try:
        mailer.send(config, message)
    except OSError as error:  # smtplib's errors too
        store.delete(marker)
        raise MailFailed(mail.key, attempt_number(), type(error).__name__) from None
    store.set(marker, "sent", ex=KEEP_SECONDS)
    return "sent"


def _recipient(store: redis.Redis, mail: Mail) -> tuple[str, str, str | None] | None:
    """Where the mail goes, the name it greets and its unsubscribe token (None for a mail always sent); None if nowhere."""
    if mail.to_address is not None:
        return mail.to_address, str(mail.data.get("name", "")), None
    assert mail.to_player is not None
    player, mailboxes = PlayerStore(store).get(mail.to_player), Mailboxes(store)
    if player is None:
        return None
    chosen = mail.kind in KINDS
    settings = mailboxes.of(player.id)
    address = mailboxes.recipient(player.id, mail.kind) if chosen else settings.address if settings.confirmed else None
    if address is None:
        return None
    return address, player.name, mailboxes.stop_token(player.id, mail.kind) if chosen else None
