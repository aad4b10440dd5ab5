"""Conditional reads. A game read carries the game's version as its ETag; a client sending it
back in `If-None-Match` is answered 304 Not Modified with no body while the game has not moved.
What a read shows depends on the caller's token (a seat sees its own hand), so every such answer
varies by `Authorization`."""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.http import unquote_etag


def install(app: Flask) -> None:
    @app.after_request
    def not_modified(response: Response) -> Response:
        tag = response.headers.get("ETag")
        if request.method not in ("GET", "HEAD") or response.status_code != 200 or tag is None:
            return response
        response.vary.add("Authorization")
        # the browser alone may keep it (it shows what the caller's token sees), and asks again each time
        response.headers.setdefault("Cache-Control", "private, no-cache")
        if request.if_none_match.contains_weak(unquote_etag(tag)[0] or ""):  # also `*`
            response.status_code = 304
            response.set_data(b"")
            for name in ("Content-Type", "Content-Length", "Content-Disposition"):
                response.headers.pop(name, None)
        return response
