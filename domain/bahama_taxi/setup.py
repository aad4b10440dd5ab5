"""Setting up the city (§4): shuffle, place the cabs on start cards, burn a card for parity,
draw the first citizens, and start seat 0's turn."""

from __future__ import annotations

from domain.bahama_taxi.cards import area_of, deck
from domain.bahama_taxi.events import CardBurned, CitizenAppeared, DeckShuffled, Event, PawnPlaced
from domain.bahama_taxi.evolve import initial
from domain.bahama_taxi.options import TaxiOptions
from domain.bahama_taxi.rules import Table, next_turn
from domain.core.rng import Rng

MIN_SEATS, MAX_SEATS = 2, 4


def setup(options: TaxiOptions, seats: int, rng: Rng) -> tuple[Event, ...]:
    table = Table(initial(options, seats))
    table.emit(DeckShuffled(rng.shuffled(deck(1))))
    for seat in range(seats):  # §4.2: each cab on its start card, which is then discarded
        card = table.state.draw_pile[0]
        table.emit(PawnPlaced(seat, 0, area_of(card), card))
    if options.parity_burn and len(table.state.draw_pile) % 2:  # §4.3
        table.emit(CardBurned(table.state.draw_pile[0]))
    for number in range(1, options.initial_citizens + 1):  # §4.4: first card the origin
        origin, destination = table.state.draw_pile[:2]
        table.emit(CitizenAppeared(f"c{number}", origin, destination))
    next_turn(table)
    return tuple(table.events)
