"""The rules of every game Meeple hosts, free of I/O: one decider per game."""

from domain.bahama_taxi import BAHAMA_TAXI
from domain.core.game import Game
from domain.djambi import DJAMBI
from domain.taki import TAKI

GAMES: dict[str, Game] = {game.name: game for game in (TAKI, DJAMBI, BAHAMA_TAXI)}  # type: ignore[type-arg]
