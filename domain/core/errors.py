"""The domain's own errors: a refused command, refused options, an event the codec cannot read."""

from __future__ import annotations

from collections.abc import Mapping


class MeepleError(Exception):
    """The base of every error Meeple raises on purpose, as opposed to a bug; each layer derives its own."""


class DomainError(MeepleError):
    """An error the domain raises on purpose, as opposed to a bug."""


class RuleViolation(DomainError):
    """A command the rules refuse, with a stable snake_case reason and a sentence for people."""

    def __init__(self, reason: str, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.index = index

    def at(self, index: int) -> RuleViolation:
        """The same violation, pinned to the position of a card in a batch."""
        return RuleViolation(self.reason, self.message, index)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, RuleViolation)
            and (self.reason, self.message, self.index) == (other.reason, other.message, other.index)
        )

    def __hash__(self) -> int:
        return hash((self.reason, self.message, self.index))

    def __repr__(self) -> str:
        where = "" if self.index is None else f", index={self.index}"
        return f"RuleViolation({self.reason!r}, {self.message!r}{where})"


class OptionsInvalid(DomainError):
    """Options that name unknown variants or values out of range; `errors` maps name → problem."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(f"{name}: {problem}" for name, problem in errors.items()))
        self.errors = dict(errors)


class ChanceNotRecorded(DomainError):
    """A decision asked chance for what the log it is checked against did not record."""


class UnknownEvent(DomainError):
    """A stored event whose wire name or schema version this server does not know."""


class PayloadInvalid(UnknownEvent):
    """A payload that is not of its event's type, naming the value at fault by its `path`."""

    def __init__(self, says: str, *path: str) -> None:
        super().__init__(says)
        self.says = says  # "must be a string, not 3", "is missing" …
        self.path = list(path)  # ".to", "[0]", ".moves": innermost first; each reader the complaint rises through adds its part

    def __str__(self) -> str:
        where = "".join(reversed(self.path)).removeprefix(".") or "payload"
        return f"`{where}` {self.says}"
