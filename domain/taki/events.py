"""The facts of a TAKI game (§17.5). Cards are named by id; chance is written into the facts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.core.codec import EventCodec
from domain.core.game import Seat
from domain.core.rng import Drawn, salt_of, shuffle_of
from domain.taki.cards import Color


class Role(StrEnum):
    """Why a card was played: on one's turn, into a run, as a follow-up, or answering a +3."""

    NORMAL = "normal"
    RUN = "run"
    FOLLOW_UP = "follow_up"
    ANSWER = "answer"


class DrawReason(StrEnum):
    DRAW = "draw"
    PLUS2 = "plus2"
    PLUS = "plus"
    PLUS3 = "plus3"
    BREAKER = "breaker"
    LAST_CARD = "last_card"
    STAGE = "stage"


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    """The deck's order, sealed: `commitment` is shown at once, `order` and `salt` at the end."""

    order: tuple[str, ...]
    salt: str = ""
    commitment: str = ""


@dataclass(frozen=True, slots=True)
class HandDealt:
    seat: Seat
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LeadingCardTurned:
    card: str
    buried: bool = False


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: Seat
    turn_no: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: Seat
    card: str
    role: Role = Role.NORMAL
    announce: bool = False


@dataclass(frozen=True, slots=True)
class ColorChosen:
    seat: Seat
    color: Color


@dataclass(frozen=True, slots=True)
class TakiRunOpened:
    seat: Seat
    color: Color
    super_taki: bool = False


@dataclass(frozen=True, slots=True)
class TakiRunClosed:
    seat: Seat
    last_card: str
    declared: bool


@dataclass(frozen=True, slots=True)
class TakiRunLeftOpen:
    seat: Seat


@dataclass(frozen=True, slots=True)
class PlayerSkipped:
    seat: Seat


@dataclass(frozen=True, slots=True)
class DirectionChanged:
    direction: int


@dataclass(frozen=True, slots=True)
class Plus2Stacked:
    total: int


@dataclass(frozen=True, slots=True)
class Plus2StackCancelled:
    seat: Seat
    amount: int


@dataclass(frozen=True, slots=True)
class Plus2StackTaken:
    seat: Seat
    amount: int


@dataclass(frozen=True, slots=True)
class PlusFollowUp:
    """A Plus acted: its player owes one more card (or a draw)."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class KingFollowUp:
    """A King acted: its player may play any one more card, or end the turn."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Plus3WindowOpened:
    source: Seat
    awaiting: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Plus3Passed:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Plus3Broken:
    seat: Seat
    source: Seat


@dataclass(frozen=True, slots=True)
class Plus3Cancelled:
    seat: Seat


@dataclass(frozen=True, slots=True)
class Plus3Resolved:
    source: Seat


@dataclass(frozen=True, slots=True)
class BreakerPenalty:
    seat: Seat


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    seat: Seat
    cards: tuple[str, ...]
    reason: DrawReason


@dataclass(frozen=True, slots=True)
class DiscardReshuffled:
    """The new draw pile's order, sealed like the deck's."""

    order: tuple[str, ...]
    salt: str = ""
    commitment: str = ""


@dataclass(frozen=True, slots=True)
class HiddenCardsRedealt:
    """A fork's fresh deal (Meeple's own rule): every card face down when the fork was made -
    the hands and the draw pile - shuffled into `order`, sealed like the deck; each seat dealt
    off its top a hand of the size it had, seat by seat, the rest left as the draw pile."""

    order: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    salt: str = ""
    commitment: str = ""


@dataclass(frozen=True, slots=True)
class DrawShortfall:
    seat: Seat
    missing: int


@dataclass(frozen=True, slots=True)
class PlusUnfulfilled:
    seat: Seat


@dataclass(frozen=True, slots=True)
class LastCardAnnounced:
    seat: Seat


