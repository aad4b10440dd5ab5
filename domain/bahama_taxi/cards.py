"""The deck (§1.1): one card per area; with two decks (5–8 players) each card names its copy (`5D.1`)."""

from __future__ import annotations

from domain.bahama_taxi.board import Area

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "C", "D")

Card = str


def deck(copies: int) -> tuple[Card, ...]:
    """The canonical order: suits S H C D, ranks A to K; with two decks copy 1, then copy 2."""
    faces = [rank + suit for suit in SUITS for rank in RANKS]
    if copies == 1:
        return tuple(faces)
    return tuple(f"{face}.{copy}" for copy in range(1, copies + 1) for face in faces)


def contraband_deck() -> tuple[Card, ...]:
    """Bahama Contraband plays without the four 3s (§11.12)."""
    return tuple(card for card in deck(1) if not card.startswith("3"))


def area_of(card: Card) -> Area:
    return card.split(".", 1)[0]
