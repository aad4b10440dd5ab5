"""Going on vacation announces the player's games in play when the vacation underway changes, and only then."""

from __future__ import annotations

import time

from application.vacations import go_on_vacation
from domain.core.rng import ScriptedRng
from events import keys
from events.envelope import DeadlinePolicy, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.vacations import DAY, Vacations


def test_a_vacation_asked_again_announces_nothing(executor: Executor) -> None:
    store = executor.store
    store.games.create("g", "taki", {}, 2, TurnDeadline(86_400, DeadlinePolicy.SKIP))
    store.seats.claim("g", 0, "ann", "seat-token-ann", player_id="ann")
    store.seats.claim("g", 1, "bo", "seat-token-bo")
    executor.start("g", ScriptedRng())
    PlayerStore(store.redis).joined("ann", "g")
    vacations, now, feed = Vacations(store.redis, 30), int(time.time() * 1000), keys.feed(store.feed.shards.of("g"))
    announced = store.redis.xlen(feed)
    for until, more in ((now + 2 * DAY, 1), (now + 2 * DAY, 0), (now + 3 * DAY, 1)):
        go_on_vacation(store, vacations, "ann", until, now)
        assert store.redis.xlen(feed) == announced + more, until
        announced += more
