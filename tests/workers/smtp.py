"""A real SMTP server for the mail tests (aiosmtpd), on a port of this machine, that keeps what it is sent."""

from __future__ import annotations

import email
import email.policy
import socket
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class Inbox:
    """The messages the server took, in order; aiosmtpd calls `handle_DATA` for each."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - the name aiosmtpd calls
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [message for message in self.messages if message["To"] == address]


class SmtpServer:
    """aiosmtpd on a fixed port, which can be stopped (connections are refused) and started again."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.inbox = Inbox()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?starttls=off"  # aiosmtpd here offers no STARTTLS: a relay on this machine

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
