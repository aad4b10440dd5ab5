"""One reader of the feed per API process, for all its open inbox streams."""

from __future__ import annotations

import fakeredis

from events.store import EventStore
from players.blocks import Blocks
from players.conversations import About, Conversations, Letters, wake_inboxes
from service.announcements import Announcements, Since


def test_every_follower_gets_what_was_announced_since_its_position_from_one_reader() -> None:
    store = EventStore(fakeredis.FakeRedis())
    announcements = Announcements(store.feed, Letters(store.redis, store.feed.waiting), kept=3)
    first = announcements.position()
    assert announcements.after(first, 0.05) == Since(first, [], frozenset())  # nothing yet: a heartbeat
    store.feed.tell("g1")
    store.feed.tell("g2")
    since = announcements.after(first, 5)
    while since.games != ["g1", "g2"]:  # the reader may hand them over one read at a time
        since = announcements.after(first, 5)
    second = since.position
    for game in ("g3", "g4", "g5"):
        store.feed.tell(game)
    while (found := announcements.after(second, 5)).position < second + 3:
        pass
    assert found == Since(second + 3, ["g3", "g4", "g5"], frozenset())
    assert announcements.after(first, 5) == Since(second + 3, None, None)  # more came than are kept: anything may have changed


def test_a_delivered_or_read_message_wakes_the_followers_naming_its_player_and_no_game() -> None:
    store = EventStore(fakeredis.FakeRedis())
    announcements = Announcements(store.feed, Letters(store.redis, store.feed.waiting))
    conversations = Conversations(store.redis, kept=10)
    first = announcements.position()
    written = conversations.add("ann", "bo", "TAKI tonight?", deliver=True)
    since = announcements.after(first, 5)  # at once, not after the timeout
    assert since == Since(first + 1, [], frozenset({("bo", About.MESSAGES)}))
    assert since.concerns("bo", About.MESSAGES) and not since.concerns("ann", About.MESSAGES)  # only bo's streams count again
    assert not since.concerns("bo", About.TOURNAMENTS)  # and read not their invitations to tournaments
    conversations.add("ann", "cy", "blocked", deliver=False)  # told to no one
    assert announcements.after(first + 1, 0.3) == Since(first + 1, [], frozenset())
    conversations.mark_read("bo", "ann", written.id)  # bo's other tabs count again
    assert announcements.after(first + 1, 5) == Since(first + 2, [], frozenset({("bo", About.MESSAGES)}))
    conversations.mark_read("bo", "ann", written.id)  # read already: nothing changed
    assert announcements.after(first + 2, 0.3) == Since(first + 2, [], frozenset())


def test_a_changed_invitation_to_a_tournament_or_a_block_wakes_the_followers_naming_what_changed() -> None:
    store = EventStore(fakeredis.FakeRedis())
    announcements = Announcements(store.feed, Letters(store.redis, store.feed.waiting))
    first = announcements.position()
    wake_inboxes(store.redis, ["ann", "bo"], About.TOURNAMENTS)
    while (since := announcements.after(first, 5)).position < first + 2:
        pass
    assert since == Since(first + 2, [], frozenset({("ann", About.TOURNAMENTS), ("bo", About.TOURNAMENTS)}))
    assert not since.concerns("ann", About.MESSAGES)  # their unread messages are not counted again
    Blocks(store.redis, 10).block("ann", "cy")  # what a blocked player sent is shown no more: both
    while (since := announcements.after(first + 2, 5)).position < first + 4:
        pass
    assert since.players == frozenset({("ann", About.MESSAGES), ("ann", About.TOURNAMENTS)})
