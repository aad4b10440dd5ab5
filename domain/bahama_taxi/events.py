"""The facts of a Bahama Taxi game (§13.3). Cards and areas by id, citizens as `c1`, `c2`, …"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.bahama_taxi.commands import End
from domain.bahama_taxi.options import TwoPawnMode
from domain.bahama_taxi.state import PawnKind
from domain.core.codec import EventCodec
from domain.core.game import Seat
from domain.core.rng import Drawn, die_of, salt_of, shuffle_of


class Coin(StrEnum):
    HEADS = "heads"  # every turn moves both cabs (§11.8)
    TAILS = "tails"  # the cabs take turns
    CHOSEN = "chosen"  # no flip: the options fixed the mode


class SkipReason(StrEnum):
    BLOCKED = "blocked"  # no free neighbour under mandatory movement (§7.3)
    TIMEOUT = "timeout"  # the turn deadline passed
    DIE_SIX = "die_six"  # §11.10
    EMPTY_CAB_ON_FOUR = "empty_cab_on_four"
    SKIPPED_BY_FIVE = "skipped_by_five"


class MovementEnd(StrEnum):
    DONE = "done"  # every step of the roll taken, or the target of a 4 reached
    STOPPED = "stopped"  # StopMoving
    BLOCKED = "blocked"  # no step left that the rules allow


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    """The pile's order, top card first, sealed: `commitment` is shown at once, `order` and
    `salt` at the end."""

    order: tuple[str, ...]
    salt: str = ""
    commitment: str = ""


@dataclass(frozen=True, slots=True)
class PawnPlaced:
    """A cab on its start card, which is discarded, or `kept` aside for a citizen (§11.5,
    §11.6); in Contraband a smuggler or police on its 3, with no card (§11.12)."""

    seat: Seat
    pawn: int
    area: str
    card: str | None
    kept: bool = False
    kind: PawnKind = PawnKind.TAXI


@dataclass(frozen=True, slots=True)
class PoliceToPlace:
    """Contraband: `seat` places its police on one of its two 3s (§11.12)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class SmugglerArrested:
    """Contraband: the police's seat is paid the fares of the smuggler's goods, which are discarded."""

    police_seat: Seat
    smuggler_seat: Seat
    area: str
    confiscated: tuple[str, ...]
    reward: int


@dataclass(frozen=True, slots=True)
class StartCardRedrawn:
    """Two decks (§11.7): a start card whose area already holds a cab is discarded."""

    seat: Seat
    card: str


@dataclass(frozen=True, slots=True)
class DropOffChoice:
    """`double_dropoff = separately` (§11.7): several passengers are bound here; the seat
    chooses the one that gets out."""

    seat: Seat
    pawn: int
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: str


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Four-card hand (§11.11): secret to every other seat."""

    seat: Seat
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HiddenCardsRedealt:
    """A fork's fresh deal (Meeple's own rule): the draw pile and the hands (§11.11), face down
    when the fork was made, shuffled into `order` and sealed like the pile; each seat dealt off
    its top a hand of the size it had, seat by seat, the rest left as the draw pile."""

    order: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    salt: str = ""
    commitment: str = ""


@dataclass(frozen=True, slots=True)
class PassengerRerouted:
    """A hand card replaces the `old_card` at one end of a passenger's trip; the old card is discarded."""

    seat: Seat
    passenger: str
    end: End
    old_card: str
    new_card: str


@dataclass(frozen=True, slots=True)
class CitizenAppeared:
    citizen: str
    origin: str  # cards: the citizen waits at the area of its origin card
    destination: str | None  # None: drawn at the pickup, with unknown destinations (§11.9)


@dataclass(frozen=True, slots=True)
class DestinationDrawn:
    """Unknown destinations (§11.9): where a citizen just picked up is going."""

    citizen: str
    card: str


@dataclass(frozen=True, slots=True)
class PassengerBoardedAtSetup:
    """Shift change (§11.5): a citizen who starts the game in the cab."""

    seat: Seat
    pawn: int
    citizen: str
    origin: str
    destination: str


@dataclass(frozen=True, slots=True)
class CoinFlipped:
    """Two cabs (§11.8): heads, every turn moves both; tails, they alternate."""

    result: Coin
    mode: TwoPawnMode


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: Seat
    turn_no: int
    round_no: int
    pawns: tuple[int, ...] = (0,)  # the pawn turns this turn has, in order


@dataclass(frozen=True, slots=True)
class PawnTurnStarted:
    """The seat's next pawn turn, or (in its start phase) the seat chose another cab to go first."""

    seat: Seat
    pawn: int


