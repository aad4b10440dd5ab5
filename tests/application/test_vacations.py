"""Going on vacation announces the player's games in play when the vacation underway changes, and only then."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from application.deadlines import game_clocks, spend_vacation_day
from application.vacations import go_on_vacation
from domain.core.rng import ScriptedRng
from events import clock, keys
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.vacations import DAY, Spent, Vacations, spans_of


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


def test_a_day_spent_where_a_weekend_begins_is_a_day_for_every_clock_of_the_players(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    store = executor.store
    thursday_noon = int(datetime(2026, 11, 26, 12, tzinfo=UTC).timestamp() * 1000)
    out, saturday, monday = thursday_noon + DAY, thursday_noon + DAY + DAY // 2, thursday_noon + 4 * DAY - DAY // 2
    monkeypatch.setattr(clock, "now", lambda: thursday_noon)
    for game_id, weekends in (("we", True), ("wd", False)):  # a day in the bank, with and without weekends off
        store.games.create(game_id, "taki", {}, 2, TurnDeadline(DAY // 1000, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER,
                                                                maximum=DAY // 1000, weekends=weekends))
        store.seats.claim(game_id, 0, "ann", f"seat-token-ann-{game_id}", player_id="ann")
        store.seats.claim(game_id, 1, "bo", f"seat-token-bo-{game_id}")
        executor.start(game_id, ScriptedRng())
    assert spend_vacation_day(store, executor.load("we"), 0, out, 30) is Spent.DAY
    assert spans_of(store.redis, "ann") == ((out, out + DAY),)  # Friday noon to Saturday noon, for all of ann's clocks
    monkeypatch.setattr(clock, "now", lambda: out + DAY // 4)
    weekend, weekday = (game_clocks(store, executor.load(game_id))[0] for game_id in ("we", "wd"))  # type: ignore[index]
    assert weekday.runs_out == out + DAY and weekday.paused == "vacation"
    assert weekend.runs_out == monday and weekend.paused == "vacation"  # the weekend stops it anyway: 12 hours gained
    assert Vacations(store.redis, 30).allowance("ann", out).days_left == 29
    monkeypatch.setattr(clock, "now", lambda: saturday + 3 * DAY // 4)  # the day spent is over, the weekend not
    assert game_clocks(store, executor.load("we"))[0].paused == "weekend"  # type: ignore[index]
