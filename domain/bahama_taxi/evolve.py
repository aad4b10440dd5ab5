"""Facts into state, nothing else: evolve records what `decide` already ruled."""

from __future__ import annotations

from typing import assert_never

from domain.bahama_taxi.events import (
    CardBurned,
    CitizenAppeared,
    CoinFlipped,
    DeckShuffled,
    DestinationDrawn,
    DieRolled,
    DropOffChoice,
    Event,
    GameEnded,
    HandDealt,
    HiddenCardsRedealt,
    MovementEnded,
    PassengerBoardedAtSetup,
    PassengerDroppedOff,
    PassengerPickedUp,
    PassengerRerouted,
    PassengersTransferred,
    PawnMoved,
    PawnPlaced,
    PawnStayed,
    PawnStepped,
    PawnTurnStarted,
    PlayerForfeited,
    PoliceToPlace,
    SkipReason,
    SmugglerArrested,
    StartCardRedrawn,
    TurnEnded,
    TurnSkipped,
    TurnSkipPending,
    TurnStarted,
)
from domain.bahama_taxi.options import TaxiOptions, TwoPawnMode
from domain.bahama_taxi.state import Citizen, Pawn, Phase, Result, TaxiState
from domain.core.records import replace


def initial(options: TaxiOptions, seats: int) -> TaxiState:
    """The empty city before the shuffle."""
    return TaxiState(options=options, seats=seats, income=(0,) * seats, pawns=((),) * seats)


def evolve(state: TaxiState, event: Event) -> TaxiState:
    return replace(_apply(state, event), version=state.version + 1)


def _with_pawn(state: TaxiState, seat: int, pawn: int, new: Pawn) -> tuple[tuple[Pawn, ...], ...]:
    pawns = list(state.pawns[seat])
    pawns[pawn:pawn + 1] = [new]
    return state.pawns[:seat] + (tuple(pawns),) + state.pawns[seat + 1:]


def _with_citizen(state: TaxiState, citizen: Citizen) -> tuple[Citizen, ...]:
    """The citizens with `citizen` new or changed."""
    index = int(citizen.id[1:]) - 1
    return state.citizens[:index] + (citizen,) + state.citizens[index + 1:]


def _left(state: TaxiState, riders: tuple[str, ...]) -> TaxiState:
    """The cab moves: its passengers have left the area where they boarded."""
    for rider in riders:
        if not (citizen := state.person(rider)).left_pickup_area:
            state = replace(state, citizens=_with_citizen(state, replace(citizen, left_pickup_area=True)))
    return state


def _take(state: TaxiState, *cards: str | None) -> TaxiState:
    """A citizen's cards leave the draw pile (or the start cards set aside)."""
    return replace(state, draw_pile=tuple(c for c in state.draw_pile if c not in cards),
                   set_aside=tuple(c for c in state.set_aside if c not in cards))


