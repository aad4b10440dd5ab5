"""The application's operations called directly, with no HTTP: a lobby over the store of
tests/conftest.py (fakeredis and a real Redis server alike), a caller that counts what it is
asked to, and games to copy."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
import redis

from application.lobby import GameSettings, Lobby
from domain import GAMES
from events.execute import Executor
from players.accounts import PlayerStore
from players.invitations import Invitations

LOBBY_SECONDS = 3600


@dataclass
class Asking:
    """A caller: the registered `player` asking (None: someone unregistered), as the admin or
    not; it counts the games and the strangers' invitations it is asked to."""

    player: str | None = None
    admin: bool = False
    games: int = 0
    strangers: list[str] = field(default_factory=list)

    def creator(self, reserving: bool) -> str | None:
        if reserving and self.player is None:
            raise PermissionError("reserving a seat needs a registered creator")
        return self.player

    def is_admin(self) -> bool:
        return self.admin

    def count_game(self) -> None:
        self.games += 1

    def count_invitations(self, strangers: list[str]) -> None:
        self.strangers += strangers


@pytest.fixture
def lobby(executor: Executor, client: redis.Redis) -> Lobby:  # type: ignore[type-arg]
    players = PlayerStore(client)
    for player_id in ("ann", "bo", "cy"):
        players.register(player_id, player_id.title(), f"token-of-{player_id}-0123456789")
    return Lobby(executor, players, Invitations(client, max_blocks=10), LOBBY_SECONDS)


def full_game(lobby: Lobby, holders: tuple[str | None, str | None] = ("ann", "bo")) -> str:
    """A two-seat TAKI game in play, its seats taken by `holders` (None: someone unregistered)."""
    game_id = lobby.open("taki", {}, 2, GameSettings(), Asking()).game_id
    for seat, holder in enumerate(holders):
        lobby.join(game_id, seat, holder or f"guest {seat}", player_id=holder)
    return game_id


def finished_game(lobby: Lobby, holders: tuple[str | None, str | None] = ("ann", "bo")) -> str:
    """A two-seat TAKI game that seat 0 gave up right after the setup."""
    game_id = full_game(lobby, holders)
    lobby.executor.execute(game_id, GAMES["taki"].forfeit_command(0), actor="seat:0")
    return game_id
