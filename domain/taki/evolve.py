"""Facts into state, nothing else: evolve records what `decide` already ruled."""

from __future__ import annotations

from typing import TypeVar, assert_never

from domain.core.game import Seat
from domain.core.record_copies import replace
from domain.taki.cards import BY_ID, Card
from domain.taki.events import (
    BreakerPenalty,
    CardPlayed,
    CardsDrawn,
    ColorChosen,
    DeckShuffled,
    DirectionChanged,
    DiscardReshuffled,
    DrawReason,
    DrawShortfall,
    Event,
    GameEnded,
    HandDealt,
    HiddenCardsRedealt,
    KingFollowUp,
    LastCardAnnounced,
    LastCardLapsed,
    LastCardOwed,
    LastCardPenalty,
    LeadingCardTurned,
    PlayerForfeited,
    PlayerSkipped,
    PlayerWentOut,
    Plus2StackCancelled,
    Plus2Stacked,
    Plus2StackTaken,
    Plus3Broken,
    Plus3Cancelled,
    Plus3Passed,
    Plus3Resolved,
    Plus3WindowOpened,
    PlusFollowUp,
    PlusUnfulfilled,
    Role,
    StageCompleted,
    TakiRunClosed,
    TakiRunLeftOpen,
    TakiRunOpened,
    TurnStarted,
)
from domain.taki.options import Mode, TakiOptions
from domain.taki.state import Phase, Plus3Window, Result, Run, TakiState

T = TypeVar("T")

TURN_DRAWS = frozenset({DrawReason.DRAW, DrawReason.PLUS2, DrawReason.PLUS})


def initial(options: TakiOptions, seats: int) -> TakiState:
    """The empty table before the shuffle."""
    return TakiState(
        options=options,
        hands=((),) * seats,
        current=options.first_seat,
        announced=(False,) * seats,
        owed=(None,) * seats,
        stages=(8,) * seats if options.mode is Mode.TOURNAMENT else (),
    )


def evolve(state: TakiState, event: Event) -> TakiState:  # noqa: C901 - one case per event, in the rules' order
    """Record one fact. Never validates, never fails."""
    match event:
        # §3 setup, and §12 drawing, which deals alike
        case DeckShuffled(order):
            return replace(state, draw_pile=_cards(order))
        case HandDealt(seat, cards) | CardsDrawn(seat, cards):
            return _drawn(state, event, seat, _cards(cards))
        case LeadingCardTurned(card_id, buried):
            card, rest = state.draw_pile[0], state.draw_pile[1:]
            if buried:
                return replace(state, draw_pile=rest + (card,))
            return replace(state, draw_pile=rest, discard=state.discard + (card,), active_color=card.color)
        # §5 the turn; §7 a card played
        case TurnStarted(seat, turn_no):
            return replace(
                state, current=seat, turn_no=turn_no, phase=Phase.NORMAL,
                dropped_to_one=False, announce_intent=False,
            )
        case CardPlayed(seat, card_id, role, announce):
            return _played(state, seat, BY_ID[card_id], role, announce)
        # §8 card effects: +2, Change Direction, Plus, Change Color, TAKI, King
        case Plus2Stacked(total):
            return replace(state, plus2_stack=total)
        case DirectionChanged(direction):
            return replace(state, direction=direction)
        case PlusFollowUp():
            return replace(state, phase=Phase.PLUS_FOLLOW_UP)
        case ColorChosen(color=color):
            return replace(state, active_color=color)
        case TakiRunOpened(seat, color):
            return replace(state, run=Run(color, seat), active_color=color, phase=Phase.IN_RUN)
        case KingFollowUp():
            return replace(state, phase=Phase.KING_FOLLOW_UP)
        case Plus2StackCancelled() | Plus2StackTaken():  # §8.9 a King, §10 the stack drawn
            return replace(state, plus2_stack=0)
        # §9 runs
        case TakiRunClosed():
            return replace(state, run=None, phase=Phase.NORMAL)
        # §11 the +3 window
        case Plus3WindowOpened(source, awaiting):
            return replace(state, plus3=Plus3Window(source, awaiting), phase=Phase.PLUS3_WINDOW)
        case Plus3Passed(seat):
            window = state.plus3
            if window is None:
                return state
            return replace(state, plus3=replace(window, awaiting=tuple(s for s in window.awaiting if s != seat)))
        case Plus3Broken() | Plus3Resolved():
            return replace(state, plus3=None, phase=Phase.NORMAL)
        case Plus3Cancelled():
            return replace(state, plus3=None)
        # §12 the discard pile reshuffled
        case DiscardReshuffled(order):
            reshuffled = set(order)
            kept = tuple(card for card in state.discard if card.id not in reshuffled)
            return replace(state, draw_pile=state.draw_pile + _cards(order), discard=kept)
        # §13.1 "Last card!"
        case LastCardAnnounced(seat):
            return replace(state, announced=_set(state.announced, seat, True), owed=_set(state.owed, seat, None))
        case LastCardOwed(seat, deadline_turn):
            return replace(state, owed=_set(state.owed, seat, deadline_turn))
        case LastCardLapsed(seat) | LastCardPenalty(seat):
            return replace(state, owed=_set(state.owed, seat, None))
        # §14 the end, §15 tournament stages
        case PlayerWentOut(seat):
            return replace(state, out=state.out + (seat,), plus3=_without(state.plus3, seat))
        case GameEnded(ranking, reason):
            return replace(state, result=Result(ranking, reason), phase=Phase.FINISHED, plus3=None)
        case StageCompleted(seat, stage):
            return replace(state, stages=_set(state.stages, seat, stage))
        # Meeple's own rules: leaving, and a fork's fresh deal
        case PlayerForfeited(seat):
            return replace(state, forfeited=state.forfeited + (seat,), plus3=_without(state.plus3, seat))
        case HiddenCardsRedealt(order, hands):  # hands of the same sizes: nothing else changes
            dealt = sum(len(hand) for hand in hands)
            return replace(state, hands=tuple(_cards(hand) for hand in hands), draw_pile=_cards(order[dealt:]))
        # facts for the log alone: §8.2 a skip, §8.11 a Breaker's penalty, §9.6 an open run,
        # §12 a short draw, §14.2 an unfulfilled Plus
        case PlayerSkipped() | BreakerPenalty() | TakiRunLeftOpen() | DrawShortfall() | PlusUnfulfilled():
            return state
        case _:
            assert_never(event)


