"""A seat's command played on the state this process holds, or on the game read anew."""

from __future__ import annotations

import pytest

from application import playing
from application.errors import NotNow
from application.lobby import GameSettings, Lobby
from domain import GAMES
from events import clock
from events.envelope import Lifecycle
from events.errors import VersionConflict
from events.execute import Executor
from tests.application.conftest import Asking, full_game


def to_move(executor: Executor, game_id: str) -> int:
    loaded = executor.load(game_id)
    return loaded.game.status(loaded.state).to_move[0]


def test_the_seat_to_move_plays_on_the_state_this_process_holds(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    seat = to_move(lobby.executor, game_id)
    loaded, played_by = playing.game_to_play(lobby.executor, game_id, lambda record: seat)
    assert loaded.held and played_by == seat and loaded.version == lobby.executor.store.games.get(game_id).version


def test_a_seat_not_to_move_in_the_state_held_plays_on_the_game_read_anew(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    other = 1 - to_move(lobby.executor, game_id)
    loaded, played_by = playing.game_to_play(lobby.executor, game_id, lambda record: other)
    assert not loaded.held and played_by == other


def test_a_game_this_process_does_not_hold_is_read_from_the_store(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    seat = to_move(lobby.executor, game_id)
    elsewhere = Executor(lobby.executor.store)
    loaded, _ = playing.game_to_play(elsewhere, game_id, lambda record: seat)
    assert not loaded.held and loaded.version == lobby.executor.store.games.get(game_id).version


def test_a_command_played_is_appended_as_its_seats(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    loaded, seat = playing.game_to_play(lobby.executor, game_id, lambda record: 0)
    done = playing.play(lobby.executor, loaded, seat, GAMES["taki"].forfeit_command(seat), expected_version=loaded.version,
                        idempotency_key="once", fingerprint="forfeit")
    assert done.finished and lobby.executor.store.games.get(game_id).status is Lifecycle.FINISHED
    assert {e.actor for e in lobby.executor.store.streams.read(game_id, after=loaded.version)} == {"seat:0"}
    again = playing.play(lobby.executor, loaded, seat, GAMES["taki"].forfeit_command(seat), expected_version=loaded.version,
                         idempotency_key="once", fingerprint="forfeit")
    assert again.replayed and again.version == done.version


def test_a_command_for_a_version_the_game_has_left_is_refused(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    loaded, seat = playing.game_to_play(lobby.executor, game_id, lambda record: 0)
    with pytest.raises(VersionConflict):
        playing.play(lobby.executor, loaded, seat, GAMES["taki"].forfeit_command(seat), expected_version=loaded.version - 1,
                     idempotency_key=None, fingerprint="")


def test_a_game_in_play_takes_commands(lobby: Lobby) -> None:
    playing.check_under_way(lobby.executor.load(full_game(lobby)))


def test_a_game_waiting_for_its_seats_takes_no_command(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 2, GameSettings(), Asking()).game_id
    with pytest.raises(NotNow) as refused:
        playing.check_under_way(lobby.executor.load(game_id))
    assert refused.value.code == "game_not_started"


def test_a_cancelled_game_takes_no_command(lobby: Lobby, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = lobby.open("taki", {}, 2, GameSettings(lobby_seconds=60), Asking()).game_id
    now = clock.now
    monkeypatch.setattr(clock, "now", lambda: now() + 3600 * 1000)
    assert lobby.executor.store.seats.cancel_lobby(game_id)
    with pytest.raises(NotNow) as refused:
        playing.check_under_way(lobby.executor.load(game_id))
    assert refused.value.code == "game_cancelled"
