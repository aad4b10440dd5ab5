"""Notifications to players' webhooks: signed POSTs, retried with backoff, each attempt logged. A
webhook made for a chat (Discord, Slack) is sent a line of text with the game's link instead of the
notification's JSON (application.chat_lines).

A delivery carries `Meeple-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
webhook's secret>`; a receiver recomputes it and refuses a timestamp older than a few minutes."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

import redis
import requests
from rq import Queue, Retry
from rq.job import Job

from application import chat_lines
from events import keys
from players import egress, errors
from players.accounts import PlayerStore
from players.webhooks import Webhook, Webhooks
from runtime.config import Config
from workers.errors import DeliveryFailed
from workers.mail import mail_notification
from workers.queues import attempt_number, job_executor, retry_intervals

TIMEOUT_SECONDS = 5
KEEP_SECONDS = 30 * 86400  # how long a handed-out notification is remembered
# how long a delivery's job is kept once it is done: a notification handed out again by a reaction
# run anew (a sweep, within minutes) after its process died between the enqueue and the marker
# finds the job and sends nothing twice; past that the marker answers, and nothing reads the job
DONE_SECONDS = 3600


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def notify(store: redis.Redis, queues: redis.Redis, game_id: str, key: str, player_id: str,
           notification: dict[str, Any]) -> None:
    """Hand a notification about a game to each of the player's webhooks and, if they chose it, their mail, once per
    `key`: a job each on `queues`."""
    marker = keys.notified(game_id, key)
    if store.exists(marker):
        return
    queue = Queue(keys.NOTIFY_QUEUE, connection=queues)
    intervals = retry_intervals("MEEPLE_WEBHOOK_RETRY", "5,30,120,600,3600")
    for hook in Webhooks(store).of(player_id):
        job_id = f"notify-{hook.id}-{game_id}-{key}"
        if not Job.exists(job_id, connection=queues):  # its attempts are logged in the player's deliveries
            queue.enqueue(deliver, player_id, hook.id, notification, job_id=job_id, job_timeout=TIMEOUT_SECONDS * 3,
                          retry=Retry(max=len(intervals), interval=intervals),
                          result_ttl=DONE_SECONDS, failure_ttl=DONE_SECONDS)
    mail_notification(store, queues, player_id, notification)
    store.set(marker, 1, ex=KEEP_SECONDS)


def deliver(player_id: str, webhook_id: str, notification: dict[str, Any]) -> int:
    """POST one notification to one webhook; raising makes RQ retry it later."""
    webhooks = Webhooks(job_executor().store.redis)
    hook = next((hook for hook in webhooks.of(player_id) if hook.id == webhook_id), None)
    if hook is None:
        return 0  # removed since
    body = json.dumps(_body(hook, player_id, notification), separators=(",", ":")).encode()
    timestamp = int(time.time())
    headers = {"Content-Type": "application/json", "Meeple-Delivery": notification["id"],
               "Meeple-Signature": f"t={timestamp},v1={sign(hook.secret, timestamp, body)}"}
    attempt: dict[str, Any] = {"delivery": notification["id"], "webhook": hook.id, "kind": notification["kind"],
                               "game_id": notification["game_id"], "at": int(time.time() * 1000)}
    try:
        response = egress.post(hook.url, body, headers, TIMEOUT_SECONDS)
    except errors.AddressRefused:  # not retried, and which addresses the name has is not told
        webhooks.log(player_id, attempt | {"status": None, "error": "address_refused"})
        return 0
    except errors.UrlInvalid:  # registered before URLs were read as strictly as they are now; not retried
        webhooks.log(player_id, attempt | {"status": None, "error": "invalid_url"})
        return 0
    except requests.RequestException as error:  # its text names the URL, whose query may hold a token: not kept
        webhooks.log(player_id, attempt | {"status": None, "error": type(error).__name__})
        raise DeliveryFailed(hook.id, notification["id"], attempt_number(), None, type(error).__name__) from None
    ok = 200 <= response.status_code < 300
    webhooks.log(player_id, attempt | {"status": response.status_code, "error": None if ok else "status"})
    if not ok:
        raise DeliveryFailed(hook.id, notification["id"], attempt_number(), response.status_code, "status")
    return response.status_code


def _body(hook: Webhook, player_id: str, notification: dict[str, Any]) -> dict[str, Any]:
    """What the webhook is sent: the notification itself, or a line for a chat's incoming webhook."""
    if hook.form == "meeple":
        return notification
    player = PlayerStore(job_executor().store.redis).get(player_id)
    return chat_lines.body(hook.form, notification, player.name if player else "someone", Config.from_env().public_url)
