"""Opening, joining, starting and leaving games, called as the API and the reactor call them."""

from __future__ import annotations

import pytest
import redis

from application.errors import Invalid
from application.lobby import Bot, GameSettings, Lobby, start
from events import keys
from events.envelope import Lifecycle
from events.errors import GameNotFound, SeatNotLeft, SeatUnavailable
from tests.application.conftest import LOBBY_SECONDS, Asking, full_game


def test_a_game_opened_waits_for_its_seats_for_the_lobby_time(lobby: Lobby) -> None:
    caller = Asking("ann")
    opened = lobby.open("taki", {}, 3, GameSettings(spectator_delay=2), caller)
    record = lobby.executor.store.games.get(opened.game_id)
    assert (opened.creator, opened.new, caller.games) == ("ann", True, 1)
    assert (record.status, record.seats, record.spectator_delay, record.creator) == (Lifecycle.WAITING, 3, 2, "ann")
    assert record.lobby_until == record.created + LOBBY_SECONDS * 1000


def test_a_game_whose_ais_fill_it_starts_at_once(lobby: Lobby) -> None:
    bots = (Bot(0, "random"), Bot(1, "greedy"))
    opened = lobby.open("taki", {}, 2, GameSettings(bots=bots, lobby_seconds=60), Asking())
    record = lobby.executor.store.games.get(opened.game_id)
    assert (record.status, record.bots) == (Lifecycle.ACTIVE, ("random", "greedy")) and record.version > 0
    assert record.lobby_until == record.created + 60 * 1000


def test_a_reserved_seat_invites_its_player_and_counts_a_strangers_invitation(lobby: Lobby) -> None:
    caller = Asking("ann")
    opened = lobby.open("taki", {}, 2, GameSettings(reserved={1: "bo"}), caller)
    assert lobby.executor.store.games.get(opened.game_id).reserved == {1: "bo"}
    assert lobby.players.games("bo") == [opened.game_id]
    assert caller.strangers == ["bo"]


def test_a_reservation_for_no_registered_player_is_refused_and_nothing_is_counted(lobby: Lobby) -> None:
    caller = Asking("ann")
    with pytest.raises(Invalid) as refused:
        lobby.open("taki", {}, 2, GameSettings(reserved={1: "nobody"}), caller)
    assert refused.value.code == "validation_error"
    assert refused.value.extra == {"errors": {"reserved": ["No registered player 'nobody'."]}}
    assert caller.games == 0 and lobby.executor.store.games.count_by_status()[Lifecycle.WAITING] == 0


def test_a_copy_of_an_unlisted_game_is_unlisted(lobby: Lobby) -> None:
    opened = lobby.open("taki", {}, 2, GameSettings(), Asking(), private_origin=True)
    record = lobby.executor.store.games.get(opened.game_id)
    assert record.unlisted and record.private_origin


def test_joining_the_last_seat_starts_the_game_and_its_players_meet(lobby: Lobby, client: redis.Redis) -> None:  # type: ignore[type-arg]
    game_id = lobby.open("taki", {}, 2, GameSettings(), Asking()).game_id
    first = lobby.join(game_id, None, "Ann", player_id="ann")
    assert first.seat == 0 and first.token and lobby.executor.store.games.get(game_id).version == 0
    second = lobby.join(game_id, None, "Bo", player_id="bo")
    record = lobby.executor.store.games.get(game_id)
    assert second.seat == 1 and second.token != first.token
    assert (record.status, record.holders) == (Lifecycle.ACTIVE, {0: "ann", 1: "bo"}) and record.version > 0
    assert lobby.players.games("ann") == [game_id]
    assert client.smembers(keys.contacts("ann")) == {b"bo"}


def test_an_ai_joins_with_no_token_and_holds_no_players_seat(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 2, GameSettings(), Asking()).game_id
    joined = lobby.join(game_id, 1, "bot", player_id="ann", bot="random")
    record = lobby.executor.store.games.get(game_id)
    assert (joined.seat, joined.token) == (1, None)
    assert record.bots == (None, "random") and record.holders == {} and lobby.players.games("ann") == []


def test_a_seat_taken_cannot_be_joined(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 3, GameSettings(), Asking()).game_id
    lobby.join(game_id, 0, "Ann")
    with pytest.raises(SeatUnavailable):
        lobby.join(game_id, 0, "Bo")


def test_starting_a_started_game_appends_nothing(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    opening = lobby.executor.store.games.get(game_id).version
    assert start(lobby.executor, game_id) is None
    assert lobby.executor.store.games.get(game_id).version == opening


def test_starting_a_game_that_is_not_there_is_refused(lobby: Lobby) -> None:
    with pytest.raises(GameNotFound):
        start(lobby.executor, "nosuchgame")


def test_a_player_leaving_their_reserved_seat_declines_the_invitation(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 3, GameSettings(reserved={1: "bo"}), Asking("ann")).game_id
    lobby.join(game_id, None, "Bo", player_id="bo")
    assert lobby.leave(lobby.executor.store.games.get(game_id), 1) == "bo"
    record = lobby.executor.store.games.get(game_id)
    assert record.names == (None, None, None) and record.reserved == {} and lobby.players.games("bo") == []


def test_a_seat_of_a_game_in_play_cannot_be_left(lobby: Lobby) -> None:
    game_id = full_game(lobby)
    with pytest.raises(SeatNotLeft):
        lobby.leave(lobby.executor.store.games.get(game_id), 0)
