"""Vacations as a yearly allowance of days, on fakeredis and on a real server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import redis

from events import clock, keys
from players.errors import VacationRefused
from players.vacations import DAY, Allowance, Spent, Vacations, spans_of

NOW = int(datetime(2026, 6, 1, 12, tzinfo=UTC).timestamp() * 1000)


def test_a_vacation_spends_each_day_it_begins(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 10)
    assert vacations.allowance("ann", NOW) == Allowance(None, 10, 10)
    assert vacations.take("ann", NOW + 2 * DAY + 1, NOW) == Allowance(NOW + 2 * DAY + 1, 7, 10)
    assert vacations.take("ann", NOW + DAY, NOW + 5) == Allowance(NOW + DAY, 9, 10)  # moved nearer: days given back
    with pytest.raises(VacationRefused):
        vacations.take("ann", NOW + 11 * DAY, NOW + 6)
    assert spans_of(client, "ann") == ((NOW, NOW + DAY),)


def test_coming_back_early_gives_back_the_days_not_begun(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 10)
    vacations.take("ann", NOW + 5 * DAY, NOW)
    assert vacations.end("ann", NOW + DAY + 1)
    assert vacations.allowance("ann", NOW + DAY + 2) == Allowance(None, 8, 10)  # two days begun
    assert not vacations.end("ann", NOW + DAY + 2)  # none underway


def test_a_day_is_spent_once_for_a_moment_and_not_past_the_allowance(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 2)
    due = lambda spans: None  # noqa: E731 - the clock runs out at the moment asked, whatever the spans
    assert vacations.spend_day("ann", NOW, due) is vacations.spend_day("ann", NOW + 5, due) is Spent.DAY  # the second: covered
    assert spans_of(client, "ann") == ((NOW, NOW + DAY),)
    assert vacations.spend_day("ann", NOW + DAY, due) is Spent.DAY
    assert vacations.spend_day("ann", NOW + 2 * DAY, due) is Spent.NONE  # none left
    assert vacations.allowance("ann", NOW + 2 * DAY) == Allowance(None, 0, 2)


def test_a_day_is_spent_only_as_the_check_in_its_transaction_says(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 5)
    seen: list[tuple[tuple[int, int], ...]] = []
    assert vacations.spend_day("ann", NOW, lambda spans: seen.append(spans) or Spent.NOT_DUE) is Spent.NOT_DUE
    assert seen == [()] and spans_of(client, "ann") == ()
    vacations.take("ann", NOW + DAY, NOW + DAY // 2)  # a vacation begun within the day is joined to it
    assert vacations.spend_day("ann", NOW, lambda spans: None) is Spent.DAY
    assert spans_of(client, "ann") == ((NOW, NOW + DAY),)  # one day, not counted twice
    assert vacations.allowance("ann", NOW).days_left == 4


def test_the_allowance_is_a_calendar_years(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 3)
    december = int(datetime(2026, 12, 30, tzinfo=UTC).timestamp() * 1000)
    vacations.take("ann", december + 3 * DAY, december)  # two days begin in 2026, the third in 2027
    assert vacations.allowance("ann", december).days_left == 1
    assert vacations.allowance("ann", december + 3 * DAY).days_left == 2


def test_a_vacation_across_new_year_fits_in_what_is_left_of_each_year(client: redis.Redis) -> None:  # type: ignore[type-arg]
    vacations = Vacations(client, 30)
    new_year = int(datetime(2027, 1, 1, tzinfo=UTC).timestamp() * 1000)
    vacations.take("ann", new_year + DAY // 2, new_year - DAY // 2)  # a day, begun on December 31
    with pytest.raises(VacationRefused):  # extended from its start in 2026: a year's days in 2027
        vacations.take("ann", new_year + 365 * DAY, new_year + DAY // 4)
    assert vacations.take("ann", new_year + 30 * DAY, new_year + DAY // 4).days_left == 0
    assert vacations.allowance("ann", new_year - DAY).days_left == 29
    with pytest.raises(VacationRefused):
        vacations.take("ann", new_year + 31 * DAY, new_year + DAY // 4)


def test_a_vacation_declared_as_it_was_before_is_taken_in(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(clock, "now", lambda: NOW)
    for name, until in (("ann", NOW + 2 * DAY), ("bo", NOW - DAY)):  # away at the upgrade, and back before it
        client.hset(keys.player(name), mapping={"name": name, "created": 1, "vacation_until": until})
    assert spans_of(client, "ann") == ((NOW, NOW + 2 * DAY),)
    assert Vacations(client, 10).allowance("bo", NOW) == Allowance(None, 10, 10) and spans_of(client, "bo") == ()
    assert not client.hexists(keys.player("ann"), "vacation_until") and not client.hexists(keys.player("bo"), "vacation_until")
    assert Vacations(client, 10).allowance("ann", NOW + 1) == Allowance(NOW + 2 * DAY, 8, 10)