def _drawn(state: TakiState, event: HandDealt | CardsDrawn, seat: Seat, cards: tuple[Card, ...]) -> TakiState:
    hand = state.hands[seat] + cards
    pile = state.draw_pile
    if pile[:len(cards)] == cards:  # draws come off the top
        pile = pile[len(cards):]
    else:  # the round-robin deal
        taken = set(cards)
        pile = tuple(card for card in pile if card not in taken)
    state = replace(
        state,
        hands=_set(state.hands, seat, hand),
        draw_pile=pile,
        announced=_set(state.announced, seat, state.announced[seat] and len(hand) == 1),
    )
    if seat == state.current and cards:
        state = replace(state, dropped_to_one=False)
    if isinstance(event, CardsDrawn) and event.reason in TURN_DRAWS:
        state = replace(state, idle_turns=0 if cards else state.idle_turns + 1)
    return state


def _played(state: TakiState, seat: Seat, card: Card, role: Role, announce: bool) -> TakiState:
    before = state.hands[seat]
    hand = tuple(c for c in before if c != card)
    run = state.run
    if role is Role.RUN and run is not None:
        run = Run(run.color, seat)
    colored = card.color is not None and not card.is_transparent
    return replace(
        state,
        hands=_set(state.hands, seat, hand),
        discard=state.discard + (card,),
        active_color=card.color if colored else state.active_color,
        phase=Phase.IN_RUN if role is Role.RUN else (state.phase if role is Role.ANSWER else Phase.NORMAL),
        run=run,
        announced=_set(state.announced, seat, state.announced[seat] and len(hand) == 1),
        dropped_to_one=(len(before) == 2) if seat == state.current else state.dropped_to_one,
        announce_intent=state.announce_intent or (announce and seat == state.current),
        idle_turns=0,
    )


def _without(window: Plus3Window | None, seat: Seat) -> Plus3Window | None:
    """A +3 window no longer waiting for a seat that left the seating."""
    return None if window is None else replace(window, awaiting=tuple(s for s in window.awaiting if s != seat))


def _cards(ids: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(BY_ID[card_id] for card_id in ids)


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return values[:index] + (value,) + values[index + 1:]
