"""The workers' own errors."""

from __future__ import annotations

from domain.core.errors import MeepleError


class WorkerError(MeepleError):
    """An error a job raises on purpose, as opposed to a bug."""


class DeliveryFailed(WorkerError):
    """A webhook that did not take a notification; raised so that RQ tries the delivery again."""
