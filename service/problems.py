"""The body of every error the server gives (RFC 9457 problem details with a stable `code`),
whether the API answers it (service.errors) or gunicorn does before the API runs (service.serving).
It imports nothing of the API, so that gunicorn's master may load it before its workers fork."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"type": "about:blank", "title": HTTPStatus(status).phrase, "status": status,
            "code": code, "detail": detail, **extra}
