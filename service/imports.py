"""Reading and checking a log sent to POST /v1/games/import, off the server's event loop, and
whether it is the log of a private game.

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

from events import keys
from events.envelope import GameNotFound
from events.log_file import GameLog, LogInvalid, LogTooLong, read_log
from events.store import EventStore
from service.errors import ApiError

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


def checked_log(body: bytes, max_events: int) -> GameLog:
    """The finished game an imported log holds, checked as strictly as a live game; raises
    ApiError naming the first event the rules would not have written, and why."""
    try:
        log = read_log(body.decode("utf-8").splitlines(), max_events=max_events, first_problem=True)
    except UnicodeDecodeError:
        raise ApiError(400, "invalid_log", "The log is not UTF-8 text.") from None
    except LogTooLong as problem:
        raise ApiError(413, "log_too_long", str(problem), limit=max_events) from None
    except LogInvalid as problem:
        raise ApiError(422, "invalid_log", str(problem)) from None
    if log.problems:
        raise ApiError(422, "invalid_log", log.first_problem() or "", event=log.problems[0][0])
    if not log.game.status(log.state).finished:
        raise ApiError(422, "invalid_log", "Only the log of a finished game can be imported.")
    return log


def is_private(store: EventStore, log: GameLog) -> bool:
    """Whether an imported log is of a private game, so that its import is unlisted and names no
    origin: its header says the game was unlisted (the export of an unlisted game says so, and
    names no id), or it names a game of this server that is unlisted. A log naming a game this
    server does not know was listed where it was exported (that server's export names no
    unlisted game) or was written by someone who knows the id already."""
    if log.unlisted:
        return True
    if log.original_id is None or not keys.GAME_ID.match(log.original_id):
        return False
    try:
        return store.games.get(log.original_id).unlisted
    except GameNotFound:
        return False
