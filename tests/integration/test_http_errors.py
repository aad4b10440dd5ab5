"""Errors over real HTTP are problem+json whatever layer finds them: the API, or gunicorn itself
before the API runs (a request it cannot read), and a chunked body is held to the same limit as
one that declares its length."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from http.client import HTTPResponse
from urllib.parse import urlsplit

import pytest
import requests

pytestmark = [pytest.mark.redis, pytest.mark.http]


def raw(server: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `request` as it is, bytes and all, and read the answer: its status, headers and body."""
    where = urlsplit(server)
    with socket.create_connection((where.hostname, where.port), timeout=10) as connection:
        connection.sendall(request)
        answer = HTTPResponse(connection)
        answer.begin()
        return answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read()


def problem(status: int, headers: dict[str, str], body: bytes) -> dict[str, object]:
    assert headers["content-type"] == "application/problem+json", body
    assert int(headers["content-length"]) == len(body)
    found: dict[str, object] = json.loads(body)
    assert found["status"] == status and isinstance(found["code"], str) and isinstance(found["detail"], str)
    return found


@pytest.fixture
def game(server: str) -> str:
    return requests.post(f"{server}/v1/games", json={"game": "taki", "seats": 2}, timeout=10).json()["id"]  # type: ignore[no-any-return]


def test_a_chunked_body_over_the_limit_is_refused_413_like_one_with_a_content_length(server: str, game: str) -> None:
    body = b'{"name": "' + b"x" * 1_000_000 + b'"}'
    declared = requests.post(f"{server}/v1/games/{game}/join", data=body, timeout=10,
                             headers={"Content-Type": "application/json"})

    def chunks() -> Iterator[bytes]:
        yield from (body[start:start + 16384] for start in range(0, len(body), 16384))

    chunked = requests.post(f"{server}/v1/games/{game}/join", data=chunks(), timeout=10,
                            headers={"Content-Type": "application/json"})
    assert chunked.request.headers["Transfer-Encoding"] == "chunked"
    for answer in (declared, chunked):
        assert answer.status_code == 413 and answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "request_entity_too_large"
    fits = requests.post(f"{server}/v1/games/{game}/join", data=iter([b'{"name": ', b'"ann"}']), timeout=10,
                         headers={"Content-Type": "application/json"})
    assert fits.status_code == 201


def test_a_control_character_in_a_header_is_answered_with_problem_json_not_gunicorns_html(server: str) -> None:
    status, headers, body = raw(server, b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Note: a\x01b\r\n\r\n")
    assert status == 400
    assert problem(400, headers, body)["code"] == "bad_request"


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX Bad: 1\r\n\r\n", 400),  # a space in a header's name
    (b"G\x01T /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", 400),  # a method that is no token
    (b"GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n", 400),
    (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"zz\r\n{}\r\n0\r\n\r\n", 400),  # a chunk's size that is no number
    (b"GET /v1/health HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(200)) + b"\r\n", 431),
    (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: teapot\r\n\r\n0\r\n\r\n", 501),
    (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n{}", 417),
])
def test_every_request_gunicorn_cannot_read_is_answered_with_problem_json(server: str, request_bytes: bytes, status: int) -> None:
    answered, headers, body = raw(server, request_bytes)
    assert answered == status, body
    problem(status, headers, body)