def _apply(state: TaxiState, event: Event) -> TaxiState:
    version = state.version + 1
    match event:
        case DeckShuffled(order):
            return replace(state, draw_pile=order)
        case PawnPlaced(seat, pawn, area, card, kept, kind):
            placed = replace(state, pawns=_with_pawn(state, seat, pawn, Pawn(area, kind=kind)))
            if card is None:
                return placed
            return replace(placed, draw_pile=state.draw_pile[1:],
                           discard=state.discard if kept else state.discard + (card,),
                           set_aside=state.set_aside + (card,) if kept else state.set_aside)
        case PoliceToPlace(seat):
            return replace(state, current=seat, phase=Phase.PLACING)
        case SmugglerArrested(police_seat, smuggler_seat, _, confiscated, reward):
            smuggler = state.cab(smuggler_seat, 0)
            income = state.income[:police_seat] + (state.income[police_seat] + reward,) + state.income[police_seat + 1:]
            return replace(state, income=income, discard=state.discard + tuple(c for r in confiscated for c in state.person(r).cards),
                           pawns=_with_pawn(state, smuggler_seat, 0, replace(smuggler, riders=())))
        case StartCardRedrawn(_, card):
            return replace(state, draw_pile=state.draw_pile[1:], discard=state.discard + (card,))
        case DropOffChoice(_, _, candidates):
            return replace(state, dropoff_choice=candidates)
        case CardBurned(card):
            return replace(state, draw_pile=state.draw_pile[1:], discard=state.discard + (card,))
        case CitizenAppeared(citizen, origin, destination):
            return replace(_take(state, origin, destination), waiting=state.waiting + (citizen,),
                           citizens=_with_citizen(state, Citizen.drawn(citizen, origin, destination, version)))
        case PassengerBoardedAtSetup(seat, pawn, citizen, origin, destination):
            cab = state.cab(seat, pawn)
            return replace(_take(state, origin, destination),
                           citizens=_with_citizen(state, Citizen.drawn(citizen, origin, destination, version)),
                           pawns=_with_pawn(state, seat, pawn, replace(cab, riders=cab.riders + (citizen,))))
        case CoinFlipped(_, mode):
            return replace(state, two_pawn_mode=mode)
        case TurnStarted(seat, turn_no, round_no, pawns):
            alternation = state.alternation or (0,) * state.seats
            if state.two_pawn_mode is TwoPawnMode.ALTERNATE:
                alternation = alternation[:seat] + (1 - pawns[0],) + alternation[seat + 1:]
            return replace(state, current=seat, pawn=pawns[0], pawns_to_go=pawns[1:], phase=Phase.START, turn_no=turn_no,
                           round_no=round_no, die=None, steps_left=0, targets=(), moved_this_turn=False,
                           alternation=alternation)
        case PawnTurnStarted(_, pawn):
            switched = (state.pawn,) if state.phase is Phase.START else ()  # chosen to go second
            return replace(state, pawn=pawn, pawns_to_go=tuple(p for p in state.pawns_to_go if p != pawn) + switched,
                           phase=Phase.START, die=None, steps_left=0, targets=())
        case PassengersTransferred(seat, from_pawn, to_pawn, passengers):
            giver, taker = state.cab(seat, from_pawn), state.cab(seat, to_pawn)
            state = replace(state, pawns=_with_pawn(state, seat, from_pawn,
                                                    replace(giver, riders=tuple(r for r in giver.riders if r not in passengers))))
            return replace(state, pawns=_with_pawn(state, seat, to_pawn, replace(taker, riders=taker.riders + passengers)))
        case TurnSkipped(seat, _, reason):  # a skipped pawn turn does nothing at all (§7.3)
            if reason is SkipReason.SKIPPED_BY_FIVE:  # the whole turn
                return replace(state, skip_pending=state.skip_pending - {seat}, pawns_to_go=())
            return replace(state, phase=Phase.END, dropoff_choice=())  # over: no cab was chosen to go first
        case DieRolled(_, _, value, targets):
            return replace(state, die=value, steps_left={4: 4, 5: 1}.get(value, value), targets=targets)
        case PawnStepped(seat, pawn, _, to, target):
            cab = state.cab(seat, pawn)
            return replace(_left(state, cab.riders), pawns=_with_pawn(state, seat, pawn, replace(cab, area=to)), phase=Phase.MOVE,
                           moved_this_turn=True,
                           steps_left=state.steps_left - 1, targets=(target,) if target else state.targets)
        case MovementEnded():
            return replace(state, phase=Phase.END, end_started=version, moved_this_turn=True)
        case TurnSkipPending(seat):
            return replace(state, skip_pending=state.skip_pending | {seat})
        case PawnMoved(seat, pawn, _, to):
            cab = state.cab(seat, pawn)
            return replace(_left(state, cab.riders), pawns=_with_pawn(state, seat, pawn, replace(cab, area=to)), phase=Phase.END,
                           moved_this_turn=True,
                           end_started=version)
        case PawnStayed():
            return replace(state, phase=Phase.END, end_started=version, moved_this_turn=True)
        case PassengerDroppedOff(seat, pawn, citizen, _, fare):
            cab = state.cab(seat, pawn)
            income = state.income[:seat] + (state.income[seat] + fare,) + state.income[seat + 1:]
            return replace(state, income=income, discard=state.discard + state.person(citizen).cards, dropoff_choice=(),
                           pawns=_with_pawn(state, seat, pawn, replace(cab, riders=tuple(r for r in cab.riders if r != citizen))))
        case PassengerPickedUp(seat, pawn, citizen, area, _):
            cab = state.cab(seat, pawn)
            boarded = state.person(citizen)
            reverse = boarded.origin_area != area  # boarded at its destination (mirror board)
            return replace(state, waiting=tuple(c for c in state.waiting if c != citizen),
                           citizens=_with_citizen(state, replace(boarded, reverse=reverse)),
                           pawns=_with_pawn(state, seat, pawn, replace(cab, riders=cab.riders + (citizen,))))
        case HandDealt(seat, cards):
            hands = state.hands or ((),) * state.seats
            return replace(state, draw_pile=tuple(c for c in state.draw_pile if c not in cards),
                           hands=hands[:seat] + (cards,) + hands[seat + 1:])
        case HiddenCardsRedealt(order, hands):  # hands of the same sizes: nothing else changes
            return replace(state, hands=hands, draw_pile=order[sum(len(hand) for hand in hands):])
        case PassengerRerouted(seat, passenger, _, old_card, new_card):
            rider = state.person(passenger)
            rerouted = replace(rider, origin=new_card) if rider.origin == old_card else replace(rider, destination=new_card)
            hand = tuple(c for c in state.hands[seat] if c != new_card)
            return replace(state, citizens=_with_citizen(state, rerouted), discard=state.discard + (old_card,),
                           hands=state.hands[:seat] + (hand,) + state.hands[seat + 1:])
        case DestinationDrawn(citizen, card):
            waited = state.person(citizen)
            cancelled = Citizen.drawn(citizen, waited.origin, card, waited.appeared_at).cancelled
            return replace(_take(state, card), citizens=_with_citizen(state, replace(waited, destination=card, cancelled=cancelled)))
        case TurnEnded(seat, pawn):
            cab = state.cab(seat, pawn)
            return replace(state, pawns=_with_pawn(state, seat, pawn, replace(cab, last_turn_end=version)), dropoff_choice=())
        case PlayerForfeited(seat):
            riders = [c for pawn in state.pawns[seat] for c in pawn.riders]
            cards = tuple(card for c in riders for card in state.person(c).cards)
            gone = state.pawns[:seat] + (tuple(Pawn(None) for _ in state.pawns[seat]),) + state.pawns[seat + 1:]
            left = replace(state, pawns=gone, discard=state.discard + cards, forfeited=state.forfeited + (seat,))
            return replace(left, pawns_to_go=(), dropoff_choice=()) if seat == state.current else left
        case GameEnded(incomes, ranking, reason):
            return replace(state, phase=Phase.OVER, result=Result(incomes, ranking, reason))
        case _:
            assert_never(event)
