"""Every error becomes an `application/problem+json` answer (RFC 9457) with a stable `code`."""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from typing import Any

from flask import Response, g, has_request_context
from gunicorn.http.errors import ParseException
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from application.errors import (
    ApplicationError,
    Forbidden,
    Invalid,
    NotFound,
    NotNow,
    NotReached,
    TooLong,
    Unavailable,
    Unreadable,
)
from domain.core.errors import MeepleError, OptionsInvalid, RuleViolation
from events.errors import (
    GameNotFound,
    IdempotencyKeyReused,
    NotReplicated,
    SeatNotLeft,
    SeatReserved,
    SeatUnavailable,
    VersionConflict,
)
from events.slots import AWAY
from service.problems import http_code, problem_body

log = logging.getLogger("meeple")
# the status of each kind of the application's refusals (a kind of one of them answers as it does)
APPLICATION_STATUS = {Unreadable: 400, Forbidden: 403, NotFound: 404, NotReached: 404, NotNow: 409, TooLong: 413, Invalid: 422,
                      Unavailable: 503, ApplicationError: 422}


class ApiError(MeepleError):
    """An error the API raises itself, with its status and code."""

    def __init__(self, status: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


class StaleIfMatch(ApiError):
    """`If-Match` named a version the game has moved past."""

    def __init__(self, conflict: VersionConflict) -> None:
        super().__init__(412, "version_conflict", str(conflict), current=conflict.actual)


def problem(status: int, code: str, detail: str, **extra: Any) -> Response:
    if has_request_context():
        g.problem_code = code  # for the request's log line and metrics
    return Response(json.dumps(problem_body(status, code, detail, **extra)), status, mimetype="application/problem+json")


def challenge(reason: str | None) -> str:
    """A 401's `WWW-Authenticate` (RFC 6750 §3): a bearer token is wanted, and when one was sent
    but is malformed or unknown (or a stream ticket is not good), `invalid_token`."""
    if reason in (None, "token_missing"):
        return 'Bearer realm="meeple"'
    return f'Bearer realm="meeple", error="invalid_token", error_description="{reason}"'


def handle_error(error: Exception) -> Response:  # noqa: C901 - one case per kind of error
    """The one place that turns an exception into an HTTP answer."""
    match error:
        case ApiError():
            answer = problem(error.status, error.code, error.detail, **error.extra)
            if "retry_after" in error.extra:
                answer.headers["Retry-After"] = str(error.extra["retry_after"])
            if error.status == 401:
                answer.headers["WWW-Authenticate"] = challenge(error.extra.get("reason"))
            return answer
        case ApplicationError():
            status = next(APPLICATION_STATUS[kind] for kind in type(error).__mro__ if kind in APPLICATION_STATUS)
            return problem(status, error.code, error.detail, **error.extra)
        case ValidationError():
            return problem(422, "validation_error", "The request is not valid.", errors=error.messages)
        case OptionsInvalid():
            return problem(422, "validation_error", "Some options are not valid.", errors={"options": error.errors})
        case RuleViolation():
            code = "not_your_turn" if error.reason == "not_your_turn" else "illegal_move"
            extra = {} if error.index is None else {"index": error.index}
            return problem(409, code, error.message, reason=error.reason, **extra)
        case VersionConflict():
            return problem(409, "version_conflict", str(error), current=error.actual)
        case IdempotencyKeyReused():
            return problem(422, "idempotency_key_reused", str(error))
        case SeatReserved():
            return problem(403, "seat_reserved", str(error), reason=error.reason)
        case SeatUnavailable():
            return problem(409, "seat_unavailable", str(error), reason=error.reason)
        case SeatNotLeft():
            return problem(409, "cannot_leave", str(error), reason=error.reason)
        case GameNotFound():
            return problem(404, "game_not_found", str(error))
        case ParseException():  # gunicorn, reading a chunked body the API asked for, found it broken
            return problem(400, "bad_request", f"The request's body could not be read: {error}.")
        case NotReplicated():
            log.error("append unconfirmed: %s", error)
            return problem(503, "append_unconfirmed", str(error), version=error.version)
        case _ if isinstance(error, AWAY):  # away, or a cluster between a master's loss and its replica's promotion
            log.error("store unavailable: %s", error)
            return problem(503, "store_unavailable", "The game store cannot be reached; try again shortly.")
        case HTTPException():
            status = error.code or 500
            answer = problem(status, http_code(status), error.description or HTTPStatus(status).phrase)
            for name, value in error.get_headers():  # e.g. a 405's Allow
                if name.lower() != "content-type":
                    answer.headers[name] = value
            return answer
        case _:
            log.exception("unhandled error", extra={"request_id": g.get("request_id") if has_request_context() else None})
            return problem(500, "internal_error", "Something went wrong on our side.")
