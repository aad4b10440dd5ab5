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
    """The events that deal a new game: the sealed shuffle, the coin, the cabs, the hands, the first citizens."""
    recorder = TaxiRecorder(initial(options, seats), rng)
    order = rng.shuffled(full_deck(options, seats))
    recorder.emit(DeckShuffled(order, *seal(order, rng)))
    if options.cabs_per_player == 2 or options.contraband:  # §11.8, §11.12: one coin for the whole game
        recorder.emit(_coin(options, rng))
    if options.contraband:  # §11.12: the goods, then each seat places its police
        _draw_citizens(recorder, options.initial_citizens)
        recorder.emit(PoliceToPlace(0))
        return tuple(recorder.events)
    cabs = [(seat, pawn) for seat in range(seats) for pawn in range(options.cabs_per_player)]
    _place_cabs(recorder, cabs, kept=options.setup is not Setup.STANDARD)
    if options.hand_size:  # §11.11: one card at a time, round-robin from seat 0
        dealt = recorder.state.draw_pile[: options.hand_size * seats]
        recorder.emit(*(HandDealt(seat, dealt[seat::seats]) for seat in range(seats)))
    if options.setup is Setup.SHIFT_CHANGE:
        _shift_change(recorder, cabs)
    elif options.setup is Setup.START_AS_DESTINATION:
        _start_as_destination(recorder)
    if options.parity_burn and len(recorder.state.draw_pile) % 2:  # §4.3
        recorder.emit(CardBurned(recorder.state.draw_pile[0]))
    _draw_citizens(recorder, options.initial_citizens)  # §4.4
    next_turn(recorder)
    return tuple(recorder.events)


def _coin(options: TaxiOptions, rng: Rng) -> CoinFlipped:
    """§11.8: heads, every turn moves both cabs; tails, they alternate; or the mode the options chose."""
    if options.two_cab_mode is not TwoPawnMode.COIN:
        return CoinFlipped(Coin.CHOSEN, options.two_cab_mode)
    heads = rng.randint(0, 1) == 1
    return CoinFlipped(Coin.HEADS if heads else Coin.TAILS, TwoPawnMode.BOTH if heads else TwoPawnMode.ALTERNATE)


def _place_cabs(recorder: TaxiRecorder, cabs: list[tuple[int, int]], kept: bool) -> None:
    """§4.2: each cab on its start card, discarded unless a special setup keeps it (§11.5, §11.6)."""
    for seat, pawn in cabs:
        while area_of(card := recorder.state.draw_pile[0]) in recorder.state.occupied():  # §11.7: a second copy
            recorder.emit(StartCardRedrawn(seat, card))
        recorder.emit(PawnPlaced(seat, pawn, area_of(card), card, kept=kept))


def _start_as_destination(recorder: TaxiRecorder) -> None:
    """§11.6: each start card set aside is the destination of a citizen with a new origin."""
    for seat, start in enumerate(recorder.state.set_aside):
        recorder.emit(CitizenAppeared(f"c{seat + 1}", recorder.state.draw_pile[0], start))


def _draw_citizens(recorder: TaxiRecorder, count: int) -> None:
    for _ in range(count):
        recorder.emit(new_citizen(recorder.state))


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


def redeal(state: TaxiState, rng: Rng) -> tuple[Event, ...]:
    """A fork's fresh deal (Meeple's own rule): the pile and the hands (§11.11) reshuffled, hands of the same sizes."""
    # the original's log shows the pile's order and every hand; what lies face up stays as it is
    dealt = fresh_deal(state.hands, state.draw_pile, rng)
    return () if dealt is None else (HiddenCardsRedealt(*dealt),)
