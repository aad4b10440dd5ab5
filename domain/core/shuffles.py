"""Sealed shuffles: each secret order is published at once as a commitment - the SHA-256 of a
random salt and the order - and shown with its salt only when the game is over, so that anyone
can check that every card came from the order the game committed to before play."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from domain.core.rng import Rng


def commitment(order: Sequence[str], salt: str) -> str:
    """The hex SHA-256 of `salt`, a colon, then the card ids in order, comma-separated."""
    return hashlib.sha256(f"{salt}:{','.join(order)}".encode()).hexdigest()


def seal(order: Sequence[str], rng: Rng) -> tuple[str, str]:
    """A fresh salt for `order`, and the commitment to it: (salt, commitment)."""
    salt = rng.salt()
    return salt, commitment(order, salt)


def broken_seal(order: Sequence[str], salt: str, committed: str) -> str | None:
    """What is wrong with a revealed shuffle, or None when its order is the one committed to."""
    if not committed:
        return "the shuffle was not committed to"
    if commitment(order, salt) != committed:
        return "the order and salt do not match the commitment"
    return None


def taken_in_order(taken: Sequence[str], expected: Sequence[str], what: str) -> str | None:
    """A complaint when cards that must come off the pile in `expected` order do not."""
    if tuple(taken) != tuple(expected):
        return f"{what} {', '.join(taken) or 'nothing'} where the committed order gives {', '.join(expected) or 'nothing'}"
    return None