@dataclass(frozen=True, slots=True)
class PassengersTransferred:
    seat: Seat
    from_pawn: int
    to_pawn: int
    passengers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnSkipped:
    seat: Seat
    pawn: int
    reason: SkipReason


@dataclass(frozen=True, slots=True)
class PawnMoved:
    seat: Seat
    pawn: int
    origin: str
    to: str


@dataclass(frozen=True, slots=True)
class DieRolled:
    """Dice (§11.10). On a 4, `targets` are the farthest destinations aboard."""

    seat: Seat
    pawn: int
    value: int
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PawnStepped:
    seat: Seat
    pawn: int
    origin: str
    to: str
    target: str | None = None  # the target of a 4, named on the first step when there was a choice


@dataclass(frozen=True, slots=True)
class MovementEnded:
    seat: Seat
    pawn: int
    reason: MovementEnd


@dataclass(frozen=True, slots=True)
class TurnSkipPending:
    """A 5 was rolled: this seat's next turn is skipped (§11.10)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class PawnStayed:
    seat: Seat
    pawn: int


@dataclass(frozen=True, slots=True)
class PassengerDroppedOff:
    seat: Seat
    pawn: int
    citizen: str
    area: str
    fare: int


@dataclass(frozen=True, slots=True)
class PassengerPickedUp:
    seat: Seat
    pawn: int
    citizen: str
    area: str
    from_god: bool = False


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A pawn turn ended (the seat's turn, when it was the last)."""

    seat: Seat
    pawn: int = 0


@dataclass(frozen=True, slots=True)
class PlayerForfeited:
    """The seat leaves: its cab leaves the board and its passengers' cards are discarded."""

    seat: Seat


class EndReason(StrEnum):
    NO_CITIZENS_WAITING = "no_citizens_waiting"  # §9
    ROUND_LIMIT = "round_limit"  # the stall guard (§9)
    FORFEIT = "forfeit"  # one seat left playing (Meeple's rule for leaving)


@dataclass(frozen=True, slots=True)
class GameEnded:
    incomes: tuple[int, ...]
    ranking: tuple[tuple[Seat, ...], ...]
    reason: EndReason



Event = (
    DeckShuffled | PawnPlaced | PoliceToPlace | SmugglerArrested | StartCardRedrawn | DropOffChoice | CardBurned | HandDealt | PassengerRerouted | CitizenAppeared | PassengerBoardedAtSetup | CoinFlipped | TurnStarted | PawnTurnStarted | PassengersTransferred | TurnSkipped | DieRolled | PawnStepped | MovementEnded | TurnSkipPending
    | PawnMoved | PawnStayed
    | PassengerDroppedOff | PassengerPickedUp | DestinationDrawn | TurnEnded | PlayerForfeited | GameEnded
    | HiddenCardsRedealt
)

CODEC: EventCodec[Event] = EventCodec(
    names={
        DeckShuffled: "deck_shuffled",
        PawnPlaced: "pawn_placed",
        PoliceToPlace: "police_to_place",
        SmugglerArrested: "smuggler_arrested",
        CardBurned: "card_burned",
        StartCardRedrawn: "start_card_redrawn",
        DropOffChoice: "drop_off_choice",
        HandDealt: "hand_dealt",
        PassengerRerouted: "passenger_rerouted",
        CitizenAppeared: "citizen_appeared",
        PassengerBoardedAtSetup: "passenger_boarded_at_setup",
        CoinFlipped: "coin_flipped",
        TurnStarted: "turn_started",
        PawnTurnStarted: "pawn_turn_started",
        PassengersTransferred: "passengers_transferred",
        TurnSkipped: "turn_skipped",
        DieRolled: "die_rolled",
        PawnStepped: "pawn_stepped",
        MovementEnded: "movement_ended",
        TurnSkipPending: "turn_skip_pending",
        PawnMoved: "pawn_moved",
        PawnStayed: "pawn_stayed",
        PassengerDroppedOff: "passenger_dropped_off",
        PassengerPickedUp: "passenger_picked_up",
        DestinationDrawn: "destination_drawn",
        TurnEnded: "turn_ended",
        PlayerForfeited: "player_forfeited",
        GameEnded: "game_ended",
        HiddenCardsRedealt: "hidden_cards_redealt",
    }
)


def chance(event: Event) -> tuple[Drawn, ...]:
    """The outcomes of chance `event` records, in the order the rules drew them (setup.py, decide.py)."""
    match event:
        case DeckShuffled(order, salt) | HiddenCardsRedealt(order, _, salt):
            return shuffle_of(order), salt_of(salt)
        case CoinFlipped(result) if result is not Coin.CHOSEN:
            return (die_of(1 if result is Coin.HEADS else 0),)
        case DieRolled(value=value):
            return (die_of(value),)
        case _:
            return ()
