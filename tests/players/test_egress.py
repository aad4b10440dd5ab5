"""Webhook requests reach public addresses only, unless the server allows private ones."""

from __future__ import annotations

import ipaddress
import os
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from players import egress, errors


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
    ("255.255.255.255", False), ("240.0.0.1", False), ("192.0.2.1", False), ("::", False), ("fec0::1", False),
    ("64:ff9b::7f00:1", False), ("64:ff9b::5db8:d70e", True), ("64:ff9b:1::5db8:d70e", False),  # NAT64
    ("2002:7f00:1::", False), ("2002:a9fe:a9fe::1", False), ("2002:5db8:d70e::1", True),  # 6to4
    ("::7f00:1", False), ("::ffff:0:7f00:1", False), ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo
    ("2001:db8::1", False), ("100::1", False), ("ff02::1", False),
])
def test_which_addresses_are_public(address: str, public: bool) -> None:
    assert egress.is_public(address) is public


def test_a_literal_private_address_is_refused_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    for url in ("http://127.0.0.1/", "http://[::1]/", "http://2130706433/"):
        with pytest.raises(errors.AddressRefused):
            egress.check(url)
    assert egress.check("http://93.184.215.14/").address == ipaddress.ip_address("93.184.215.14")
    assert egress.check("http://localhost/").address is None  # a name: judged when it is resolved
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert egress.check("http://2130706433/").address == ipaddress.ip_address("127.0.0.1")
    with pytest.raises(errors.UrlInvalid):
        egress.check("http://[::1/")


@pytest.mark.parametrize(("url", "host", "port"), [
    ("http://2130706433/x", "127.0.0.1", 80), ("https://0x7F000001/", "127.0.0.1", 443),
    ("http://017700000001:8080/", "127.0.0.1", 8080), ("http://0/", "0.0.0.0", 80), ("http://127.1/", "127.0.0.1", 80),
    ("http://10.0x10.1/", "10.16.0.1", 80), ("http://0300.0250.1.1./", "192.168.1.1", 80), ("http://0x/", "0.0.0.0", 80),
    ("http://127\uff0e0\u30020\uff611/", "127.0.0.1", 80), ("http://[::FFFF:127.0.0.1]:1/", "::ffff:7f00:1", 1),
    ("http://u:p@[fe80::1%25eth0]/", "fe80::1", 80), ("HTTP://Hooks.Example.ORG./x", "hooks.example.org.", 80),
    ("https://b\u00fccher.example/", "xn--bcher-kva.example", 443), ("http://0x7f.example/", "0x7f.example", 80),
])
def test_a_url_is_read_as_the_client_and_the_resolver_read_it(url: str, host: str, port: int) -> None:
    found = egress.destination(url)
    assert (found.host, found.port) == (host, port)


@pytest.mark.parametrize("url", [
    "https://[::1", "http://[zz]/", "http://]/", "http://[]/", "http://[127.0.0.1]/", "http://[::1]x/", "http:///x",
    "http://a:0/", "http://a:65536/", "http://a:1_0/", "http://a:\u0663/", "ftp://a/", "a.example/x", "http://a b/",
    "http://a\tb/", "http://1.2.3.256/", "http://1.2.3.4.5/", "http://08/", "http://0x1_0.1/", "http://1..1/",
    "http://4294967296/", "http://*.example/", "http://.example/", "http://a\\@127.0.0.1/", "http://ex%41mple.org/",
    "http://xn--a.example\u200b/",
])
def test_a_malformed_url_is_invalid_never_an_unexpected_error(url: str) -> None:
    with pytest.raises(errors.UrlInvalid):
        egress.destination(url)


def test_a_private_receiver_is_reached_only_when_allowed(local: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    for host in ("127.0.0.1", "localhost", "2130706433", "0x7f.1", "127\uff0e0\uff0e0\uff0e1"):
        with pytest.raises(errors.AddressRefused):
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


def test_a_name_that_resolves_to_no_public_address_is_refused_before_any_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    assert egress.resolves_privately(egress.destination("http://localhost:1/x"), 2)
    answers = {"intranet.example": ["10.0.0.7", "fe80::1%eth0"], "mixed.example": ["10.0.0.7", "93.184.215.14"],
               "hooks.example": ["93.184.215.14"]}

    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in answers[host]]

    monkeypatch.setattr(egress.socket, "getaddrinfo", getaddrinfo)
    assert egress.resolves_privately(egress.destination("http://intranet.example/x"), 2)
    for url in ("http://mixed.example/x", "https://hooks.example/x", "http://unknown.example/x", "http://10.0.0.7/x"):
        assert not egress.resolves_privately(egress.destination(url), 2), url  # a literal address: `refused` says
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    assert not egress.resolves_privately(egress.destination("http://intranet.example/x"), 2)


def test_a_name_not_resolved_in_time_is_left_to_the_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resolver that does not answer holds up no registration: the delivery judges the name."""
    monkeypatch.delitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", raising=False)
    answered = threading.Event()

    def getaddrinfo(host: str, port: int, *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
        answered.wait(60)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]

    monkeypatch.setattr(egress.socket, "getaddrinfo", getaddrinfo)
    try:
        for _ in range(10):  # more than the lookups that run at once: the waiting ones are given up too
            assert not egress.resolves_privately(egress.destination("http://slow.example/x"), 0.05)
    finally:
        answered.set()
