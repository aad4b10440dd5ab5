"""The rules of every game Meeple hosts, free of I/O: one decider per game."""

from domain.core.game import Game
from domain.taki import TAKI

GAMES: dict[str, Game] = {game.name: game for game in (TAKI,)}  # type: ignore[type-arg]
