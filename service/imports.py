"""Reading a log sent to POST /v1/games/import, and checking it (application.copies.checked_log),
off the server's event loop.

A gevent worker serves all its requests from one OS thread, so a long check there would hold up
every other request of the process (a health check, an open stream) until it ends. The check
runs in gevent's pool of real threads instead: the request waits on it like on a socket, and
the loop keeps serving the others, taking the interpreter back every few milliseconds. Even
reading the body is done a piece at a time, letting the loop run between pieces: a socket whose
bytes have all arrived never makes a read wait, so 16 MB read at once would hold the loop too."""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, TypeVar

import gevent  # type: ignore[import-untyped]
from gevent import get_hub, monkey

T = TypeVar("T")


PIECE = 256 * 1024  # bytes read between two turns of the loop


def under_gevent() -> bool:
    return bool(monkey.is_module_patched("threading"))


def read_body(stream: IO[bytes]) -> bytes:
    """The whole of `stream`, read a piece at a time, letting the server's other requests run
    between pieces."""
    pieces = []
    while piece := stream.read(PIECE):
        pieces.append(piece)
        if under_gevent():
            gevent.sleep(0)
    return b"".join(pieces)


def off_the_loop(work: Callable[[], T]) -> T:
    """`work()`, run in a thread of gevent's pool when the server is gevent's (the loop serves
    other requests meanwhile), else at once."""
    if not under_gevent():
        return work()
    return get_hub().threadpool.apply(work)  # type: ignore[no-any-return]
