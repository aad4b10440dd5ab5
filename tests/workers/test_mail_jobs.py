"""What the workers queue for mail, looked at in the queue itself: whom an invitation goes to, that
a held "your turn" is retried as a mail is, and that a link's mail lives no longer than its link;
on fakeredis and a real server."""

from __future__ import annotations

import time

import pytest
from rq import Queue

from application.addresses import ask_confirmation
from application.outbox import Mail, expires_in
from events import keys
from events.execute import Executor
from players.accounts import PlayerStore
from players.invitations import Invitations
from players.mail import CONFIRM_SECONDS, Choice, Mailboxes
from players.sign_in import LINK_SECONDS
from tests.workers.test_mail import confirmed, correspondence_game
from workers import mail as mail_jobs
from workers.mail import enqueue, mail_invitations, mail_notification


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


def test_a_mail_whose_link_ended_is_dropped_and_one_that_ends_is_tried_while_it_works(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    redis = executor.store.redis
    ann = confirmed(executor, "ann")
    link = {"link": "https://play.example/sign-in#link=secret"}
    enqueue(redis, Mail("sign_in", "ended", to_player=ann, data=link | {"expires": expires_in(-1)}))
    assert queued(executor) == []  # not queued: no job holds its secret
    enqueue(redis, Mail("sign_in", "fresh", to_player=ann, data=link | {"expires": expires_in(LINK_SECONDS)}))
    [job] = Queue(keys.NOTIFY_QUEUE, connection=redis).get_jobs()
    assert job.retry_intervals == [10, 60, 300] and LINK_SECONDS - 5 < job.failure_ttl <= LINK_SECONDS  # within the link's 15 minutes
    monkeypatch.setattr(mail_jobs, "job_executor", lambda: executor)
    sent: list[object] = []
    monkeypatch.setattr(mail_jobs.mailer, "send", lambda config, message: sent.append(message))
    ended = Mail("sign_in", "late", to_player=ann, data=link | {"expires": expires_in(-1)})
    assert mail_jobs.send_mail(ended.dumps()) == "expired" and sent == []  # its retry came after the link ended
    assert mail_jobs.send_mail(job.args[0]) == "sent" and len(sent) == 1


def test_links_mailed_carry_when_they_end(executor: Executor) -> None:
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    ask_confirmation(redis, ann, "ann@example.org", "https://play.example")
    [confirmation] = [Mail.loads(raw) for raw in redis.lrange(keys.mail_outbox(), 0, -1)]
    assert confirmation.seconds_left() == pytest.approx(CONFIRM_SECONDS, abs=5)
