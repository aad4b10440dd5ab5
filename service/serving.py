"""The gunicorn worker that serves the API: gunicorn's gevent worker, except that
- what gunicorn refuses before the API runs (a malformed request, a request line or header fields
  past their limits) is answered with problem+json rather than gunicorn's HTML page, with the
  status gunicorn chose;
- a connection whose client stopped taking an event stream is closed quietly, as one the client closed;
- a process holding clearly more connections than another leaves new ones to it (runtime.sharing);
- a process that stops exits without logging's noise (see `_quiet_exit`)."""

from __future__ import annotations

import functools
import json
import logging
import socket
from http import HTTPStatus
from typing import Any, cast

from gunicorn import util
from gunicorn.config import Config
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.http.message import Request
from gunicorn.workers import ggevent
from gunicorn.workers.ggevent import GeventWorker

from runtime.sharing import ConnectionCounts, SharingServer
from service.headers import EVERY_ANSWER
from service.problems import http_code, problem_body

CONNECTIONS = ConnectionCounts()  # made as gunicorn's master loads this module, before it forks the workers


class ApiWorker(GeventWorker):
    """Gunicorn's gevent worker, its own error answers problem+json, sharing the socket out by connections held."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # in the master, before it forks this worker's process
        self.slot: int | None = None
        if self.cfg.workers > 1:
            self.slot = CONNECTIONS.take()
            if self.slot is None:
                self.log.warning("every slot of the connections table is held: this process shares none")

    def init_process(self) -> None:
        if self.slot is not None:
            CONNECTIONS.start(self.slot)  # should it die before serving, its slot is free again
        super().init_process()

    def run(self) -> None:
        try:
            if self.slot is None:
                super().run()
                return
            # GeventWorker.run makes its servers from this name
            ggevent.StreamServer = functools.partial(SharingServer, table=CONNECTIONS, slot=self.slot)  # type: ignore[attr-defined]
            try:
                super().run()
            finally:
                CONNECTIONS.leave(self.slot)
        finally:
            _quiet_exit()

    def handle_request(self, listener_name: Any, req: Request, sock: socket.socket, addr: Any) -> bool:
        try:
            return super().handle_request(listener_name, req, sock, addr)
        except TimeoutError as error:  # the client took nothing of an event stream in time (service.api.streams)
            self.log.debug("Closing a connection whose client stopped reading: %s", addr)
            raise StopIteration from error  # which closes it, as gunicorn does once an answer says so

    def handle_error(self, req: Request | None, client: socket.socket, addr: Any, exc: BaseException) -> None:
        page = _Page(client)
        super().handle_error(req, cast(socket.socket, page), addr, exc)
        if page.status is None:  # gunicorn could not write its page either
            return
        answer = problem_answer(page.status, exc, self.cfg)
        try:
            util.write_nonblock(client, answer)
        except OSError:
            self.log.debug("Failed to send error message.")


def _quiet_exit() -> None:
    """Flush logging's handlers now and forget them, as the process's exit would: a handler collected
    while the interpreter is torn down otherwise takes logging's lock through gevent's thread module,
    already gone, and prints "Exception ignored in _removeHandlerRef … TypeError" (gevent #2148).
    The handlers still write what is logged after (gunicorn's "Worker exiting")."""
    logging.shutdown()
    logging._handlerList.clear()  # type: ignore[attr-defined]  # its weak references' callbacks do nothing once empty


def problem_answer(status: int, error: BaseException, cfg: Config) -> bytes:
    """A whole HTTP/1.1 answer, closing the connection, for a request gunicorn refused with `status`."""
    extra: dict[str, Any] = {}
    if status >= 500:
        code, detail = "internal_error", "Something went wrong on our side."
    elif isinstance(error, LimitRequestLine):
        code, extra = "uri_too_long", {"exceeded": "request_line_bytes", "limit": cfg.limit_request_line}
        detail = f"The request line is longer than {cfg.limit_request_line} bytes, as long as this server reads."
    elif isinstance(error, LimitRequestHeaders):
        exceeded, limit, detail = _header_limit(error, cfg)
        code, extra = "request_header_fields_too_large", {"exceeded": exceeded, "limit": limit}
    else:
        code, detail = http_code(status), f"The request could not be read: {error}"[:500]
    body = json.dumps(problem_body(status, code, detail, **extra)).encode()
    fields = {"Connection": "close", "Content-Type": "application/problem+json", "Content-Length": len(body)} | EVERY_ANSWER
    head = f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields.items())
    return (head + "\r\n").encode("latin-1") + body


def _header_limit(error: LimitRequestHeaders, cfg: Config) -> tuple[str, int, str]:
    """Which header limit the request passed (gunicorn's message tells), its size, and a sentence saying so."""
    fields, field_bytes = cfg.limit_request_fields, cfg.limit_request_field_size
    match error.msg:
        case "limit request headers fields":
            return "header_fields", fields, f"The request has more than {fields} header fields, as many as this server reads."
        case "limit request headers fields size":
            return "header_field_bytes", field_bytes, f"A header field is longer than {field_bytes} bytes, as long as this server reads."
        case _:  # "max buffer headers": the whole header, as gunicorn buffers it at most
            whole = fields * (field_bytes + 2) + 4
            return "header_bytes", whole, f"The request's header is longer than {whole} bytes, as long as this server reads."


class _Page:
    """The client's socket as gunicorn writes its HTML error page: keeps the page's status and sends nothing."""

    def __init__(self, client: socket.socket) -> None:
        self.client = client
        self.status: int | None = None

    def gettimeout(self) -> float:
        return 0.0  # already non-blocking, as far as gunicorn's writer asks

    def sendall(self, data: bytes) -> None:
        if self.status is None:
            self.status = int(data.split(b" ", 2)[1])  # HTTP/1.1 400 Bad Request

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)
