"""Djambi, "Machiavelli's chessboard": four players (or three and a hostage army) on a 9×9
board whose centre, E5, is the maze.

Each player moves one piece a turn, in a straight line without jumping. Militants, the chief,
the assassin and the reporter kill; the diplomat moves living enemy pieces, the necromobile
moves corpses. Only a chief may stay on the maze: it is then in power, and its player plays
after every other player. A player whose chief dies is out, and the killer takes over every
army that player controlled; a chief shut in by corpses dies too, and its armies wait, inert,
for the next player in power. The last player with a living chief wins.

Where each rule lives: the board `board.py`, the armies `pieces.py`, what one action may do
(movement, targets, each piece, the maze) `moves.py`; why a command is refused (validation,
draw offers) and what a seat may send `rules.py`; what a command causes (army capture, the end
of a turn, encirclement, devolution, turn order, passes, draws) `decide.py`; each fact into
the state `evolve.py`. The full rules are `docs/rules/djambi.md`; each function cites the
section it applies.
"""

from domain.core.game import Game
from domain.djambi.audit import audit
from domain.djambi.bot import BOTS
from domain.djambi.commands import Command, Resign
from domain.djambi.decide import decide
from domain.djambi.events import CODEC, Event
from domain.djambi.evolve import evolve, initial
from domain.djambi.options import DjambiOptions, check_options
from domain.djambi.rules import legal_commands, listed_form, response_seconds, timeout_command
from domain.djambi.setup import MAX_SEATS, MIN_SEATS, setup
from domain.djambi.state import DjambiState, status
from domain.djambi.views import redact, render, view

DJAMBI: Game[DjambiState, Command, Event, DjambiOptions] = Game(
    name="djambi",
    title="Djambi",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    options_type=DjambiOptions,
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
    forfeit_command=Resign,
    listed_form=listed_form,
    response_seconds=response_seconds,
    render=render,
    audit=audit,
)
