"""The feed as one API process follows it: a single reader of the store's feed for all the
process's open inbox streams, which wait on it in memory, so the process reads the feed once
however many streams are open; and a single reader of the announcements of delivered private
messages (players.conversations.Letters), which wake those streams too."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from events.feed import Feed
from events.slots import AWAY
from players.conversations import Letters

KEPT = 10_000  # the latest announcements a stream may still catch up with

log = logging.getLogger("meeple")


class Announcements:
    """The games announced on the feed, and the private messages delivered, since this process began to
    follow them, numbered 1, 2, 3 … together."""

    def __init__(self, feed: Feed, letters: Letters, kept: int = KEPT) -> None:
        self.feed = feed
        self.letters = letters
        self._latest: deque[tuple[int, str | None]] = deque(maxlen=kept)  # (number, game id; None for a message)
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
                                                              self._messages), name="letters", daemon=True)]
                for reader in self._readers:
                    reader.start()
            return self._count

    def after(self, position: int, timeout_s: float) -> tuple[int, list[str] | None]:
        """The games announced since `position` and the position after them, waiting up to `timeout_s`
        (a private message delivered since ends the wait too, naming no game).

        The games are None when more came than this process keeps: every game may have changed."""
        with self._changed:
            self._changed.wait_for(lambda: self._count > position, timeout_s)
            if self._count == position:
                return position, []
            if self._latest[0][0] > position + 1:
                return self._count, None
            return self._count, [game_id for number, game_id in self._latest if number > position and game_id is not None]

    def _games(self, announced: list[tuple[str, str]]) -> None:
        for _, game_id in announced:
            self._count += 1
            self._latest.append((self._count, game_id))

    def _messages(self, recipients: list[str]) -> None:
        for _ in recipients:
            self._count += 1
            self._latest.append((self._count, None))

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
