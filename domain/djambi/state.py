"""The Djambi board as play leaves it, and the read-only questions the rules ask of it."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.game import GameStatus, Seat
from domain.djambi.board import MAZE, Square
from domain.djambi.events import Outcome, TurnKind
from domain.djambi.options import DjambiOptions
from domain.djambi.pieces import COLORS, SLOTS, Color, Kind, Piece, army_of, kind_of


@dataclass(frozen=True, slots=True)
class Result:
    result: Outcome
    winners: tuple[Seat, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class DjambiState:
    options: DjambiOptions
    seats: int
    players: tuple[Color, ...]  # the colour each seat plays
    board: tuple[Piece | None, ...]  # what stands on each of the 81 squares
    where: tuple[Square | None, ...]  # the square of each of the 36 pieces (None: not in play)
    alive: tuple[bool, ...]
    controllers: tuple[Seat | None, ...]  # per army, in colour order; None: hostage or orphaned
    hostage: Color | None  # the army nobody plays (§14), until its chief is killed
    remaining: tuple[Seat, ...]  # players still in the game
    out_at: tuple[int | None, ...]  # per seat, the turn it was eliminated in
    current: Seat | None = None
    kind: TurnKind = TurnKind.REGULAR
    anchor: Seat | None = None  # who took the last regular turn (§13)
    turn_no: int = 0
    quiet: int = 0  # turns in a row without a kill or an elimination (§16)
    passed: frozenset[Seat] = frozenset()  # who passed since the last action
    timed_out: bool = False  # whether one of those passes was a turn deadline's (§16)
    draw_offer: frozenset[Seat] | None = None  # who accepted the open offer, its proposer included
    draw_proposer: Seat | None = None  # who made the open offer
    result: Result | None = None

    def color_of(self, seat: Seat) -> Color:
        return self.players[seat]

    def seat_of(self, color: Color) -> Seat | None:
        return self.players.index(color) if color in self.players else None

    def controller(self, piece: Piece) -> Seat | None:
        return self.controllers[piece // len(SLOTS)]

    def is_hostage(self, piece: Piece) -> bool:
        return army_of(piece) is self.hostage

    def is_orphaned(self, piece: Piece) -> bool:
        """A living piece nobody controls and that is not a hostage: inert (§12)."""
        return self.controller(piece) is None and not self.is_hostage(piece)

    def is_corpse(self, square: Square) -> bool:
        piece = self.board[square]
        return piece is not None and not self.alive[piece]

    def living(self, square: Square) -> Piece | None:
        piece = self.board[square]
        return piece if piece is not None and self.alive[piece] else None

    def chief_square(self, seat: Seat) -> Square | None:
        return self.where[COLORS.index(self.players[seat]) * len(SLOTS)]

    def in_power(self) -> Seat | None:
        """The player whose living chief stands on the maze (§9.2); never the hostage."""
        piece = self.board[MAZE]
        if piece is None or not self.alive[piece] or kind_of(piece) is not Kind.CHIEF or self.is_hostage(piece):
            return None
        seat = self.controller(piece)
        return seat if seat in self.remaining else None

    def pieces_of(self, seat: Seat) -> list[Piece]:
        """The living pieces `seat` may act with: every army it controls (§5)."""
        armies = [army for army, controller in enumerate(self.controllers) if controller == seat]
        return [piece for army in armies for piece in range(army * len(SLOTS), (army + 1) * len(SLOTS))
                if self.alive[piece] and self.where[piece] is not None]


def status(state: DjambiState) -> GameStatus:
    """Who is to move, and once over the places: the winner (or those who drew) first, then the later out the better."""
    if state.result is None:
        return GameStatus(to_move=() if state.current is None else (state.current,), finished=False)
    places: list[tuple[Seat, ...]] = [state.result.winners]
    out = sorted({turn for seat, turn in enumerate(state.out_at) if turn is not None and seat not in state.result.winners},
                 reverse=True)
    for turn in out:
        places.append(tuple(seat for seat, at in enumerate(state.out_at) if at == turn and seat not in state.result.winners))
    return GameStatus(to_move=(), finished=True, ranking=tuple(places), reason=state.result.reason)
