"""One reader of the feed per API process, for all its open inbox streams."""

from __future__ import annotations

import fakeredis

from events.store import EventStore
from players.conversations import Conversations, Letters
from service.announcements import Announcements


def test_every_follower_gets_what_was_announced_since_its_position_from_one_reader() -> None:
    store = EventStore(fakeredis.FakeRedis())
    announcements = Announcements(store.feed, Letters(store.redis, store.feed.waiting), kept=3)
    first = announcements.position()
    assert announcements.after(first, 0.05) == (first, [])  # nothing yet: a heartbeat
    store.feed.tell("g1")
    store.feed.tell("g2")
    second, games = announcements.after(first, 5)
    while games != ["g1", "g2"]:  # the reader may hand them over one read at a time
        second, games = announcements.after(first, 5)
    for game in ("g3", "g4", "g5"):
        store.feed.tell(game)
    while (found := announcements.after(second, 5))[0] < second + 3:
        pass
    assert found == (second + 3, ["g3", "g4", "g5"])
    assert announcements.after(first, 5) == (second + 3, None)  # more came than are kept: every game may have changed


def test_a_delivered_message_wakes_the_followers_naming_no_game() -> None:
    store = EventStore(fakeredis.FakeRedis())
    announcements = Announcements(store.feed, Letters(store.redis, store.feed.waiting))
    first = announcements.position()
    Conversations(store.redis).add("ann", "bo", "TAKI tonight?", deliver=True)
    assert announcements.after(first, 5) == (first + 1, [])  # at once, not after the timeout
    Conversations(store.redis).add("ann", "cy", "blocked", deliver=False)  # told to no one
    assert announcements.after(first + 1, 0.3) == (first + 1, [])
