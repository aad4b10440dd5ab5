"""Meeple's log lines: JSON objects on stderr, one per line, for every process alike."""

from __future__ import annotations

import logging
import sys

from pythonjsonlogger.json import JsonFormatter

log = logging.getLogger("meeple")


def json_logs() -> None:
    """Meeple's log lines as JSON objects on stderr, one per line (set up once per process)."""
    if not any(getattr(handler, "meeple", False) for handler in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter("{asctime}{levelname}{name}{message}", style="{",
                                           rename_fields={"asctime": "time", "levelname": "level"}))
        handler.meeple = True  # type: ignore[attr-defined]
        log.addHandler(handler)
        log.propagate = False
    log.setLevel(logging.INFO)
