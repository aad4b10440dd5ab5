"""Cross-origin requests from web pages. Only the origins MEEPLE_CORS_ORIGINS names (none by
default; `*` for any) may read the API's answers from a browser; their preflights are answered
with the methods and headers the API uses. Tokens travel in `Authorization`, never in cookies,
so no answer allows credentials."""

from __future__ import annotations

from flask import Flask, Response, request

# what a page may send beside the headers every browser may (Accept, Content-Language, ...)
ALLOW_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, X-Request-Id"
# what a page may read beside the safelisted headers (Content-Type, Cache-Control, ...)
EXPOSE_HEADERS = ("ETag, Location, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, Idempotent-Replayed, "
                  "WWW-Authenticate")
MAX_AGE = 600  # seconds a browser may keep a preflight's answer (Chromium keeps it at most 7200)


def is_preflight() -> bool:
    """Whether the request is a browser asking whether it may send a cross-origin request."""
    return request.method == "OPTIONS" and "Origin" in request.headers and "Access-Control-Request-Method" in request.headers


def install(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer the pages of `origins` (every page with `*`) as CORS asks, and no others."""
    anyone, allowed = "*" in origins, frozenset(origins)

    @app.after_request
    def share(response: Response) -> Response:
        if allowed and not anyone:
            response.vary.add("Origin")  # the answer names the origin that asked, so caches keep one per origin
        origin = request.headers.get("Origin")
        if origin is None or not (anyone or origin.lower() in allowed):
            return response  # without Access-Control-Allow-Origin the browser keeps the answer from the page
        if is_preflight() and response.status_code == 200:  # Flask's own answer to OPTIONS for a route that exists
            preflight = Response(status=204, headers={
                "Access-Control-Allow-Methods": ", ".join(m for m in response.allow if m not in ("HEAD", "OPTIONS")),
                "Access-Control-Allow-Headers": ALLOW_HEADERS,
                "Access-Control-Max-Age": str(MAX_AGE),
                "Allow": response.headers.get("Allow", ""),
            })
            preflight.vary.update(response.vary)
            del preflight.headers["Content-Type"]  # it has no body
            response = preflight
        else:
            response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        response.headers["Access-Control-Allow-Origin"] = "*" if anyone else origin
        return response
