"""Who may see what (§10): the draw pile's order and the hands (§11.11) are secret; the rest is public."""

from __future__ import annotations

from dataclasses import dataclass

from domain.bahama_taxi.cards import RANKS, SUITS
from domain.bahama_taxi.events import DeckShuffled, Event, HandDealt, HiddenCardsRedealt
from domain.bahama_taxi.state import Citizen, PawnKind, Phase, Result, TaxiState
from domain.core.game import Seat
from domain.core.record_copies import replace

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
    kind: PawnKind
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
        cabs=tuple(CabView(s, p, pawn.kind, pawn.area, tuple(_citizen(state.person(c)) for c in pawn.riders))
                   for s, pawns in enumerate(state.pawns) for p, pawn in enumerate(pawns)),
        waiting=tuple(_citizen(state.person(c)) for c in state.waiting),
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
    """The event as `seat` sees it: nobody the pile's order or salt, others' hands by size only."""
    if isinstance(event, DeckShuffled):
        return replace(event, order=(HIDDEN,) * len(event.order), salt=HIDDEN)
    if isinstance(event, HandDealt) and event.seat != seat:
        return HandDealt(event.seat, (HIDDEN,) * len(event.cards))
    if isinstance(event, HiddenCardsRedealt):  # a fork's deal: each seat its own new hand
        return replace(event, order=(HIDDEN,) * len(event.order), salt=HIDDEN, hands=tuple(
            hand if owner == seat else (HIDDEN,) * len(hand) for owner, hand in enumerate(event.hands)))
    return event


def render(state: TaxiState, seat: Seat | None) -> str:
    """The city as text: each district's areas with pawns (seat, P police, S smuggler) and citizens (*), then cabs."""
    seen = view(state, seat)
    marks = {PawnKind.TAXI: "", PawnKind.SMUGGLER: "S", PawnKind.POLICE: "P"}
    here = {cab.area: f"{cab.seat}{marks[cab.kind]}" for cab in seen.cabs if cab.area}
    waiting = {c.origin_area for c in seen.waiting}
    lines = [f"Bahama Taxi, round {seen.round_no}, turn {seen.turn_no}: seat {seen.current} to play ({seen.phase.value})"]
    for suit in SUITS:
        cells = [f"{rank + suit}{'[' + here[rank + suit] + ']' if rank + suit in here else ''}{'*' if rank + suit in waiting else ''}"
                 for rank in RANKS]
        lines.append("  " + " ".join(cell.ljust(7) for cell in cells).rstrip())
    for cab in seen.cabs:
        riders = ", ".join(f"{c.citizen} to {c.to_area} ({c.fare})" for c in cab.passengers) or "empty"
        lines.append(f"seat {cab.seat} {cab.kind} {cab.pawn} on {cab.area}: {riders}")
    lines.append("waiting: " + ", ".join(f"{c.citizen} {c.origin_area}→{c.destination_area or '?'}" for c in seen.waiting))
    lines.append(f"income: {', '.join(map(str, seen.income))}; draw pile {seen.draw_pile_size}"
                 + (f"; hand {' '.join(seen.hand)}" if seen.hand else ""))
    if seen.result is not None:
        lines.append(f"result: {' > '.join('/'.join(map(str, place)) for place in seen.result.ranking)} ({seen.result.reason})")
    return "\n".join(lines)
