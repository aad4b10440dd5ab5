"""Who may see what (§4, §17.5): a seat sees its own hand and the public table, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from domain.core.game import Seat
from domain.core.record_copies import replace
from domain.taki.cards import Color
from domain.taki.events import CardsDrawn, DeckShuffled, DiscardReshuffled, Event, HandDealt, HiddenCardsRedealt
from domain.taki.state import Phase, Plus3Window, Result, Run, TakiState

HIDDEN = "?"  # stands for a card whose face the viewer may not see


@dataclass(frozen=True, slots=True)
class TakiView:
    """The table as one seat (or a spectator, seat None) may see it."""

    seat: Seat | None
    hand: tuple[str, ...] | None  # the viewer's own cards
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discard: tuple[str, ...]
    leading_card: str | None
    active_color: Color | None
    direction: int
    current: Seat
    turn_no: int
    phase: Phase
    plus2_stack: int
    run: Run | None
    plus3: Plus3Window | None
    announced: tuple[bool, ...]
    owes_last_card: tuple[bool, ...]
    stages: tuple[int, ...]
    out: tuple[Seat, ...]
    forfeited: tuple[Seat, ...]
    result: Result | None
    hands: tuple[tuple[str, ...], ...] | None  # every hand, once the game is over


def view(state: TakiState, seat: Seat | None) -> TakiView:
    """What `seat` may see now; everything once the game is over."""
    return TakiView(
        seat=seat,
        hand=state.hand_ids(seat) if seat is not None else None,
        hand_sizes=tuple(len(hand) for hand in state.hands),
        draw_pile_size=len(state.draw_pile),
        discard=tuple(card.id for card in state.discard),
        leading_card=state.leading_card.id if state.discard else None,
        active_color=state.active_color,
        direction=state.direction,
        current=state.current,
        turn_no=state.turn_no,
        phase=state.phase,
        plus2_stack=state.plus2_stack,
        run=state.run,
        plus3=state.plus3,
        announced=state.announced,
        owes_last_card=tuple(due is not None for due in state.owed),
        stages=state.stages,
        out=state.out,
        forfeited=state.forfeited,
        result=state.result,
        hands=tuple(state.hand_ids(s) for s in range(state.seats)) if state.is_over else None,
    )


def redact(event: Event, seat: Seat | None) -> Event:
    """The event as `seat` may see it: other seats' cards and every shuffle's order and salt become `?`."""
    match event:
        case HandDealt(owner, cards) | CardsDrawn(owner, cards) if owner != seat:
            return replace(event, cards=(HIDDEN,) * len(cards))
        case DeckShuffled(order) | DiscardReshuffled(order):
            return replace(event, order=(HIDDEN,) * len(order), salt=HIDDEN)
        case HiddenCardsRedealt(order, hands):  # a fork's deal: each seat its own new hand
            return replace(event, order=(HIDDEN,) * len(order), salt=HIDDEN, hands=tuple(
                hand if owner == seat else (HIDDEN,) * len(hand) for owner, hand in enumerate(hands)))
        case _:
            return event


def render(state: TakiState, seat: Seat | None) -> str:
    """The table as text: whose turn, the leading card, the piles, and the hands `seat` may see."""
    seen = view(state, seat)
    lines = [f"TAKI, turn {seen.turn_no}: seat {seen.current} to play ({seen.phase.value}), "
             f"direction {'clockwise' if seen.direction == 1 else 'counter-clockwise'}",
             f"leading card {seen.leading_card}, colour {seen.active_color}; draw pile {seen.draw_pile_size}, "
             f"discard {len(seen.discard)}" + (f"; +2 stack {seen.plus2_stack}" if seen.plus2_stack else "")]
    for owner, size in enumerate(seen.hand_sizes):
        cards = seen.hands[owner] if seen.hands else seen.hand if owner == seat else None
        shown = " ".join(cards) if cards is not None else "(hidden)"
        lines.append(f"seat {owner}: {size} cards {shown}" + (" — out" if owner in seen.out else ""))
    if seen.result is not None:
        lines.append(f"result: {' > '.join('/'.join(map(str, place)) for place in seen.result.ranking)}")
    return "\n".join(lines)
