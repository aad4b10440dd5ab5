"""Request bodies are held to the request's `max_content_length` (MEEPLE_MAX_BODY_BYTES, or an
endpoint's own) whether they declare their length or come chunked without one: a body over it is
refused with 413, never cut short at it and then read as something else."""

from __future__ import annotations

from typing import IO, cast

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream


class CappedRequest(Request):
    """Flask's request, whose body without a Content-Length is read up to one byte past the cap."""

    @cached_property
    def stream(self) -> IO[bytes]:
        cap = self.max_content_length
        # the server ends such a stream itself (gunicorn does, for chunked bodies); werkzeug would
        # stop reading it at the cap and hand on what it read as if it were the whole body
        if self.content_length is None and cap is not None and self.environ.get("wsgi.input_terminated"):
            return cast(IO[bytes], _Capped(self.environ["wsgi.input"], cap))
        return super().stream


class _Capped(LimitedStream):
    """A stream that raises RequestEntityTooLarge once more than `cap` bytes were read from it."""

    def __init__(self, stream: IO[bytes], cap: int) -> None:
        super().__init__(stream, cap + 1, is_max=True)
        self.cap = cap

    def readinto(self, buffer: bytearray) -> int | None:  # type: ignore[override]
        read = super().readinto(buffer)
        if self.tell() > self.cap:
            raise RequestEntityTooLarge()
        return read
