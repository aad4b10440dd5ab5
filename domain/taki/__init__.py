"""TAKI, the shedding card game, for 2 to 10 players with the 116-card deck.

Each player is dealt eight cards; a card may be played on the discard pile when it matches
the active colour or the leading card's figure, or is wild. Action cards skip (Stop), make the
next player draw (+2, stacking), reverse (Change Direction), ask for another card (Plus),
choose the colour (Change Color), open runs of one colour (TAKI, SuperTaki), cancel and free
the next card (King), make everyone else draw three (+3) unless someone breaks it (+3 Breaker).
A player on one card must say "Last card!" or draw four. The first player with no cards wins;
in tournament mode players climb down stages 8 to 1 before they can win. A seat may also
leave the game for good (`Forfeit`, Meeple's own rule: see `decide.forfeit`).

Where each rule lives: the cards `cards.py`, the variants `options.py`, the shuffle and the deal
`setup.py`; what a command causes, each rule checked where it applies (§6 which card, §7 a play,
§8 what a card does, §9 runs, §11 the +3 window, §12 drawing, §13 "Last card!", §14 and §15 the
end and the stages) `decide.py`; why a command is refused (by deciding it in trial), what a seat
may send and what a deadline does (§17) `rules.py`; each fact into the state `evolve.py`; who
sees what `views.py`. The full rules are `domain/taki/rulebook.md`; each function cites the section
it applies.
"""

from domain.core.game import Game, assemble
from domain.taki import audit, bot, commands, decide, events, evolve, options, rules, setup, state, views
from domain.taki.commands import Command, Forfeit
from domain.taki.events import Event
from domain.taki.options import TakiOptions
from domain.taki.state import TakiState

TAKI: Game[TakiState, Command, Event, TakiOptions] = assemble(
    "taki", "TAKI", TakiOptions, Forfeit, options=options, setup=setup, rules=rules, decide=decide, evolve=evolve,
    state=state, views=views, events=events, commands=commands, bot=bot, audit=audit)
