"""Where mail leaves the workers: over TLS only, unless the URL names a relay on this machine."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from runtime.config import Config
from runtime.mailer import send
from tests.workers.smtp import SmtpServer


class Recorded:
    """An authenticator that accepts anyone and keeps the passwords it was shown."""

    def __init__(self) -> None:
        self.shown: list[bytes] = []

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        self.shown.append(data.password)
        return AuthResult(success=True)


def message() -> EmailMessage:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "meeple@example.org", "ann@example.org", "Your move"
    mail.set_content("Your move in TAKI.")
    return mail


@pytest.fixture
def plain_server_offering_auth() -> Any:
    """A server that offers AUTH without STARTTLS, as one in the middle that struck the offer would."""
    server, recorded = SmtpServer(), Recorded()
    controller = Controller(server.inbox, hostname="127.0.0.1", port=server.port, authenticator=recorded,
                            auth_require_tls=False)
    controller.start()
    yield server, recorded
    controller.stop()


def test_a_password_is_never_sent_to_a_server_that_offers_no_starttls(plain_server_offering_auth: Any) -> None:
    server, recorded = plain_server_offering_auth
    config = Config(smtp_url=f"smtp://ann:secret@127.0.0.1:{server.port}")
    with pytest.raises(smtplib.SMTPNotSupportedError, match="STARTTLS"):
        send(config, message())
    assert recorded.shown == [] and server.inbox.messages == []


def test_without_a_user_mail_is_refused_to_a_server_that_offers_no_starttls(plain_server_offering_auth: Any) -> None:
    server, recorded = plain_server_offering_auth
    with pytest.raises(smtplib.SMTPNotSupportedError, match="STARTTLS"):
        send(Config(smtp_url=f"smtp://127.0.0.1:{server.port}"), message())
    assert server.inbox.messages == []


def test_a_relay_on_this_machine_takes_plain_text_when_the_url_says_so(plain_server_offering_auth: Any) -> None:
    server, recorded = plain_server_offering_auth
    send(Config(smtp_url=f"smtp://127.0.0.1:{server.port}?starttls=off"), message())
    assert [mail["Subject"] for mail in server.inbox.messages] == ["Your move"]


@pytest.mark.parametrize("url", ["smtp://ann:secret@relay?starttls=off", "smtps://relay?starttls=off",
                                 "smtp://relay?starttls=no", "smtp://relay?tls=off", "http://relay"])
def test_an_smtp_url_that_would_send_a_password_in_plain_text_or_is_misspelt_is_refused(url: str) -> None:
    with pytest.raises(ValueError, match="MEEPLE_SMTP_URL"):
        Config(smtp_url=url)


def test_with_no_smtp_configured_mail_is_a_file_in_the_data_folder(tmp_path: Any) -> None:
    send(Config(data_dir=str(tmp_path)), message())
    (written,) = (tmp_path / "mail").glob("*.eml")
    assert b"Subject: Your move" in written.read_bytes()

