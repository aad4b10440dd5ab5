"""Invitations, contacts and blocks in the store, on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import redis

from events import keys
from events.store import EventStore
from players.invitations import Invitations, met


def test_players_seated_together_become_each_others_contacts(client: redis.Redis) -> None:  # type: ignore[type-arg]
    invitations = Invitations(client, max_blocks=10)
    met(client, {"ann", "bo", "cy"})
    met(client, {"di"})  # alone at a table: nobody met
    assert invitations.strangers("ann", ["bo", "cy", "di", "ann"]) == ["di"]
    assert invitations.strangers("di", ["ann"]) == ["ann"]
    assert client.smembers(keys.contacts("bo")) == {b"ann", b"cy"}


def test_an_invitation_reaches_all_but_who_blocks_its_creator(client: redis.Redis) -> None:  # type: ignore[type-arg]
    invitations = Invitations(client, max_blocks=10)
    assert invitations.blocks.block("bo", "ann")
    reached = invitations.reaching("ann", ["bo", "cy"])
    assert reached == ["cy"]
    invitations.deliver("game-1", reached)
    assert client.zrange(keys.player_games("bo"), 0, -1) == []
    assert client.zrange(keys.player_games("cy"), 0, -1) == [b"game-1"]
    assert invitations.reaching(None, ["bo"]) == ["bo"]  # a rematch asked by a seat of nobody registered
    assert invitations.blocks.unblock("bo", "ann") and not invitations.blocks.unblock("bo", "ann")


def test_a_player_blocks_up_to_the_limit_and_again_harmlessly(client: redis.Redis) -> None:  # type: ignore[type-arg]
    blocks = Invitations(client, max_blocks=2).blocks
    assert blocks.block("ann", "bo") and blocks.block("ann", "cy") and blocks.block("ann", "bo")
    assert not blocks.block("ann", "di")
    assert [blocked for blocked, _ in blocks.of("ann")] == ["cy", "bo"]
    assert blocks.blocking(["ann", "bo"], "cy") == {"ann"}


def test_a_declined_invitation_frees_the_seat_and_leaves_the_inbox(store: EventStore) -> None:
    invitations = Invitations(store.redis, max_blocks=10)
    store.games.create("game", "taki", {}, 3, lobby_seconds=600, reserved={1: "bo", 2: "cy"}, creator="ann")
    invitations.deliver("game", ["bo", "cy"])
    invitations.decline("game", store.games.get("game").reserved, "bo")
    record = store.games.get("game")
    assert record.reserved == {2: "cy"} and record.creator == "ann"
    assert store.redis.zrange(keys.player_games("bo"), 0, -1) == []
    assert store.seats.claim("game", 1, "eve", "token-eve").seat == 1  # anyone's now
