"""The facts of a Djambi game (§18.5). Squares are named (`E5`), pieces by id (`red.chief`).

An action is one fact, `ActionTaken`: every piece it moved, each from where to where (applied
all at once), and every piece it killed, so the 36 pieces are on the board between any two
events. What follows from an action is written as its own facts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.core.codec import EventCodec
from domain.core.game import Seat
from domain.djambi.pieces import Color


class TurnKind(StrEnum):
    REGULAR = "regular"
    BONUS = "bonus"  # the extra turn of the player in power (§13)


class Elimination(StrEnum):
    KILLED = "killed"
    ENCIRCLED = "encircled"
    RESIGNED = "resigned"


class PassReason(StrEnum):
    NO_LEGAL_ACTION = "no_legal_action"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[Color, ...]  # the colour of each seat
    hostage: Color | None


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: Seat
    kind: TurnKind
    turn_no: int


@dataclass(frozen=True, slots=True)
class PieceMove:
    piece: str
    origin: str
    to: str


@dataclass(frozen=True, slots=True)
class Kill:
    piece: str
    at: str  # where it stood when it was killed
    by: str  # the killer


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat's action, in notation (`move`), with its net effect on the board."""

    seat: Seat
    move: str
    moves: tuple[PieceMove, ...]
    kills: tuple[Kill, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A player is out. Encircled or resigned, their chief dies where it stands."""

    seat: Seat
    reason: Elimination
    by: Seat | None = None


@dataclass(frozen=True, slots=True)
class ArmyControlChanged:
    army: Color
    previous: Seat | None
    to: Seat | None  # None: orphaned


@dataclass(frozen=True, slots=True)
class TurnPassed:
    seat: Seat
    reason: PassReason


@dataclass(frozen=True, slots=True)
class DrawOffered:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DrawAccepted:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DrawDeclined:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DrawOfferLapsed:
    """The open draw offer ends unanswered: an action was taken (§18.4), or its proposer left the game (§16)."""


class Outcome(StrEnum):
    WIN = "win"  # one player left (§16)
    DRAW = "draw"  # the remaining players share it (§17)


class EndReason(StrEnum):
    WON = "won"  # the last player left (§10)
    ALL_ENCIRCLED = "all_encircled"  # every remaining chief shut in at once: a draw of those (§11.2)
    NO_PROGRESS = "no_progress"  # §16: a draw of those still playing, as are the three below
    NO_LEGAL_ACTION = "no_legal_action"
    ABANDONED = "abandoned"
    AGREED = "agreed"


@dataclass(frozen=True, slots=True)
class GameEnded:
    result: Outcome
    winners: tuple[Seat, ...]
    reason: EndReason



Event = (
    GameStarted | TurnStarted | ActionTaken | PlayerEliminated | ArmyControlChanged | TurnPassed
    | DrawOffered | DrawAccepted | DrawDeclined | DrawOfferLapsed | GameEnded
)

CODEC: EventCodec[Event] = EventCodec(
    names={
        GameStarted: "game_started",
        TurnStarted: "turn_started",
        ActionTaken: "action_taken",
        PlayerEliminated: "player_eliminated",
        ArmyControlChanged: "army_control_changed",
        TurnPassed: "turn_passed",
        DrawOffered: "draw_offered",
        DrawAccepted: "draw_accepted",
        DrawDeclined: "draw_declined",
        DrawOfferLapsed: "draw_offer_lapsed",
        GameEnded: "game_ended",
    }
)
