"""Whom a reserved seat waits for: a player named among the creator's contacts, or whoever is sent
the seat's link, which seats one registered player."""

from __future__ import annotations

import pytest
import redis

from application.errors import Invalid
from application.lobby import GameSettings, Lobby
from events.errors import SeatReserved, SeatUnavailable
from players.invitations import met
from tests.application.conftest import Asking


@pytest.fixture
def contacts(lobby: Lobby, client: redis.Redis) -> Lobby:  # type: ignore[type-arg]
    """ann has sat beside bo; cy, registered too, is a stranger to her."""
    met(client, {"ann", "bo"})
    return lobby


def test_a_seat_reserved_by_a_contacts_name_invites_that_contact(contacts: Lobby) -> None:
    caller = Asking("ann")
    game_id = contacts.open("taki", {}, 3, GameSettings(named={1: " bo "}), caller).game_id
    record = contacts.executor.store.games.get(game_id)
    assert (record.reserved, record.invitees) == ({1: "bo"}, {1: "Bo"})
    assert contacts.players.games("bo") == [game_id] and caller.strangers == []


@pytest.mark.parametrize(("name", "problem"), [
    ("Cy", "No player you have played with is named 'Cy'"),  # registered, but a stranger: never reached by a name
    ("nobody", "No player you have played with is named 'nobody'"),
])
def test_a_name_no_contact_has_is_refused_and_reaches_nobody(contacts: Lobby, name: str, problem: str) -> None:
    caller = Asking("ann")
    with pytest.raises(Invalid) as refused:
        contacts.open("taki", {}, 2, GameSettings(named={1: name}), caller)
    assert refused.value.code == "validation_error" and refused.value.extra["errors"]["reserved"][0].startswith(problem)
    assert caller.games == 0 and contacts.players.games("cy") == []


def test_a_name_two_contacts_share_is_refused(contacts: Lobby, client: redis.Redis) -> None:  # type: ignore[type-arg]
    contacts.players.register("bo2", "BO", "token-of-bo2-0123456789")
    met(client, {"ann", "bo2"})
    with pytest.raises(Invalid) as refused:
        contacts.open("taki", {}, 2, GameSettings(named={1: "bo"}), Asking("ann"))
    assert refused.value.extra["errors"]["reserved"] == [
        "2 players you have played with are named 'bo': invite one by their player id, or by a link."]


def test_a_contact_whose_stored_name_has_spaces_around_it_is_found(contacts: Lobby, client: redis.Redis) -> None:  # type: ignore[type-arg]
    contacts.players.register("dee", " Dee ", "token-of-dee-0123456789")  # a name stored before names were stripped
    met(client, {"ann", "dee"})
    game_id = contacts.open("taki", {}, 2, GameSettings(named={1: "dee"}), Asking("ann")).game_id
    assert contacts.executor.store.games.get(game_id).reserved == {1: "dee"}


def test_one_player_named_for_two_seats_is_refused(contacts: Lobby) -> None:
    with pytest.raises(Invalid) as refused:
        contacts.open("taki", {}, 3, GameSettings(reserved={1: "bo"}, named={2: "Bo"}), Asking("ann"))
    assert refused.value.extra["errors"]["reserved"] == ["A player holds one seat of a game: reserve one for each."]


def test_a_link_seats_the_registered_player_who_sends_its_code_once(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 3, GameSettings(linked=(2,)), Asking("ann")).game_id
    code = lobby.executor.store.games.get(game_id).links[2]
    assert len(code) >= 43 and lobby.players.games("bo") == []
    with pytest.raises(SeatReserved):
        lobby.join(game_id, 2, "Cy", player_id="cy")  # the seat is the link's
    with pytest.raises(SeatReserved) as wrong:
        lobby.join(game_id, None, "Bo", player_id="bo", code=code[:-1] + ("A" if code[-1] != "A" else "B"))
    assert wrong.value.reason == "invite_unknown"
    assert lobby.join(game_id, None, "Bo", player_id="bo", code=code).seat == 2
    record = lobby.executor.store.games.get(game_id)
    assert (record.links, record.reserved, record.names[2]) == ({}, {2: "bo"}, "Bo")
    assert lobby.players.games("bo") == [game_id]
    with pytest.raises(SeatReserved) as used:
        lobby.join(game_id, None, "Cy", player_id="cy", code=code)
    assert used.value.reason == "invite_unknown"


def test_a_link_needs_a_registered_player_and_its_seat(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 3, GameSettings(linked=(1,)), Asking("ann")).game_id
    code = lobby.executor.store.games.get(game_id).links[1]
    with pytest.raises(Invalid):
        lobby.join(game_id, None, "guest", code=code)
    with pytest.raises(SeatReserved):
        lobby.join(game_id, 0, "Bo", player_id="bo", code=code)  # another seat than the link's
    lobby.join(game_id, None, "Cy", player_id="cy")
    with pytest.raises(SeatUnavailable):
        lobby.join(game_id, None, "Cy", player_id="cy", code=code)  # one seat a player
    assert lobby.executor.store.games.get(game_id).links == {1: code}


def test_leaving_a_seat_taken_by_link_frees_it_for_anyone(lobby: Lobby) -> None:
    game_id = lobby.open("taki", {}, 3, GameSettings(linked=(1,)), Asking("ann")).game_id
    code = lobby.executor.store.games.get(game_id).links[1]
    lobby.join(game_id, None, "Bo", player_id="bo", code=code)
    assert lobby.leave(lobby.executor.store.games.get(game_id), 1) == "bo"
    record = lobby.executor.store.games.get(game_id)
    assert (record.reserved, record.links, record.names[1]) == ({}, {}, None)
    assert lobby.join(game_id, 1, "Cy").seat == 1
