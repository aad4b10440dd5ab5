"""The feed as one API process follows it: a single reader of the store's feed for all the
process's open inbox streams, which wait on it in memory, so the process reads the feed once
however many streams are open; and a single reader of the announcements of the players' inboxes
changed besides their games (players.conversations.Letters), each naming its player and what changed
(their unread private messages, or their invitations to tournaments), so that only that player's
streams read that again."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from events.feed import Feed
from events.slots import AWAY
from players.conversations import About, Letters

KEPT = 10_000  # the latest announcements a stream may still catch up with

log = logging.getLogger("meeple")


@dataclass(frozen=True, slots=True)
class Since:
    """What was announced since a position: the games that changed, and each player whose inbox changed besides
    their games with what changed (each None when more came than the process keeps: every one may have changed)."""

    position: int
    games: list[str] | None
    players: frozenset[tuple[str, About]] | None

    def concerns(self, player_id: str, about: About) -> bool:
        """Whether `about` (their unread messages, or their invitations to tournaments) may have changed for the player."""
        return self.players is None or (player_id, about) in self.players


class Announcements:
    """The games announced on the feed, and the players whose inboxes changed besides their games, since this
    process began to follow them, numbered 1, 2, 3 … together."""

    def __init__(self, feed: Feed, letters: Letters, kept: int = KEPT) -> None:
        self.feed = feed
        self.letters = letters
        self._latest: deque[tuple[int, str | None, tuple[str, About] | None]] = deque(maxlen=kept)  # (number, game, letter)
        self._count = 0
        self._changed = threading.Condition()
        self._readers: list[threading.Thread] = []

    def position(self) -> int:
        """The number of the latest announcement, to follow from (the readers start with the first call)."""
        with self._changed:
            if not self._readers:
                self._readers = [
                    threading.Thread(target=self._read, args=("feed", self.feed.follow, self.feed.position(), self._games),
                                     name="feed", daemon=True),
                    threading.Thread(target=self._read, args=("letters", self.letters.follow, self.letters.position(),
                                                              self._letters), name="letters", daemon=True)]
                for reader in self._readers:
                    reader.start()
            return self._count

    def after(self, position: int, timeout_s: float) -> Since:
        """What was announced since `position`, waiting up to `timeout_s` for something to be."""
        with self._changed:
            self._changed.wait_for(lambda: self._count > position, timeout_s)
            if self._count == position:
                return Since(position, [], frozenset())
            if self._latest[0][0] > position + 1:
                return Since(self._count, None, None)
            since = [(game_id, letter) for number, game_id, letter in self._latest if number > position]
            return Since(self._count, [game_id for game_id, _ in since if game_id is not None],
                         frozenset(letter for _, letter in since if letter is not None))

    def _games(self, announced: list[tuple[str, str]]) -> None:
        for _, game_id in announced:
            self._count += 1
            self._latest.append((self._count, game_id, None))

    def _letters(self, letters: list[tuple[str, About]]) -> None:
        for letter in letters:
            self._count += 1
            self._latest.append((self._count, None, letter))

    def _read(self, name: str, follow: Callable[[str, int], tuple[str, list[Any]]], position: str,
              took: Callable[[list[Any]], None]) -> None:
        """Follow a stream of announcements from `position`, handing each read's to `took` and waking the waiters."""
        while True:
            try:
                position, announced = follow(position, 1000)
            except AWAY as error:
                log.warning("the %s cannot be read, retrying: %s", name, error)
                time.sleep(1)
                continue
            except Exception:  # the reader outlives any one bad read
                log.exception("the %s cannot be read, retrying", name)
                time.sleep(1)
                continue
            if announced:
                with self._changed:
                    took(announced)
                    self._changed.notify_all()
