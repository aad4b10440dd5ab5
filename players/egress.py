"""Requests to players' webhooks, which reach public addresses only: a webhook may not make the
server call itself, its store or anything else on its private network. The host is resolved
once, each address checked, and the connection made to a checked address, so a name that
resolves elsewhere a moment later changes nothing. `MEEPLE_WEBHOOK_PRIVATE=allow` lifts the
rule, for receivers on the server's own machine or network."""

from __future__ import annotations

import ipaddress
import os
import socket
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util import connection


class AddressRefused(Exception):
    """The webhook's host is, or resolves only to, a private address."""


def private_allowed() -> bool:
    return os.environ.get("MEEPLE_WEBHOOK_PRIVATE", "refuse") == "allow"


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 address may name its interface
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def refused_literal(host: str) -> bool:
    """Whether `host` is an IP address that a webhook may not name."""
    try:
        return not private_allowed() and not is_public(host.strip("[]"))
    except ValueError:
        return False  # a name: checked when it is resolved


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> requests.Response:
    """POST `body` to `url`, following no redirect; raises AddressRefused or requests' errors."""
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the address checked is the one reached
        if not private_allowed():
            session.mount("http://", _PublicOnly())
            session.mount("https://", _PublicOnly())
        return session.post(url, data=body, headers=headers, timeout=timeout, allow_redirects=False)


def _public_address(host: str, port: int) -> str:
    addresses = [info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
    public = [address for address in addresses if is_public(str(address))]
    if not public:
        raise AddressRefused(f"{host} resolves to no public address")
    return str(public[0])


class _ToPublicAddress:
    """A connection made to a checked public address of its host (the certificate of an HTTPS
    one is still checked against the host's name)."""

    host: str
    port: int
    timeout: Any
    source_address: Any
    socket_options: Any

    def _new_conn(self) -> socket.socket:
        return connection.create_connection((_public_address(self.host, self.port), self.port), self.timeout,
                                            source_address=self.source_address, socket_options=self.socket_options)


class _PublicHTTPConnection(_ToPublicAddress, HTTPConnection):
    pass


class _PublicHTTPSConnection(_ToPublicAddress, HTTPSConnection):
    pass


class _PublicHTTPPool(HTTPConnectionPool):
    ConnectionCls = _PublicHTTPConnection


class _PublicHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _PublicHTTPSConnection


class _PublicOnly(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _PublicHTTPPool, "https": _PublicHTTPSPool}
