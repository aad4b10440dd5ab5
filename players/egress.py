"""Requests to players' webhooks, which reach public addresses only: a webhook may not make the
server call itself, its store or anything else on its private network (`MEEPLE_WEBHOOK_PRIVATE=allow`
lifts the rule, for receivers on the server's own machine or network).

A URL is read once, here, the way the HTTP client and the resolver read it; the registration and
every delivery check it, and a delivery connects to an address it checked, so a name that resolves
elsewhere a moment later changes nothing."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import idna
import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util import connection

from players.errors import AddressRefused, UrlInvalid

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

SCHEMES = {"http": 80, "https": 443}
_NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")  # a label that makes its host an IPv4 address, when it is the last
_HEX, _OCTAL, _DECIMAL = re.compile(r"0x[0-9a-f]*"), re.compile(r"0[0-7]+"), re.compile(r"0|[1-9][0-9]*")
_LABEL = re.compile(r"[a-z0-9_-]{1,63}")
_PORT = re.compile(r"[0-9]{1,5}")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the last 32 bits
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: a network's own translators
_SIIT = ipaddress.IPv6Network("::ffff:0:0:0/96")  # RFC 2765: IPv4-translated
_COMPATIBLE = ipaddress.IPv6Network("::/96")  # RFC 4291 §2.5.5.1: IPv4-compatible, deprecated


# the registrations' lookups, at most this many at once: a resolver that does not answer holds up
# a few threads, never the requests that wait for it (see `resolves_privately`)
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-lookup")


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a webhook URL leads: scheme, host as resolved (an ASCII name or an address), port, and address if any."""

    scheme: str
    host: str
    port: int
    address: Address | None


def private_allowed() -> bool:
    return os.environ.get("MEEPLE_WEBHOOK_PRIVATE", "refuse") == "allow"


def is_public(address: str | Address) -> bool:
    """Whether a webhook may reach `address`: globally routed unicast, and no IPv6 form of an IPv4 one that is not."""
    ip = ipaddress.ip_address(address.split("%", 1)[0]) if isinstance(address, str) else address  # a zone may follow
    if isinstance(ip, ipaddress.IPv6Address):
        if (carried := _carried_ipv4(ip)) is not None:
            return is_public(carried)
        if ip in _LOCAL_NAT64 or ip.is_site_local:
            return False
    return ip.is_global and not (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved
                                 or ip.is_multicast or ip.is_unspecified)


def _carried_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for, where its form says it carries one."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64 or ip in _SIIT or ip in _COMPATIBLE:
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return None


def destination(url: str) -> Destination:
    """Where `url` leads, read as the HTTP client and the resolver would; raises UrlInvalid."""
    if any(char.isspace() or not char.isprintable() or char == "\\" for char in url):
        raise UrlInvalid("it holds a space, a control character or a backslash")
    try:
        parts = urlsplit(url)
    except ValueError:  # urlsplit checks only the brackets
        raise UrlInvalid("its host in brackets is not an IPv6 address") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise UrlInvalid("it must start with http:// or https://")
    host, port = _host_and_port(parts.netloc.rpartition("@")[2])
    if host.startswith("["):
        address: Address | None = _ipv6(host[1:-1])
        return Destination(scheme, str(address), port or SCHEMES[scheme], address)
    host = _ascii(host)
    address = _ipv4(host)
    if address is None and not all(_LABEL.fullmatch(label) for label in host.removesuffix(".").split(".")):
        raise UrlInvalid(f"{host!r} is neither a host name nor an address")
    return Destination(scheme, host if address is None else str(address), port or SCHEMES[scheme], address)


def refused(found: Destination) -> bool:
    """Whether the URL's host is an address a webhook may not reach; a name is judged when it is resolved."""
    return found.address is not None and not private_allowed() and not is_public(found.address)


def check(url: str) -> Destination:
    """Where `url` leads, if a webhook may go there; raises UrlInvalid, or AddressRefused."""
    found = destination(url)
    if refused(found):
        raise AddressRefused(f"{found.address} is not a public address")
    return found


