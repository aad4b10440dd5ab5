"""Mail sent by real `meeple worker` processes to a real SMTP server (aiosmtpd, started here): queued
through the outbox, sent once however often it is asked for, retried while the server refuses, and
written to the data folder when no server is configured."""

from __future__ import annotations

import email
import email.policy
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from application.outbox import Mail, mail_address, mail_player, queue_mail
from events.execute import Executor
from players.accounts import PlayerStore
from players.mail import Mailboxes
from tests.conftest import Start
from tests.workers.conftest import wait_for
from tests.workers.smtp import SmtpServer

pytestmark = pytest.mark.redis


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[SmtpServer]:
    """A running SMTP server that the workers started after it send to, retrying each second."""
    server = SmtpServer()
    server.start()
    monkeypatch.setitem(os.environ, "MEEPLE_SMTP_URL", server.url)
    monkeypatch.setitem(os.environ, "MEEPLE_MAIL_RETRY", "1,1,1,1,1,1,1,1")
    monkeypatch.setitem(os.environ, "MEEPLE_PUBLIC_URL", "https://play.example")
    yield server
    server.stop()


def confirmed(executor: Executor, name: str) -> str:
    """A registered player with a confirmed address `<name>@example.org`; their id."""
    player = PlayerStore(executor.store.redis).register(name, name, f"{name}-token-0123456789")
    boxes = Mailboxes(executor.store.redis)
    assert boxes.confirm(boxes.ask_confirmation(player.id, f"{name}@example.org") or "") == player.id
    return player.id


def test_a_queued_mail_reaches_the_address_and_the_player_once(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    redis = executor.store.redis
    ann = confirmed(executor, "ann")
    start_worker()
    mail_address(redis, "new@example.org", "confirm_address", "confirm-1", name="ann", link="https://play.example/#c=1")
    for _ in range(3):  # asked for three times, sent once
        mail_player(redis, ann, "sign_in", "sign-in-1", link="https://play.example/sign-in#link=s")
    queue_mail(redis, Mail("sign_in", "sign-in-2", to_player="nobody", data={"link": "x"}))  # no such player: nothing
    assert wait_for(lambda: len(smtp.inbox.messages) >= 2, timeout=30)
    wait_for(lambda: len(smtp.inbox.messages) > 2, timeout=3)
    assert [m["Subject"] for m in smtp.inbox.to("new@example.org")] == ["Confirm your mail address for Meeple"]
    [sign_in] = smtp.inbox.to("ann@example.org")
    assert "https://play.example/sign-in#link=s" in sign_in.get_body(("plain",)).get_content()
    assert len(smtp.inbox.messages) == 2


def test_a_refused_connection_is_retried_until_the_server_is_back(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    ann = confirmed(executor, "ann")
    smtp.stop()
    start_worker()
    mail_player(executor.store.redis, ann, "sign_in", "sign-in-1", link="https://play.example/sign-in#link=s")
    assert not wait_for(lambda: len(smtp.inbox.messages) > 0, timeout=2.5)
    smtp.start()
    assert wait_for(lambda: len(smtp.inbox.messages) == 1, timeout=30)
    assert not wait_for(lambda: len(smtp.inbox.messages) > 1, timeout=2)


def test_without_smtp_mail_is_written_to_the_data_folder(
    executor: Executor, start_worker: Start, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_SMTP_URL", raising=False)
    monkeypatch.setitem(os.environ, "MEEPLE_DATA_DIR", str(tmp_path / "data"))
    ann = confirmed(executor, "ann")
    start_worker()
    mail_player(executor.store.redis, ann, "sign_in", "sign-in-1", link="http://127.0.0.1:8000/sign-in#link=s")
    folder = tmp_path / "data" / "mail"
    assert wait_for(lambda: folder.is_dir() and any(folder.glob("*.eml")), timeout=30)
    [written] = folder.glob("*.eml")
    message = email.message_from_bytes(written.read_bytes(), policy=email.policy.default)
    assert message["To"] == "ann@example.org" and message["Subject"] == "Sign in to Meeple"
