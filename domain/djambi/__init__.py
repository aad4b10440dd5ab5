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
the state `evolve.py`. The full rules are `domain/djambi/rulebook.md`; each function cites the
section it applies.
"""

from domain.core.game import Game, assemble
from domain.djambi import audit, bot, commands, decide, events, evolve, options, rules, setup, state, views
from domain.djambi.commands import Command, Resign
from domain.djambi.events import Event
from domain.djambi.options import DjambiOptions
from domain.djambi.state import DjambiState

DJAMBI: Game[DjambiState, Command, Event, DjambiOptions] = assemble(
    "djambi", "Djambi", DjambiOptions, Resign, options=options, setup=setup, rules=rules, decide=decide, evolve=evolve,
    state=state, views=views, events=events, commands=commands, bot=bot, audit=audit)
