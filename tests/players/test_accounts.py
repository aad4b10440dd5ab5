"""Registered players as stored: read one at a time or many in one round trip; on fakeredis and a real server."""

from __future__ import annotations

import redis

from players.accounts import PlayerStore


def test_many_players_are_read_in_their_order_with_none_for_an_unknown_id(client: redis.Redis) -> None:  # type: ignore[type-arg]
    players = PlayerStore(client)
    ann, bo = players.register("p-ann", "ann", "token-ann"), players.register("p-bo", "bo", "token-bo")
    assert players.many(["p-bo", "nobody", "p-ann"]) == [bo, None, ann] == [players.get("p-bo"), None, players.get("p-ann")]
    assert players.many([]) == []
