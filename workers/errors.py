"""The workers' own errors."""

from __future__ import annotations

from domain.core.errors import MeepleError


class WorkerError(MeepleError):
    """An error a job raises on purpose, as opposed to a bug: its worker logs it as one line, without a traceback."""

    def __init__(self, message: str, **fields: object) -> None:
        super().__init__(message)
        self.fields = fields  # what the log line carries beside the sentence


class DeliveryFailed(WorkerError):
    """A webhook that did not take a notification; raised so that RQ tries the delivery again."""

    def __init__(self, webhook: str, delivery: str, attempt: int, status: int | None, error: str) -> None:
        reason = f"answered {status}" if status is not None else error
        super().__init__(f"webhook {webhook} did not take delivery {delivery} (attempt {attempt}): {reason}",
                         webhook=webhook, delivery=delivery, attempt=attempt, status=status, error=error)


class MailFailed(WorkerError):
    """A mail the SMTP server did not take (or that another job is sending); raised so that RQ tries again."""

    def __init__(self, key: str, attempt: int, error: str) -> None:
        super().__init__(f"mail {key} not sent (attempt {attempt}): {error}", mail=key, attempt=attempt, error=error)
