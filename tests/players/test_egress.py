"""Webhook requests reach public addresses only, unless the server allows private ones."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from players import egress


class Redirecting(BaseHTTPRequestHandler):
    paths: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        self.rfile.read(int(self.headers["Content-Length"]))
        self.paths.append(self.path)
        self.send_response(307 if self.path == "/moved" else 204)
        self.send_header("Location", "/elsewhere")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def local() -> Iterator[int]:
    Redirecting.paths = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirecting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()


@pytest.mark.parametrize(("address", "public"), [
    ("93.184.215.14", True), ("2606:2800:21f:cb07:6820:80da:af6b:8b2c", True),
    ("127.0.0.1", False), ("10.1.2.3", False), ("172.16.0.1", False), ("192.168.1.1", False),
    ("169.254.169.254", False), ("100.64.0.1", False), ("0.0.0.0", False), ("224.0.0.1", False),
    ("::1", False), ("fe80::1%eth0", False), ("fd00::1", False), ("::ffff:127.0.0.1", False), ("::ffff:10.0.0.1", False),
])
def test_which_addresses_are_public(address: str, public: bool) -> None:
    assert egress.is_public(address) is public


def test_a_literal_private_address_is_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    assert egress.refused_literal("127.0.0.1") and egress.refused_literal("[::1]")
    assert not egress.refused_literal("93.184.215.14") and not egress.refused_literal("localhost")  # a name: later
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert not egress.refused_literal("127.0.0.1")


def test_a_private_receiver_is_reached_only_when_allowed(local: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    for host in ("127.0.0.1", "localhost"):
        with pytest.raises(egress.AddressRefused):
            egress.post(f"http://{host}:{local}/hook", b"{}", {}, 2)
    assert Redirecting.paths == []
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert egress.post(f"http://localhost:{local}/hook", b"{}", {}, 2).status_code == 204
    assert Redirecting.paths == ["/hook"]


def test_redirects_are_not_followed(local: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert egress.post(f"http://127.0.0.1:{local}/moved", b"{}", {}, 2).status_code == 307
    assert Redirecting.paths == ["/moved"]


def test_the_connection_goes_to_the_public_address_that_was_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name with a private and a public address is reached at the public one, resolved once."""
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    lookups: list[str] = []
    connected: list[tuple[str, int]] = []

    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        lookups.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in ("10.0.0.7", "93.184.215.14")]

    def create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
        connected.append(address)
        raise ConnectionRefusedError("not in a test")

    monkeypatch.setattr(egress.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(egress.connection, "create_connection", create_connection)
    with pytest.raises(requests.ConnectionError):
        egress.post("http://hooks.example:8080/x", b"{}", {}, 2)
    assert lookups == ["hooks.example"] and connected == [("93.184.215.14", 8080)]
