"""Facts into state, nothing else, in the order of the rules' sections: evolve records what `decide` ruled."""

from __future__ import annotations

from typing import Any, assert_never

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
from domain.core.record_copies import replace


def initial(options: TaxiOptions, seats: int) -> TaxiState:
    """The empty city before the shuffle."""
    return TaxiState(options=options, seats=seats, income=(0,) * seats, pawns=((),) * seats)


def _with_pawn(pawns: tuple[tuple[Pawn, ...], ...], seat: int, pawn: int, new: Pawn) -> tuple[tuple[Pawn, ...], ...]:
    """The pawns with the seat's `pawn` replaced by `new`."""
    mine = pawns[seat]
    return pawns[:seat] + (mine[:pawn] + (new,) + mine[pawn + 1:],) + pawns[seat + 1:]


def _with_citizen(citizens: tuple[Citizen, ...], citizen: Citizen) -> tuple[Citizen, ...]:
    """The citizens with `citizen` new or changed."""
    index = int(citizen.id[1:]) - 1
    return citizens[:index] + (citizen,) + citizens[index + 1:]


def _left(state: TaxiState, riders: tuple[str, ...]) -> tuple[Citizen, ...]:
    """The citizens once the cab moves: its passengers have left the area where they boarded."""
    citizens = state.citizens
    for rider in riders:
        if not (citizen := state.person(rider)).left_pickup_area:
            citizens = _with_citizen(citizens, replace(citizen, left_pickup_area=True))
    return citizens


def _take(state: TaxiState, *cards: str | None) -> dict[str, Any]:
    """A citizen's cards leave the draw pile (or the start cards set aside)."""
    return dict(draw_pile=tuple(c for c in state.draw_pile if c not in cards),
                set_aside=tuple(c for c in state.set_aside if c not in cards))