def resolves_privately(found: Destination, seconds: float) -> bool:
    """Whether the URL's host name resolves, within `seconds`, to no public address (and private ones are refused).

    A name that does not resolve in time, or at all, is not refused: each delivery judges it then."""
    if found.address is not None or private_allowed():
        return False
    lookup = _LOOKUPS.submit(_addresses, found.host, found.port)
    try:
        addresses = lookup.result(timeout=seconds)
    except TimeoutError:
        lookup.cancel()  # still waiting for a thread: never looked up; one under way ends in its own time
        return False
    except OSError:  # no such name, or no resolver
        return False
    return not any(is_public(address) for address in addresses)


def _host_and_port(authority: str) -> tuple[str, int | None]:
    """The host (an IPv6 address still in brackets) and the port, if given, of `authority`."""
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise UrlInvalid("an IPv6 address opened with [ is not closed")
        host, rest = authority[:end + 1], authority[end + 1:]
        if rest and not rest.startswith(":"):
            raise UrlInvalid("only a port may follow an IPv6 address")
        port = rest[1:] if rest else ""
    else:
        host, _, port = authority.partition(":")
        if "[" in host or "]" in host:
            raise UrlInvalid("a bracket belongs around an IPv6 address only")
    if not host or host == "[]":
        raise UrlInvalid("it names no host")
    if not port:
        return host, None
    if not _PORT.fullmatch(port) or not 1 <= int(port) <= 65535:
        raise UrlInvalid(f"the port must be a number from 1 to 65535, not {port!r}")
    return host, int(port)


def _ipv6(text: str) -> ipaddress.IPv6Address:
    """The IPv6 address written between brackets (a zone, `%25eth0`, may follow it)."""
    try:
        return ipaddress.IPv6Address(text.split("%", 1)[0])
    except ValueError:
        raise UrlInvalid(f"[{text}] is not an IPv6 address") from None


def _ascii(host: str) -> str:
    """The host as the client sends it to the resolver: lower case, or IDNA-encoded if it is not ASCII."""
    if host.isascii():
        return host.lower()
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as error:
        raise UrlInvalid(f"{host!r} is not a valid international host name: {error}") from None


def _ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address a host ending in a number names, in any form inet_aton reads (`127.1`); None for a name."""
    labels = host.removesuffix(".").split(".")
    if not _NUMBER.fullmatch(labels[-1]):
        return None
    try:
        parts = [_number(label) for label in labels]
    except ValueError:
        raise UrlInvalid(f"{host!r} ends in a number but is not an IPv4 address") from None
    *leading, last = parts
    if len(parts) > 4 or any(part > 255 for part in leading) or last >= 256 ** (5 - len(parts)):
        raise UrlInvalid(f"{host!r} ends in a number but is not an IPv4 address")
    return ipaddress.IPv4Address(sum(part << 8 * (3 - index) for index, part in enumerate(leading)) + last)


def _number(label: str) -> int:
    """One part of an IPv4 address as inet_aton reads it (hex after 0x, octal after 0, else decimal); or ValueError."""
    if _HEX.fullmatch(label):
        return int(label[2:] or "0", 16)
    if _OCTAL.fullmatch(label):
        return int(label, 8)
    if _DECIMAL.fullmatch(label):
        return int(label)
    raise ValueError(label)


def post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> requests.Response:
    """POST `body` to `url`, following no redirect; raises UrlInvalid, AddressRefused or requests' errors."""
    check(url)
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the address checked is the one reached
        if not private_allowed():
            session.mount("http://", _PublicOnly())
            session.mount("https://", _PublicOnly())
        return session.post(url, data=body, headers=headers, timeout=timeout, allow_redirects=False)


def _addresses(host: str, port: int) -> list[str]:
    """Every address `host` resolves to now."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]


def _public_address(host: str, port: int) -> str:
    public = [address for address in _addresses(host, port) if is_public(address)]
    if not public:
        raise AddressRefused(f"{host} resolves to no public address")
    return public[0]


class _ToPublicAddress:
    """A connection to a checked public address of its host; an HTTPS one still checks the host name's certificate."""

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
