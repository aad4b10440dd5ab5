"""What a TAKI seat may ask for (§17.1). Cards are named by id; the rules check the ids."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.codec import EventCodec
from domain.core.game import Seat
from domain.taki.cards import Color


@dataclass(frozen=True, slots=True)
class Play:
    """Play one card, or a batch of cards one after the other, all or nothing (§17.2).

    `color` names the colour for the card that needs one (a Change Color, or a SuperTaki
    after a King under `super_taki_after_king = choose`); `colors` names it per card when
    a batch needs two. `close_taki` is None when absent: True closes the run after the
    last card, False ends the turn leaving it open."""

    seat: Seat
    cards: tuple[str, ...]
    color: Color | None = None
    colors: tuple[tuple[str, Color], ...] = ()
    announce_last_card: bool = False
    close_taki: bool | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card, or the whole +2 stack; ends the turn."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class CloseTaki:
    """Declare "Closed TAKI!": the run ends and its last card acts."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn: leave one's run open, or decline a King's extra card."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to answer a +3."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class AnnounceLastCard:
    """Say "Last card!"."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Leave the game for good (see `decide.forfeit`); not listed among the legal commands."""

    seat: Seat


Command = Play | Draw | CloseTaki | EndTurn | Pass | AnnounceLastCard | Forfeit
TURN_ACTIONS = (Play, Draw, CloseTaki, EndTurn)

# each command's wire name in a log, as the API names it
CODEC: EventCodec[Command] = EventCodec({Play: "play", Draw: "draw", CloseTaki: "close_taki", EndTurn: "end_turn", Pass: "pass",
                                         AnnounceLastCard: "announce_last_card", Forfeit: "forfeit"})
