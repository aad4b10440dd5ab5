"""Setting up the city through the rng (§4, §11.5, §11.6, §11.12), and a fork's fresh deal of the hidden cards."""

from __future__ import annotations

from domain.bahama_taxi.cards import area_of, contraband_deck, deck
from domain.bahama_taxi.decide import TaxiRecorder, next_turn
from domain.bahama_taxi.events import (
    CardBurned,
    CitizenAppeared,
    Coin,
    CoinFlipped,
    DeckShuffled,
    Event,
    HandDealt,
    HiddenCardsRedealt,
    PassengerBoardedAtSetup,
    PawnPlaced,
    PoliceToPlace,
    StartCardRedrawn,
)
from domain.bahama_taxi.evolve import initial
from domain.bahama_taxi.options import Setup, TaxiOptions, TwoPawnMode, decks
from domain.bahama_taxi.passengers import new_citizen
from domain.bahama_taxi.state import TaxiState
from domain.core.rng import Rng
from domain.core.shuffles import fresh_deal, seal

MIN_SEATS, MAX_SEATS = 2, 8


def full_deck(options: TaxiOptions, seats: int) -> tuple[str, ...]:
    """Every card the game is played with (§3, §11.12), unshuffled."""
    return contraband_deck() if options.contraband else deck(decks(seats))


def setup(options: TaxiOptions, seats: int, rng: Rng) -> tuple[Event, ...]:
    recorder = TaxiRecorder(initial(options, seats), rng)
    order = rng.shuffled(full_deck(options, seats))
    recorder.emit(DeckShuffled(order, *seal(order, rng)))
    if options.cabs_per_player == 2 or options.contraband:  # §11.8, §11.12: one coin for the whole game
        if options.two_cab_mode is TwoPawnMode.COIN:
            heads = rng.randint(0, 1) == 1
            recorder.emit(CoinFlipped(Coin.HEADS if heads else Coin.TAILS, TwoPawnMode.BOTH if heads else TwoPawnMode.ALTERNATE))
        else:
            recorder.emit(CoinFlipped(Coin.CHOSEN, options.two_cab_mode))
    if options.contraband:  # §11.12: the goods, then each seat places its police
        for _ in range(options.initial_citizens):
            recorder.emit(new_citizen(recorder.state))
        recorder.emit(PoliceToPlace(0))
        return tuple(recorder.events)
    special = options.setup is not Setup.STANDARD
    cabs = [(seat, pawn) for seat in range(seats) for pawn in range(options.cabs_per_player)]
    for seat, pawn in cabs:  # §4.2: each cab on its start card, discarded unless a special setup keeps it
        while area_of(card := recorder.state.draw_pile[0]) in recorder.state.occupied():  # §11.7: a second copy
            recorder.emit(StartCardRedrawn(seat, card))
        recorder.emit(PawnPlaced(seat, pawn, area_of(card), card, kept=special))
    if options.hand_size:  # §11.11: one card at a time, round-robin from seat 0
        dealt = recorder.state.draw_pile[: options.hand_size * seats]
        for seat in range(seats):
            recorder.emit(HandDealt(seat, dealt[seat::seats]))
    if options.setup is Setup.SHIFT_CHANGE:
        _shift_change(recorder, cabs)
    elif options.setup is Setup.START_AS_DESTINATION:
        for seat, start in enumerate(recorder.state.set_aside):  # §11.6: a new origin for each start card
            recorder.emit(CitizenAppeared(f"c{seat + 1}", recorder.state.draw_pile[0], start))
    if options.parity_burn and len(recorder.state.draw_pile) % 2:  # §4.3
        recorder.emit(CardBurned(recorder.state.draw_pile[0]))
    for _ in range(options.initial_citizens):  # §4.4
        recorder.emit(new_citizen(recorder.state))
    next_turn(recorder)
    return tuple(recorder.events)


def redeal(state: TaxiState, rng: Rng) -> tuple[Event, ...]:
    """A fork's fresh deal (Meeple's own rule): the pile and the hands (§11.11) reshuffled, hands of the same sizes."""
    # the original's log shows the pile's order and every hand; what lies face up stays as it is
    dealt = fresh_deal(state.hands, state.draw_pile, rng)
    return () if dealt is None else (HiddenCardsRedealt(*dealt),)


def _shift_change(recorder: TaxiRecorder, cabs: list[tuple[int, int]]) -> None:
    """§11.5: each cab's first passenger is its start card and the next card; two more pairs fill it."""
    # the draws' order: the second cards in seat order, then the pairs, two a cab
    starts = recorder.state.set_aside
    for number, (seat, pawn) in enumerate(cabs):
        recorder.emit(PassengerBoardedAtSetup(seat, pawn, f"c{number + 1}", starts[number], recorder.state.draw_pile[0]))
    for seat, pawn in cabs:
        for _ in range(2):
            origin, destination = recorder.state.draw_pile[:2]
            recorder.emit(PassengerBoardedAtSetup(seat, pawn, f"c{len(recorder.state.citizens) + 1}", origin, destination))
