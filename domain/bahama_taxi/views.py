"""Who may see what (§10): the order of the draw pile and the hands (§11.11) are secret;
everything else — cabs, passengers, waiting citizens, the discard pile, incomes — is public."""

from __future__ import annotations

from dataclasses import dataclass

from domain.bahama_taxi.events import DeckShuffled, Event, HandDealt
from domain.bahama_taxi.state import Citizen, Phase, Result, TaxiState
from domain.core.game import Seat

HIDDEN = "?"  # stands for a card of the draw pile


@dataclass(frozen=True, slots=True)
class CitizenView:
    citizen: str
    origin: str  # the cards
    destination: str | None  # None until picked up, with unknown destinations
    origin_area: str
    destination_area: str | None
    to_area: str | None  # where it gets out: its destination, or its origin if it boarded there (mirror board)
    fare: int | None


@dataclass(frozen=True, slots=True)
class CabView:
    seat: Seat
    pawn: int
    kind: str  # "taxi", "smuggler" or "police"
    area: str | None
    passengers: tuple[CitizenView, ...]


@dataclass(frozen=True, slots=True)
class TaxiView:
    seat: Seat | None
    hand: tuple[str, ...] | None  # the viewer's own hand (§11.11); None for a spectator or without hands
    hand_sizes: tuple[int, ...]
    cabs: tuple[CabView, ...]
    waiting: tuple[CitizenView, ...]
    draw_pile_size: int
    discard: tuple[str, ...]
    income: tuple[int, ...]
    current: Seat
    pawn: int
    phase: Phase
    die: int | None  # dice: this pawn turn's roll
    steps_left: int
    targets: tuple[str, ...]  # on a 4: where the cab must head
    skip_pending: tuple[Seat, ...]  # seats whose next turn a 5 skips
    dropoff_choice: tuple[str, ...]  # passengers bound here, one of whom the seat lets out
    turn_no: int
    round_no: int
    supply_exhausted: bool
    pickup_limit: int  # how full a pickup may make a cab now (§8.5)
    forfeited: tuple[Seat, ...]
    result: Result | None


def _citizen(citizen: Citizen) -> CitizenView:
    return CitizenView(citizen.id, citizen.origin, citizen.destination, citizen.origin_area, citizen.destination_area,
                       citizen.to_area, citizen.fare)


def view(state: TaxiState, seat: Seat | None) -> TaxiView:
    return TaxiView(
        seat=seat,
        hand=state.hands[seat] if seat is not None and state.hands else None,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        cabs=tuple(CabView(s, p, pawn.kind, pawn.area, tuple(_citizen(state.citizens[c]) for c in pawn.riders))
                   for s, pawns in enumerate(state.pawns) for p, pawn in enumerate(pawns)),
        waiting=tuple(_citizen(state.citizens[c]) for c in state.waiting),
        draw_pile_size=len(state.draw_pile),
        discard=state.discard,
        income=state.income,
        current=state.current,
        pawn=state.pawn,
        phase=state.phase,
        die=state.die,
        steps_left=state.steps_left,
        targets=state.targets,
        skip_pending=tuple(sorted(state.skip_pending)),
        dropoff_choice=state.dropoff_choice,
        turn_no=state.turn_no,
        round_no=state.round_no,
        supply_exhausted=state.supply_exhausted,
        pickup_limit=state.pickup_limit(),
        forfeited=state.forfeited,
        result=state.result,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """The shuffle shows nobody the order of the pile; a hand shows only its size to others."""
    if isinstance(event, DeckShuffled):
        return DeckShuffled((HIDDEN,) * len(event.order))
    if isinstance(event, HandDealt) and event.seat != seat:
        return HandDealt(event.seat, (HIDDEN,) * len(event.cards))
    return event
