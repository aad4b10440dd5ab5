"""Rule violations: the one way the domain refuses a command."""

from __future__ import annotations


class RuleViolation(Exception):
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
