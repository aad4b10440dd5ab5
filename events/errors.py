"""The event store's own errors, each a StoreError."""

from __future__ import annotations

from domain.core.errors import MeepleError


class StoreError(MeepleError):
    """An error the event store raises on purpose, as opposed to a bug."""


class GameNotFound(StoreError):
    """A game id the store holds no game for."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"No game {game_id!r}.")
        self.game_id = game_id


class NotPublished(StoreError):
    """An import's staged events could not be made its game's stream: they expired before all were
    written, or the game is not the new one at version 0 they were staged for; nothing was published."""


class VersionConflict(StoreError):
    """The stream has moved past the version the command expected; nothing was written."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"The game is at version {actual}, not {expected}.")
        self.expected = expected
        self.actual = actual


class IdempotencyKeyReused(StoreError):
    """An idempotency key sent again with a different command."""

    def __init__(self) -> None:
        super().__init__("This Idempotency-Key was already used for a different command.")


class SeatRefused(StoreError):
    """A change of seats the store refused: a machine-readable reason and a sentence."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class SeatUnavailable(SeatRefused):
    """A join that cannot be seated: the seat is taken, out of range, or the game is full."""


class SeatReserved(SeatRefused):
    """A join refused because the seat (or every free seat) is reserved for another player."""


class SeatNotLeft(SeatRefused):
    """A seat that cannot be given up: the game started, or the seat is free."""


class DeviceSignedOut(StoreError):
    """A seat's token given to a device whose player token has been revoked since: it acts for nothing."""

    def __init__(self, game_id: str, seat: int) -> None:
        super().__init__(f"The token of seat {seat} of game {game_id!r} was given to a device that has been signed out.")
        self.game_id, self.seat = game_id, seat


class NotReplicated(StoreError):
    """An append too few replicas acknowledged in time: it stands unless the master is lost first.
    A retry with the same idempotency key tells which."""

    def __init__(self, version: int, acknowledged: int, wanted: int) -> None:
        super().__init__(f"The move was written (version {version}) but only {acknowledged} of the {wanted} replicas "
                         "it must reach confirmed it in time; it may yet be lost. Read the game, or send the move "
                         "again with the same Idempotency-Key to learn whether it stands.")
        self.version = version


class GroupLost(StoreError):
    """The store no longer has the consumer group: it must be joined again."""


class LogInvalid(StoreError):
    """A log file that cannot be replayed, and why; `event`, the version of the line at fault, if one is."""

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.event = event


class LogTooLong(LogInvalid):
    """A log of more events than the reader takes."""


class RoomFull(StoreError):
    """A game's chat room holds as many messages as a room may."""

    def __init__(self, game_id: str, room: str) -> None:
        super().__init__(f"The {room} room of game {game_id!r} is full.")
        self.game_id = game_id
        self.room = room
