"""What every answer tells the browser, whichever layer gives it (the API, the pages, the docs, or
gunicorn refusing a request it cannot read): never to guess another type than the one it is sent
as, and to send no referrer from it (a page's address names its game, which may be unlisted). An
API answer is kept by no cache (`no-store`): many hold a secret, a player's or a seat's token or a
link's code; a game read with its ETag says otherwise itself (service.conditional)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import request

if TYPE_CHECKING:
    from flask import Flask, Response

EVERY_ANSWER = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def install(app: Flask) -> None:
    @app.after_request
    def protect(response: Response) -> Response:
        response.headers.update(EVERY_ANSWER)
        if request.path.startswith("/v1/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response
