"""The application's own errors: an operation refused, with a stable snake_case code and a
sentence for people, of a kind the API answers with its own status (service.errors)."""

from __future__ import annotations

from typing import Any

from domain.core.errors import MeepleError


class ApplicationError(MeepleError):
    """An operation the application refuses on purpose, as opposed to a bug: its `code`, a
    `detail` for people and what else the refusal names (`extra`: field errors, a version, a limit)."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code, self.detail, self.extra = code, detail, extra


class Invalid(ApplicationError):
    """What was asked cannot be done as asked: a player who is not registered, a version inside a
    move, a log the rules would not have written."""


class Forbidden(ApplicationError):
    """The caller may not do this here: a room or notes not theirs."""


class NotFound(ApplicationError):
    """What was named is not there for the caller: a message, a report."""


class NotReached(ApplicationError):
    """The game has not reached the version asked for."""


class NotNow(ApplicationError):
    """The game is not at the point of its life the operation needs: not over, not started, or
    cancelled."""


class TooLong(ApplicationError):
    """A log of more events than the server imports."""


class Unavailable(ApplicationError):
    """What was asked could not be done now, for reasons of the server's: an import whose events
    were not all kept until they were published. Nothing was stored; it may be asked again."""


class Unreadable(ApplicationError):
    """A log that is not text."""
