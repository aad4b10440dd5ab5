"""Where mail leaves the workers: an SMTP server (MEEPLE_SMTP_URL), or, with none configured, a
`.eml` file per mail under `<data_dir>/mail`, which any mail program opens."""

from __future__ import annotations

import os
import smtplib
import ssl
import time
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from runtime.config import Config

TIMEOUT_SECONDS = 20


def mail_folder(config: Config) -> Path:
    """The folder mail is written to when no SMTP server is configured."""
    return Path(config.data_dir) / "mail"


def send(config: Config, message: EmailMessage) -> None:
    """Hand `message` to the SMTP server, or write it to the mail folder; raises OSError (smtplib's included) if refused."""
    if config.smtp_url is None:
        _write(mail_folder(config), message)
    else:
        _submit(config.smtp_url, message)


def _write(folder: Path, message: EmailMessage) -> None:
    """Write the message whole, then give it its name, so that a reader of the folder never sees half of one."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{time.time_ns()}-{os.getpid()}"
    partial = folder / f".{name}.tmp"
    partial.write_bytes(message.as_bytes())
    partial.rename(folder / f"{name}.eml")


def _submit(url: str, message: EmailMessage) -> None:
    """smtps:// speaks TLS from the start (port 465 unless named); smtp:// (587 unless named) turns to TLS
    with STARTTLS, and a server that offers none is refused the mail (it carries sign-in links), unless the
    URL ends `?starttls=off` (a relay on this machine, no password): then it goes in plain text."""
    parts = urlsplit(url)
    host, implicit = parts.hostname or "localhost", parts.scheme == "smtps"
    port = parts.port or (465 if implicit else 587)
    context = ssl.create_default_context()
    server = (smtplib.SMTP_SSL(host, port, timeout=TIMEOUT_SECONDS, context=context) if implicit
              else smtplib.SMTP(host, port, timeout=TIMEOUT_SECONDS))
    with server:
        server.ehlo()
        if not implicit and not plain_text(url):
            if not server.has_extn("starttls"):  # or one in the middle struck the offer
                raise smtplib.SMTPNotSupportedError(f"{host} offers no STARTTLS: mail is sent over TLS only")
            server.starttls(context=context)
            server.ehlo()
        if parts.username:
            server.login(unquote(parts.username), unquote(parts.password or ""))
        server.send_message(message)


def plain_text(url: str) -> bool:
    """Whether an smtp:// URL opts out of TLS: `?starttls=off`, for a relay on this machine."""
    return parse_qs(urlsplit(url).query).get("starttls") == ["off"]
