"""The feed as one API process follows it: a single reader of the store's feed for all the
process's open inbox streams, which wait on it in memory, so the process reads the feed once
however many streams are open."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque

from events.feed import Feed
from events.slots import AWAY

KEPT = 10_000  # the latest announcements a stream may still catch up with

log = logging.getLogger("meeple")


class Announcements:
    """The games announced on the feed since this process began to follow it, numbered 1, 2, 3 …"""

    def __init__(self, feed: Feed, kept: int = KEPT) -> None:
        self.feed = feed
        self._latest: deque[tuple[int, str]] = deque(maxlen=kept)  # (number, game id)
        self._count = 0
        self._changed = threading.Condition()
        self._reader: threading.Thread | None = None

    def position(self) -> int:
        """The number of the latest announcement, to follow from (the reader starts with the first call)."""
        with self._changed:
            if self._reader is None:
                self._reader = threading.Thread(target=self._read, args=(self.feed.position(),), name="feed", daemon=True)
                self._reader.start()
            return self._count

    def after(self, position: int, timeout_s: float) -> tuple[int, list[str] | None]:
        """The games announced since `position` and the position after them, waiting up to `timeout_s`.

        The games are None when more came than this process keeps: every game may have changed."""
        with self._changed:
            self._changed.wait_for(lambda: self._count > position, timeout_s)
            if self._count == position:
                return position, []
            if self._latest[0][0] > position + 1:
                return self._count, None
            return self._count, [game_id for number, game_id in self._latest if number > position]

    def _read(self, position: str) -> None:
        while True:
            try:
                position, announced = self.feed.follow(position, 1000)
            except AWAY as error:
                log.warning("the feed cannot be read, retrying: %s", error)
                time.sleep(1)
                continue
            except Exception:  # the reader outlives any one bad read
                log.exception("the feed cannot be read, retrying")
                time.sleep(1)
                continue
            if announced:
                with self._changed:
                    for _, game_id in announced:
                        self._count += 1
                        self._latest.append((self._count, game_id))
                    self._changed.notify_all()
