"""Sealed shuffles: secret orders committed to at once and shown only when the game is over."""

# The commitment is the SHA-256 of a random salt and the order; shown with its salt when the game
# is over, it lets anyone check that every card came from the order committed to before play.

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


def deal_in_turn(order: Sequence[str], sizes: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    """Hands of `sizes` taken off the top of `order`, seat by seat, each whole before the next."""
    starts = [sum(sizes[:seat]) for seat in range(len(sizes))]
    return tuple(tuple(order[start:start + size]) for start, size in zip(starts, sizes))


def fresh_deal(hands: Sequence[Sequence[str]], pile: Sequence[str],
               rng: Rng) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], str, str] | None:
    """A fork's fresh deal of the cards no seat may know: (order, hands, salt, commitment), or None."""
    # `hands` and `pile` shuffled into one order, sealed, and each seat dealt a hand of the size
    # it had, off the top in turn (the rest is the new pile); None with nothing hidden
    hidden = [card for hand in hands for card in hand] + list(pile)
    if not hidden:
        return None
    order = rng.shuffled(hidden)
    return order, deal_in_turn(order, [len(hand) for hand in hands]), *seal(order, rng)


def broken_redeal(hands: Sequence[Sequence[str]], pile: Sequence[str], order: Sequence[str],
                  dealt: Sequence[Sequence[str]], salt: str, committed: str) -> str | None:
    """What is wrong with a revealed redeal of `hands` and `pile` (as they were before it), or None."""
    if sorted(order) != sorted([card for hand in hands for card in hand] + list(pile)):
        return "the cards redealt are not those that were hidden"
    if [len(hand) for hand in dealt] != [len(hand) for hand in hands]:
        return "the hands redealt are not of the sizes they were"
    if problem := broken_seal(order, salt, committed):
        return problem
    for seat, (hand, expected) in enumerate(zip(dealt, deal_in_turn(order, [len(hand) for hand in hands]))):
        if problem := taken_in_order(hand, expected, f"seat {seat} was dealt"):
            return problem
    return None
