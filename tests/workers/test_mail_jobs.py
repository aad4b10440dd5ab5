"""What the workers queue for mail, looked at in the queue itself: whom an invitation goes to, and
that a held "your turn" is retried as a mail is; on fakeredis and a real server."""

from __future__ import annotations

import time

from rq import Queue

from application.outbox import Mail
from events import keys
from events.execute import Executor
from players.invitations import Invitations
from players.mail import Choice, Mailboxes
from tests.workers.test_mail import confirmed, correspondence_game
from workers.mail import mail_invitations, mail_notification


def queued(executor: Executor) -> list[tuple[str, Mail, int | None]]:
    """Each job on the notify queue: its function's name, its mail, and the attempts left after the first."""
    jobs = Queue(keys.NOTIFY_QUEUE, connection=executor.store.redis).get_jobs()
    return [(job.func_name.rsplit(".", 1)[1], Mail.loads(job.args[0]), job.retries_left) for job in jobs]


def test_a_rematch_mails_its_invitation_to_the_others_not_to_its_asker(executor: Executor) -> None:
    redis = executor.store.redis
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    executor.store.games.create("re", "taki", {}, 2, reserved={0: ann, 1: bo}, creator=ann)  # ann asks for a rematch
    Invitations(redis, 10).deliver("re", [ann, bo])
    mail_invitations(redis, redis, executor.store.games.get("re"))
    assert [(name, mail.to_player) for name, mail, _ in queued(executor)] == [("send_mail", bo)]


def test_a_held_your_turn_is_retried_as_a_mail_is(executor: Executor) -> None:
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    Mailboxes(executor.store.redis).choose(ann, {"your_turn": Choice.OFFLINE})
    correspondence_game(executor, "t", [ann, bo])
    mail_notification(executor.store.redis, executor.store.redis, ann, {
        "id": "n1", "kind": "your_turn", "game_id": "t", "game": "taki", "version": 1, "seat": 0,
        "deadline": int(time.time() * 1000) + 86_400_000})
    [(name, mail, retries)] = queued(executor)
    assert name == "mail_turn" and mail.kind == "your_turn" and retries == 5  # MEEPLE_MAIL_RETRY's five intervals
