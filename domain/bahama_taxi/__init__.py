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
`docs/rules/bahama_taxi.md`; functions cite their sections.
"""

from domain.bahama_taxi.audit import audit
from domain.bahama_taxi.bot import BOTS
from domain.bahama_taxi.commands import Command, Forfeit
from domain.bahama_taxi.decide import decide
from domain.bahama_taxi.events import CODEC, Event
from domain.bahama_taxi.evolve import evolve, initial
from domain.bahama_taxi.options import TaxiOptions, check_options
from domain.bahama_taxi.rules import legal_commands, listed_form, response_seconds, timeout_command
from domain.bahama_taxi.setup import MAX_SEATS, MIN_SEATS, redeal, setup
from domain.bahama_taxi.state import TaxiState, status
from domain.bahama_taxi.views import redact, render, view
from domain.core.game import Game

BAHAMA_TAXI: Game[TaxiState, Command, Event, TaxiOptions] = Game(
    name="bahama_taxi",
    title="Bahama Taxi",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    options_type=TaxiOptions,
    check_options=check_options,
    initial=initial,
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    view=view,
    redact=redact,
    status=status,
    events=CODEC,
    bots=BOTS,
    timeout_command=timeout_command,
    forfeit_command=Forfeit,
    response_seconds=response_seconds,
    render=render,
    audit=audit,
    listed_form=listed_form,
    redeal=redeal,
)
