"""The TAKI table (§4) and the read-only questions the rules ask of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.core.game import GameStatus, Seat
from domain.taki.cards import Card, Color
from domain.taki.options import Mode, TakiOptions


class Phase(StrEnum):
    NORMAL = "normal"
    IN_RUN = "in_run"
    PLUS_FOLLOW_UP = "plus_follow_up"
    KING_FOLLOW_UP = "king_follow_up"
    PLUS3_WINDOW = "plus3_window"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Run:
    """An open TAKI run: its colour and the seat that last added to it."""

    color: Color
    owner: Seat


@dataclass(frozen=True, slots=True)
class Plus3Window:
    """A +3 waiting for answers (§11.1)."""

    source: Seat
    awaiting: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Result:
    ranking: tuple[tuple[Seat, ...], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class TakiState:
    options: TakiOptions
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    active_color: Color | None = None
    direction: int = 1
    current: Seat = 0
    turn_no: int = 0
    phase: Phase = Phase.NORMAL
    plus2_stack: int = 0
    run: Run | None = None
    plus3: Plus3Window | None = None
    announced: tuple[bool, ...] = ()
    owed: tuple[int | None, ...] = ()  # per seat: the turn from which a missed "last card" is due
    dropped_to_one: bool = False  # the current player's latest hand change this turn was a play from 2 to 1
    announce_intent: bool = False  # a play this turn carried the "last card" flag
    stages: tuple[int, ...] = ()
    out: tuple[Seat, ...] = ()  # seats gone out, in order
    forfeited: tuple[Seat, ...] = ()  # seats that left the game, in order
    idle_turns: int = 0  # turns in a row ended by a draw that found no card
    result: Result | None = None

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def leading_card(self) -> Card:
        """The topmost card that is not transparent (§1.4)."""
        return next(card for card in reversed(self.discard) if not card.is_transparent)

    @property
    def is_tournament(self) -> bool:
        return self.options.mode is Mode.TOURNAMENT

    def is_active(self, seat: Seat) -> bool:
        """Still in the game: neither gone out nor forfeited."""
        return seat not in self.out and seat not in self.forfeited

    def active_seats(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in range(self.seats) if self.is_active(seat))

    def next_seat(self, seat: Seat, steps: int = 1) -> Seat:
        """The seat `steps` active seats after `seat` in the current direction (§2)."""
        for _ in range(steps):
            seat = (seat + self.direction) % self.seats
            while not self.is_active(seat):
                seat = (seat + self.direction) % self.seats
        return seat

    def in_turn_order(self, first: Seat) -> tuple[Seat, ...]:
        """Every active seat, starting at `first` and following the direction."""
        order = [first]
        while len(order) < len(self.active_seats()):
            order.append(self.next_seat(order[-1]))
        return tuple(order)

    def hand_ids(self, seat: Seat) -> tuple[str, ...]:
        return tuple(card.id for card in self.hands[seat])

    def find_in_hand(self, seat: Seat, card_id: str) -> Card | None:
        return next((card for card in self.hands[seat] if card.id == card_id), None)


def status(state: TakiState) -> GameStatus:
    """Who may act now; when finished, the ranking and why."""
    if state.result is not None:
        return GameStatus((), True, state.result.ranking, state.result.reason, tuple(len(h) for h in state.hands))
    if state.plus3 is not None:
        return GameStatus(state.plus3.awaiting, False)
    return GameStatus((state.current,), False)