@dataclass(frozen=True, slots=True)
class LastCardOwed:
    """The seat is on one card unannounced; the first turn action by anyone from `deadline_turn` on makes it pay first (§13.1)."""

    seat: Seat
    deadline_turn: int


@dataclass(frozen=True, slots=True)
class LastCardLapsed:
    seat: Seat


@dataclass(frozen=True, slots=True)
class LastCardPenalty:
    seat: Seat


@dataclass(frozen=True, slots=True)
class StageCompleted:
    seat: Seat
    stage: int


@dataclass(frozen=True, slots=True)
class PlayerWentOut:
    seat: Seat
    place: int


@dataclass(frozen=True, slots=True)
class PlayerForfeited:
    seat: Seat


class EndReason(StrEnum):
    WON = "won"  # every place decided (§14)
    STALEMATE = "stalemate"  # a full round of draws found nothing (A19)


@dataclass(frozen=True, slots=True)
class GameEnded:
    ranking: tuple[tuple[Seat, ...], ...]
    reason: EndReason



Event = (
    DeckShuffled | HandDealt | LeadingCardTurned | TurnStarted | CardPlayed | ColorChosen
    | TakiRunOpened | TakiRunClosed | TakiRunLeftOpen | PlayerSkipped | DirectionChanged
    | Plus2Stacked | Plus2StackCancelled | Plus2StackTaken | PlusFollowUp | KingFollowUp
    | Plus3WindowOpened | Plus3Passed | Plus3Broken | Plus3Cancelled | Plus3Resolved
    | BreakerPenalty | CardsDrawn | DiscardReshuffled | DrawShortfall | PlusUnfulfilled
    | LastCardAnnounced | LastCardOwed | LastCardLapsed | LastCardPenalty | StageCompleted
    | PlayerWentOut | PlayerForfeited | GameEnded | HiddenCardsRedealt
)

CODEC: EventCodec[Event] = EventCodec(
    names={
        DeckShuffled: "deck_shuffled",
        HandDealt: "hand_dealt",
        LeadingCardTurned: "leading_card_turned",
        TurnStarted: "turn_started",
        CardPlayed: "card_played",
        ColorChosen: "color_chosen",
        TakiRunOpened: "taki_run_opened",
        TakiRunClosed: "taki_run_closed",
        TakiRunLeftOpen: "taki_run_left_open",
        PlayerSkipped: "player_skipped",
        DirectionChanged: "direction_changed",
        Plus2Stacked: "plus2_stacked",
        Plus2StackCancelled: "plus2_stack_cancelled",
        Plus2StackTaken: "plus2_stack_taken",
        PlusFollowUp: "plus_follow_up",
        KingFollowUp: "king_follow_up",
        Plus3WindowOpened: "plus3_window_opened",
        Plus3Passed: "plus3_passed",
        Plus3Broken: "plus3_broken",
        Plus3Cancelled: "plus3_cancelled",
        Plus3Resolved: "plus3_resolved",
        BreakerPenalty: "breaker_penalty",
        CardsDrawn: "cards_drawn",
        DiscardReshuffled: "discard_reshuffled",
        DrawShortfall: "draw_shortfall",
        PlusUnfulfilled: "plus_unfulfilled",
        LastCardAnnounced: "last_card_announced",
        LastCardOwed: "last_card_owed",
        LastCardLapsed: "last_card_lapsed",
        LastCardPenalty: "last_card_penalty",
        StageCompleted: "stage_completed",
        PlayerWentOut: "player_went_out",
        PlayerForfeited: "player_forfeited",
        GameEnded: "game_ended",
        HiddenCardsRedealt: "hidden_cards_redealt",
    }
)


def chance(event: Event) -> tuple[Drawn, ...]:
    """The outcomes of chance `event` records, in the order the rules drew them: each order, then its seal's salt."""
    match event:
        case DeckShuffled(order, salt) | DiscardReshuffled(order, salt) | HiddenCardsRedealt(order, _, salt):
            return shuffle_of(order), salt_of(salt)
        case _:
            return ()
