"""The city as play leaves it (§5), and the read-only questions the rules ask of it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.bahama_taxi.board import Area, fare
from domain.bahama_taxi.cards import Card, area_of
from domain.bahama_taxi.options import TaxiOptions, TwoPawnMode
from domain.core.game import GameStatus, Seat

CAPACITY = 3  # passengers a cab carries (§8.5)


class Phase(StrEnum):
    PLACING = "placing"  # Contraband setup: the seat to move places its police (§11.12)
    START = "start"  # before the cab moves: collections from God (§6)
    MOVE = "move"  # dice: between steps (§11.10)
    END = "end"  # after the move: drop-offs, then pickups
    OVER = "over"


class PawnKind(StrEnum):
    TAXI = "taxi"
    SMUGGLER = "smuggler"  # Contraband: pawn 0, carries contraband like a taxi (§11.12)
    POLICE = "police"  # Contraband: pawn 1, carries nothing, arrests the opposing smuggler


@dataclass(frozen=True, slots=True)
class Citizen:
    id: str
    origin: Card
    destination: Card | None  # None while it waits in a game of unknown destinations (§11.9)
    appeared_at: int  # the version of the event that put it on the street
    reverse: bool = False  # boarded at its destination, on the mirror board: it rides to its origin (§11.4)
    left_pickup_area: bool = False  # the cab has moved since it boarded
    cancelled: bool = False  # two decks: both cards it was drawn with name one area (§11.7); a reroute changes nothing

    @staticmethod
    def drawn(citizen_id: str, origin: Card, destination: Card | None, appeared_at: int) -> Citizen:
        """A citizen as its cards were drawn."""
        cancelled = destination is not None and area_of(origin) == area_of(destination)
        return Citizen(citizen_id, origin, destination, appeared_at, cancelled=cancelled)

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.origin,) if self.destination is None else (self.origin, self.destination)

    @property
    def origin_area(self) -> Area:
        return area_of(self.origin)

    @property
    def destination_area(self) -> Area | None:
        return None if self.destination is None else area_of(self.destination)

    @property
    def to_area(self) -> Area | None:
        """Where it gets out."""
        return self.origin_area if self.reverse else self.destination_area

    def waits_at(self, area: Area, mirror: bool) -> bool:
        """At its origin; on the mirror board at either end (§8.1, §11.4)."""
        return self.origin_area == area or (mirror and self.destination_area == area)

    @property
    def fare(self) -> int | None:
        destination = self.destination_area
        return None if destination is None else fare(self.origin_area, destination)


@dataclass(frozen=True, slots=True)
class Pawn:
    area: Area | None  # None once its seat has forfeited
    kind: PawnKind = PawnKind.TAXI
    riders: tuple[str, ...] = ()  # the citizens aboard
    last_turn_end: int = 0  # the version at which its last played pawn turn ended


@dataclass(frozen=True, slots=True)
class Result:
    incomes: tuple[int, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class TaxiState:
    options: TaxiOptions
    seats: int
    version: int = 0  # events folded so far
    draw_pile: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    set_aside: tuple[Card, ...] = ()  # start cards kept for a citizen during setup (§11.5, §11.6)
    hands: tuple[tuple[Card, ...], ...] = ()  # per seat, with the four-card hand (§11.11)
    pawns: tuple[tuple[Pawn, ...], ...] = ()  # per seat
    citizens: tuple[Citizen, ...] = ()  # every citizen so far: c1, c2, … in the order they appeared
    waiting: tuple[str, ...] = ()
    income: tuple[int, ...] = ()
    current: Seat = 0
    pawn: int = 0  # the pawn of the current seat in its pawn turn
    pawns_to_go: tuple[int, ...] = ()  # the pawn turns left in this turn (two cabs, §11.8)
    moved_this_turn: bool = False  # a movement command came in this turn (ends transfers)
    two_pawn_mode: TwoPawnMode | None = None  # BOTH or ALTERNATE, once the coin has fallen (§11.8)
    alternation: tuple[int, ...] = ()  # per seat, the pawn its next turn moves under "alternate"
    phase: Phase = Phase.START
    end_started: int = 0  # the version at which the current end phase began
    die: int | None = None  # dice (§11.10): this pawn turn's roll
    steps_left: int = 0
    targets: tuple[Area, ...] = ()  # on a 4: the farthest destinations aboard, one once chosen
    skip_pending: frozenset[Seat] = frozenset()  # seats whose next turn a 5 skips
    dropoff_choice: tuple[str, ...] = ()  # passengers bound here, one of whom the seat lets out (§11.7)
    turn_no: int = 0
    round_no: int = 0
    forfeited: tuple[Seat, ...] = ()
    result: Result | None = None

    def citizen(self, citizen_id: str) -> Citizen | None:
        """The citizen of that id, if one has appeared."""
        number = citizen_id[1:]
        if not (citizen_id.startswith("c") and number.isdigit() and 0 < int(number) <= len(self.citizens)):
            return None
        found = self.citizens[int(number) - 1]
        return found if found.id == citizen_id else None  # not "c01"

    def person(self, citizen_id: str) -> Citizen:
        """A citizen the game has drawn: one waiting, aboard or delivered."""
        return self.citizens[int(citizen_id[1:]) - 1]

    def cab(self, seat: Seat, pawn: int = 0) -> Pawn:
        return self.pawns[seat][pawn]

    def occupied(self) -> set[Area]:
        return {pawn.area for pawns in self.pawns for pawn in pawns if pawn.area is not None}

    def pawns_on(self, area: Area) -> list[tuple[Seat, int]]:
        return [(seat, index) for seat, pawns in enumerate(self.pawns) for index, pawn in enumerate(pawns) if pawn.area == area]

    def arrested(self, seat: Seat) -> bool:
        """§11.12: the seat's smuggler shares its area with the police that arrested it."""
        pawns = self.pawns[seat]
        return bool(pawns) and pawns[0].kind is PawnKind.SMUGGLER and pawns[0].area is not None and len(self.pawns_on(pawns[0].area)) > 1

    def waiting_at(self, area: Area) -> list[Citizen]:
        return [citizen for c in self.waiting if (citizen := self.person(c)).waits_at(area, self.options.mirror_board)]

    @property
    def supply_exhausted(self) -> bool:
        """No further citizen can be drawn: fewer than 2 cards left (§5, §8.6), beyond one kept per waiting one (§11.9)."""
        spare = len(self.draw_pile) - (len(self.waiting) if self.options.unknown_destination else 0)
        return spare < 2

    def pickup_limit(self) -> int:
        """§8.5: how full a pickup may make a cab: 1 once few citizens wait, 2 once the pile has run out, else CAPACITY."""
        if len(self.waiting) <= self.options.second_passenger_threshold:
            return 1
        return 2 if self.supply_exhausted else CAPACITY

    def playing(self) -> list[Seat]:
        return [seat for seat in range(self.seats) if seat not in self.forfeited]


def status(state: TaxiState) -> GameStatus:
    if state.result is None:
        return GameStatus(to_move=(state.current,) if state.version else (), finished=False)
    return GameStatus(to_move=(), finished=True, ranking=state.result.ranking, reason=state.result.reason,
                      scores=state.result.incomes)