def evolve(state: TaxiState, event: Event) -> TaxiState:  # noqa: C901 - one case per event, in the rules' order
    """`state` after `event`: copied once, with what the event changes and the next version."""
    version = state.version + 1
    match event:
        # §4: setup
        case DeckShuffled(order):
            return replace(state, version=version, draw_pile=order)
        case PawnPlaced(seat, pawn, area, card, kept, kind):
            placed = _with_pawn(state.pawns, seat, pawn, Pawn(area, kind=kind))
            if card is None:
                return replace(state, version=version, pawns=placed)
            return replace(state, version=version, pawns=placed, draw_pile=state.draw_pile[1:],
                           discard=state.discard if kept else state.discard + (card,),
                           set_aside=state.set_aside + (card,) if kept else state.set_aside)
        case CardBurned(card):
            return replace(state, version=version, draw_pile=state.draw_pile[1:], discard=state.discard + (card,))
        # §6: the turn
        case TurnStarted(seat, turn_no, round_no, pawns):
            alternation = state.alternation or (0,) * state.seats
            if state.two_pawn_mode is TwoPawnMode.ALTERNATE:
                alternation = alternation[:seat] + (1 - pawns[0],) + alternation[seat + 1:]
            return replace(state, version=version, current=seat, pawn=pawns[0], pawns_to_go=pawns[1:],
                           phase=Phase.START, turn_no=turn_no, round_no=round_no, die=None, steps_left=0, targets=(),
                           moved_this_turn=False, alternation=alternation)
        case TurnEnded(seat, pawn):
            cab = state.cab(seat, pawn)
            return replace(state, version=version,
                           pawns=_with_pawn(state.pawns, seat, pawn, replace(cab, last_turn_end=version)),
                           dropoff_choice=())
        # §7: movement
        case PawnMoved(seat, pawn, _, to):
            cab = state.cab(seat, pawn)
            return replace(state, version=version, citizens=_left(state, cab.riders),
                           pawns=_with_pawn(state.pawns, seat, pawn, replace(cab, area=to)), phase=Phase.END,
                           moved_this_turn=True, end_started=version)
        case PawnStayed():
            return replace(state, version=version, phase=Phase.END, end_started=version, moved_this_turn=True)
        case TurnSkipped(seat, _, reason):  # a skipped pawn turn does nothing at all (§7.3)
            if reason is SkipReason.SKIPPED_BY_FIVE:  # the whole turn
                return replace(state, version=version, skip_pending=state.skip_pending - {seat}, pawns_to_go=())
            # over: no cab was chosen to go first
            return replace(state, version=version, phase=Phase.END, dropoff_choice=())
        # §8: citizens and passengers
        case PassengerDroppedOff(seat, pawn, citizen, _, fare):
            cab = state.cab(seat, pawn)
            income = state.income[:seat] + (state.income[seat] + fare,) + state.income[seat + 1:]
            return replace(state, version=version, income=income, discard=state.discard + state.person(citizen).cards,
                           dropoff_choice=(),
                           pawns=_with_pawn(state.pawns, seat, pawn,
                                            replace(cab, riders=tuple(r for r in cab.riders if r != citizen))))
        case PassengerPickedUp(seat, pawn, citizen, area, _):
            cab = state.cab(seat, pawn)
            boarded = state.person(citizen)
            reverse = boarded.origin_area != area  # boarded at its destination (mirror board)
            return replace(state, version=version, waiting=tuple(c for c in state.waiting if c != citizen),
                           citizens=_with_citizen(state.citizens, replace(boarded, reverse=reverse)),
                           pawns=_with_pawn(state.pawns, seat, pawn, replace(cab, riders=cab.riders + (citizen,))))
        case CitizenAppeared(citizen, origin, destination):  # each replenishment (§8.4), and the first citizens (§4.4)
            return replace(state, version=version, **_take(state, origin, destination),
                           waiting=state.waiting + (citizen,),
                           citizens=_with_citizen(state.citizens, Citizen.drawn(citizen, origin, destination, version)))
        # §9: the end of the game
        case GameEnded(incomes, ranking, reason):
            return replace(state, version=version, phase=Phase.OVER, result=Result(incomes, ranking, reason))
        # §11.5, §11.7: shift change, two decks
        case PassengerBoardedAtSetup(seat, pawn, citizen, origin, destination):
            cab = state.cab(seat, pawn)
            return replace(state, version=version, **_take(state, origin, destination),
                           citizens=_with_citizen(state.citizens, Citizen.drawn(citizen, origin, destination, version)),
                           pawns=_with_pawn(state.pawns, seat, pawn, replace(cab, riders=cab.riders + (citizen,))))
        case StartCardRedrawn(_, card):
            return replace(state, version=version, draw_pile=state.draw_pile[1:], discard=state.discard + (card,))
        case DropOffChoice(_, _, candidates):
            return replace(state, version=version, dropoff_choice=candidates)
        # §11.8: two cabs
        case CoinFlipped(_, mode):
            return replace(state, version=version, two_pawn_mode=mode)
        case PawnTurnStarted(_, pawn):
            switched = (state.pawn,) if state.phase is Phase.START else ()  # chosen to go second
            return replace(state, version=version, pawn=pawn,
                           pawns_to_go=tuple(p for p in state.pawns_to_go if p != pawn) + switched, phase=Phase.START,
                           die=None, steps_left=0, targets=())
        case PassengersTransferred(seat, from_pawn, to_pawn, passengers):
            giver, taker = state.cab(seat, from_pawn), state.cab(seat, to_pawn)
            given = _with_pawn(state.pawns, seat, from_pawn,
                               replace(giver, riders=tuple(r for r in giver.riders if r not in passengers)))
            return replace(state, version=version,
                           pawns=_with_pawn(given, seat, to_pawn, replace(taker, riders=taker.riders + passengers)))
        # §11.9: unknown destinations
        case DestinationDrawn(citizen, card):
            waited = state.person(citizen)
            cancelled = Citizen.drawn(citizen, waited.origin, card, waited.appeared_at).cancelled
            return replace(state, version=version, **_take(state, card),
                           citizens=_with_citizen(state.citizens,
                                                  replace(waited, destination=card, cancelled=cancelled)))
        # §11.10: dice
        case DieRolled(_, _, value, targets):
            return replace(state, version=version, die=value, steps_left={4: 4, 5: 1}.get(value, value),
                           targets=targets)
        case PawnStepped(seat, pawn, _, to, target):
            cab = state.cab(seat, pawn)
            return replace(state, version=version, citizens=_left(state, cab.riders),
                           pawns=_with_pawn(state.pawns, seat, pawn, replace(cab, area=to)), phase=Phase.MOVE,
                           moved_this_turn=True, steps_left=state.steps_left - 1,
                           targets=(target,) if target else state.targets)
        case MovementEnded():
            return replace(state, version=version, phase=Phase.END, end_started=version, moved_this_turn=True)
        case TurnSkipPending(seat):
            return replace(state, version=version, skip_pending=state.skip_pending | {seat})
        # §11.11: the four-card hand
        case HandDealt(seat, cards):
            hands = state.hands or ((),) * state.seats
            return replace(state, version=version, draw_pile=tuple(c for c in state.draw_pile if c not in cards),
                           hands=hands[:seat] + (cards,) + hands[seat + 1:])
        case PassengerRerouted(seat, passenger, _, old_card, new_card):
            rider = state.person(passenger)
            rerouted = replace(rider, origin=new_card) if rider.origin == old_card else replace(rider, destination=new_card)
            hand = tuple(c for c in state.hands[seat] if c != new_card)
            return replace(state, version=version, citizens=_with_citizen(state.citizens, rerouted),
                           discard=state.discard + (old_card,),
                           hands=state.hands[:seat] + (hand,) + state.hands[seat + 1:])
        # §11.12: Bahama Contraband
        case PoliceToPlace(seat):
            return replace(state, version=version, current=seat, phase=Phase.PLACING)
        case SmugglerArrested(police_seat, smuggler_seat, _, confiscated, reward):
            smuggler = state.cab(smuggler_seat, 0)
            income = state.income[:police_seat] + (state.income[police_seat] + reward,) + state.income[police_seat + 1:]
            return replace(state, version=version, income=income,
                           discard=state.discard + tuple(c for r in confiscated for c in state.person(r).cards),
                           pawns=_with_pawn(state.pawns, smuggler_seat, 0, replace(smuggler, riders=())))
        # Meeple's own rules: leaving the game, a fork's fresh deal
        case PlayerForfeited(seat):
            riders = [c for pawn in state.pawns[seat] for c in pawn.riders]
            cards = tuple(card for c in riders for card in state.person(c).cards)
            gone = state.pawns[:seat] + (tuple(Pawn(None) for _ in state.pawns[seat]),) + state.pawns[seat + 1:]
            its_turn = dict(pawns_to_go=(), dropoff_choice=()) if seat == state.current else {}  # its turn ends
            return replace(state, version=version, pawns=gone, discard=state.discard + cards,
                           forfeited=state.forfeited + (seat,), **its_turn)
        case HiddenCardsRedealt(order, hands):  # hands of the same sizes: nothing else changes
            return replace(state, version=version, hands=hands, draw_pile=order[sum(len(hand) for hand in hands):])
        case _:
            assert_never(event)
