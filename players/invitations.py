"""Invitations: a seat reserved for a registered player puts the game in their inbox, unless they
block its creator, and they may decline it. A player's contacts are the players they have held
seats beside in a game that started; invitations from others (strangers) are bounded per day by
the API (service.limits), invitations from contacts are not. Invitations to tournaments are kept
with the tournaments (events.tournaments); their changes wake the invitees' inbox streams
(players.conversations.wake_inboxes)."""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import cast

import redis

from events import keys
from players.blocks import Blocks


def met(client: redis.Redis, player_ids: Collection[str]) -> None:
    """Make the players seated together in a game that starts each other's contacts."""
    if len(player_ids) < 2:
        return
    pipe = client.pipeline(transaction=False)
    for player_id in player_ids:
        pipe.sadd(keys.contacts(player_id), *(other for other in player_ids if other != player_id))
    pipe.execute()


class Invitations:
    def __init__(self, client: redis.Redis, max_blocks: int) -> None:
        self.redis = client
        self.blocks = Blocks(client, max_blocks)

    def reaching(self, creator: str | None, invitees: Collection[str]) -> list[str]:
        """Those of `invitees` an invitation from `creator` reaches: all but those who block `creator`.

        A blocker's seat stays reserved all the same. Count only these against a daily bound: a
        blocked player could otherwise spend it to keep everyone else's invitations out."""
        blocking = self.blocks.blocking(list(invitees), creator) if creator is not None else set()
        return [invitee for invitee in invitees if invitee not in blocking]

    def contacts(self, player_id: str) -> set[str]:
        """The ids of the players `player_id` has held seats beside in a game that started."""
        return {contact.decode() for contact in cast(set[bytes], self.redis.smembers(keys.contacts(player_id)))}

    def strangers(self, creator: str, invitees: Collection[str]) -> list[str]:
        """Those of `invitees` to whom `creator` is a stranger: neither themselves nor a contact."""
        others = [invitee for invitee in invitees if invitee != creator]
        pipe = self.redis.pipeline(transaction=False)
        for invitee in others:
            pipe.sismember(keys.contacts(invitee), creator)
        return [invitee for invitee, known in zip(others, pipe.execute(), strict=True) if not known]

    def deliver(self, game_id: str, invitees: Collection[str]) -> None:
        """Put the game in the inbox of each of `invitees` (those it `reaches`)."""
        now = int(time.time() * 1000)
        pipe = self.redis.pipeline(transaction=False)
        for invitee in invitees:
            pipe.zadd(keys.player_games(invitee), {game_id: now}, nx=True)
        pipe.execute()

    def decline(self, game_id: str, reserved: Mapping[int, str], player_id: str) -> None:
        """Decline the game's invitation: the player's reserved seat is free for anyone, the game out of their inbox."""
        pipe = self.redis.pipeline(transaction=False)
        for seat in [seat for seat, invitee in reserved.items() if invitee == player_id]:
            pipe.hdel(keys.reservations(game_id), str(seat))
        pipe.zrem(keys.player_games(player_id), game_id)
        pipe.execute()
