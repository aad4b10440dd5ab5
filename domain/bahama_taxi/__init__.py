"""Bahama Taxi, pick-up-and-deliver in a city of 52 areas, one per playing card.

Each player drives a cab (or two; in Bahama Contraband, a smuggler and a police). A citizen
is a pair of cards: it waits at the area of the first and wants to go to the area of the
second, and pays the shortest-path distance between them when delivered. On its turn a cab
moves to an adjacent free area; passengers bound there get out and pay, then the cab may take
waiting citizens there (three at most; fewer near the end).
Each pickup draws a new citizen while the pile lasts. The game ends the moment no citizen is
waiting; the highest income wins.

Where each rule lives: the city and its fares `board.py`, the deck `cards.py`, setup
`setup.py`; why a command is refused now and what a seat may send `rules.py` (each rule checked
in one function), with who may board, who gets out and what a ride pays `passengers.py`, and
which cab acts, where a pawn may drive and Contraband's arrests `pawns.py`; the events a command
causes and the course of the turn it sets going (drop-offs, pickups, the next pawn turn, dice
rolls, the end of the game) `decide.py`; the facts into state `evolve.py`. The full rules are
`domain/bahama_taxi/rulebook.md`; functions cite their sections.
"""

from domain.bahama_taxi import audit, bot, commands, decide, events, evolve, options, rules, setup, state, views
from domain.bahama_taxi.commands import Command, Forfeit
from domain.bahama_taxi.events import Event
from domain.bahama_taxi.options import TaxiOptions
from domain.bahama_taxi.state import TaxiState
from domain.core.game import Game, assemble

BAHAMA_TAXI: Game[TaxiState, Command, Event, TaxiOptions] = assemble(
    "bahama_taxi", "Bahama Taxi", TaxiOptions, Forfeit, options=options, setup=setup, rules=rules, decide=decide, evolve=evolve,
    state=state, views=views, events=events, commands=commands, bot=bot, audit=audit)
