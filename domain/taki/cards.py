"""The 116-card TAKI deck (§1): colours, figures, card ids like `red.5.1`, short notation like `r5`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Color(StrEnum):
    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    YELLOW = "yellow"


class Figure(StrEnum):
    ONE = "1"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    STOP = "stop"
    PLUS2 = "plus2"
    CHANGE_DIRECTION = "change_direction"
    PLUS = "plus"
    TAKI = "taki"
    SUPER_TAKI = "super_taki"
    KING = "king"
    PLUS3 = "plus3"
    PLUS3_BREAKER = "plus3_breaker"
    CHANGE_COLOR = "change_color"


NUMBERS = (Figure.ONE, Figure.THREE, Figure.FOUR, Figure.FIVE, Figure.SIX, Figure.SEVEN, Figure.EIGHT, Figure.NINE)
COLORED_FIGURES = (*NUMBERS, Figure.STOP, Figure.PLUS2, Figure.CHANGE_DIRECTION, Figure.PLUS, Figure.TAKI)
COLORLESS_COPIES = {Figure.SUPER_TAKI: 2, Figure.KING: 2, Figure.PLUS3: 2, Figure.PLUS3_BREAKER: 2, Figure.CHANGE_COLOR: 4}

# §1.4: wild cards are playable without matching; transparent ones never become the leading card.
WILD = frozenset({Figure.CHANGE_COLOR, Figure.SUPER_TAKI, Figure.KING, Figure.PLUS3, Figure.PLUS3_BREAKER})
TRANSPARENT = frozenset({Figure.KING, Figure.PLUS3, Figure.PLUS3_BREAKER})

_SHORT_FIGURES = {Figure.STOP: "STOP", Figure.PLUS2: "+2", Figure.CHANGE_DIRECTION: "DIR", Figure.PLUS: "PLUS", Figure.TAKI: "TAKI"}
_SHORT_COLORLESS = {Figure.CHANGE_COLOR: "CC", Figure.SUPER_TAKI: "ST", Figure.KING: "K", Figure.PLUS3: "+3", Figure.PLUS3_BREAKER: "BRK"}


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: a figure, a colour or none, and which copy it is."""

    color: Color | None
    figure: Figure
    copy: int

    @property
    def id(self) -> str:
        """The card's id (§1.3), e.g. `red.5.1` or `none.king.2`."""
        return f"{self.color or 'none'}.{self.figure}.{self.copy}"

    @property
    def match_figure(self) -> Figure:
        """The figure used for matching: a SuperTaki is a TAKI (§1.4)."""
        return Figure.TAKI if self.figure is Figure.SUPER_TAKI else self.figure

    @property
    def is_wild(self) -> bool:
        return self.figure in WILD

    @property
    def is_transparent(self) -> bool:
        return self.figure in TRANSPARENT

    @property
    def is_taki(self) -> bool:
        """A TAKI or a SuperTaki: a card that opens a run and can never close one."""
        return self.match_figure is Figure.TAKI

    def code(self) -> str:
        """Short notation used by the spec: `r5`, `b+2`, `gSTOP`, `CC`, `K`, `BRK`."""
        if self.color is None:
            return _SHORT_COLORLESS[self.figure]
        return self.color.value[0] + _SHORT_FIGURES.get(self.figure, self.figure.value)

    def __str__(self) -> str:
        return self.id


def _build_deck() -> tuple[Card, ...]:
    """The canonical deck order of §1.3."""
    colored = [Card(color, figure, copy) for color in Color for figure in COLORED_FIGURES for copy in (1, 2)]
    colorless = [Card(None, figure, copy) for figure, copies in COLORLESS_COPIES.items() for copy in range(1, copies + 1)]
    return tuple(colored + colorless)


DECK = _build_deck()
BY_ID = {card.id: card for card in DECK}


def card(card_id: str) -> Card:
    """The card with this id; raises KeyError for an id that names no card."""
    return BY_ID[card_id]


def parse(code: str) -> tuple[Card, ...]:
    """Every copy of the card written in short notation (`r5` → red.5.1, red.5.2)."""
    matches = tuple(c for c in DECK if c.code() == code)
    if not matches:
        raise ValueError(f"{code!r} is not TAKI card notation")
    return matches
