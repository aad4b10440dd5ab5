"""What operators see of each request: a request id echoed in the answer, a JSON log line, figures on `/metrics`."""

from __future__ import annotations

import re
import time
import uuid

import redis
from flask import Flask, Response, g, request

from events.store import EventStore
from runtime import metrics
from runtime.logs import log

REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def install(app: Flask, store: EventStore, queues: redis.Redis) -> None:
    @app.before_request
    def start() -> None:
        given = request.headers.get("X-Request-Id", "")
        g.request_id = given if REQUEST_ID.match(given) else uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        seconds = time.perf_counter() - g.get("started", time.perf_counter())
        request_id = g.get("request_id") or uuid.uuid4().hex
        response.headers["X-Request-Id"] = request_id
        route = request.url_rule.rule if request.url_rule else "unmatched"
        metrics.REQUEST_SECONDS.labels(request.method, route, str(response.status_code)).observe(seconds)
        if request.endpoint == "v1.submit_command":
            outcome = "accepted" if response.status_code == 201 else g.get("problem_code", str(response.status_code))
            metrics.COMMANDS_ANSWERED.labels(g.get("game", "unknown"), outcome).inc()
        log.info("request", extra={"request_id": request_id, "method": request.method, "path": request.path,
                                   "status": response.status_code, "ms": round(seconds * 1000, 2),
                                   "address": request.remote_addr, "problem": g.get("problem_code")})
        return response

    @app.get("/metrics", endpoint="metrics")
    def scrape() -> Response:
        return Response(metrics.exposition(store, queues), mimetype="text/plain; version=0.0.4")
