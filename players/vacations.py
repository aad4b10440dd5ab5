"""Players' vacations as a yearly allowance of days: a player goes on vacation until a time, or a
day is spent for them when one of their clocks would otherwise run out; every clock of theirs
stands still while a vacation lasts. Each vacation counts as the whole days it spans (a day
begun is a day spent), each day in the calendar year (UTC) it begins in, so a vacation across New
Year spends days of both years and must fit in what is left of each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import cast

import redis
from redis.exceptions import WatchError

from events import clock, keys
from players.errors import VacationRefused

DAY = 86_400_000  # ms
Span = tuple[int, int]  # [start, end) in ms since the epoch
OLD_UNTIL = "vacation_until"  # the player's field a vacation was declared in before vacations were spans
Change = Callable[[tuple[Span, ...]], tuple[Span | None, Span | None]]  # the span to replace, and by which


class Spent(Enum):
    """What came of spending a vacation day for a clock that runs out at a moment."""

    DAY = "day"  # the player is on vacation from then: a day was spent, or one spent covers it
    NONE = "none"  # no day is left this year, or a day would not stop the clock: its timeout applies
    NOT_DUE = "not_due"  # the clock no longer runs out then, as the player's vacations now stand


@dataclass(frozen=True, slots=True)
class Allowance:
    """A player's vacation at a moment: the one underway, if any, and the days left this year."""

    until: int | None
    days_left: int
    days_per_year: int


class Vacations:
    """The vacations of the players in one store."""

    def __init__(self, client: redis.Redis, days_per_year: int) -> None:
        self.redis = client
        self.days_per_year = days_per_year

    def allowance(self, player_id: str, now: int) -> Allowance:
        spans = spans_of(self.redis, player_id)
        underway = _underway(spans, now)
        return Allowance(None if underway is None else underway[1], self.days_per_year - _spent(spans, _year(now)),
                         self.days_per_year)

    def take(self, player_id: str, until: int, now: int) -> Allowance:
        """Be on vacation from now until `until`: the vacation underway (an explicit one, or a day
        spent for the player) lasts until then, or one begins now. Raises VacationRefused when the
        days it spans are more than the days left, in any year it spends days of."""
        def change(spans: tuple[Span, ...]) -> tuple[Span | None, Span | None]:
            underway = _underway(spans, now)
            wanted = (now if underway is None else underway[0], until)
            others = tuple(span for span in spans if span != underway)
            if (year := self._over(others, wanted)) is not None:
                left = self.days_per_year - _spent(others, year)
                raise VacationRefused(f"Only {left} vacation days are left in {year}.")
            return underway, wanted
        self._change(player_id, change)
        return self.allowance(player_id, now)

    def end(self, player_id: str, now: int) -> bool:
        """End the vacation underway now (its days not begun are given back); whether one was."""
        def change(spans: tuple[Span, ...]) -> tuple[Span | None, Span | None]:
            underway = _underway(spans, now)
            return underway, None if underway is None or underway[0] >= now else (underway[0], now)
        return self._change(player_id, change)

    def spend_day(self, player_id: str, at: int, check: Callable[[tuple[Span, ...]], Spent | None]) -> Spent:
        """Spend a day from `at` for a clock of the player's that runs out then, unless `check`, asked
        of the player's vacations as they stand in the same transaction, says what came of it instead
        (the clock no longer runs out then, or a day would not stop it). A vacation that begins within
        the day is joined to it, so no day is counted twice."""
        outcome = Spent.DAY

        def change(spans: tuple[Span, ...]) -> tuple[Span | None, Span | None]:
            nonlocal outcome
            covered = _underway(spans, at) is not None
            outcome = Spent.DAY if covered else check(spans) or Spent.DAY
            if covered or outcome is not Spent.DAY:
                return None, None
            later = next((span for span in spans if at < span[0] < at + DAY), None)
            wanted = (at, at + DAY if later is None else max(at + DAY, later[1]))
            if self._over(tuple(span for span in spans if span != later), wanted) is not None:
                outcome = Spent.NONE
                return None, None
            return later, wanted
        self._change(player_id, change)
        return outcome

    def _over(self, others: tuple[Span, ...], wanted: Span) -> int | None:
        """The first year in which `wanted`, beside the `others`, spends more days than a year has."""
        return next((year for year in sorted({_year(day) for day in _day_starts(wanted)})
                     if _spent((*others, wanted), year) > self.days_per_year), None)

    def _change(self, player_id: str, change: Change) -> bool:
        """Replace one span by another (either None) as `change` decides on the spans it reads, atomically."""
        key = keys.vacations(player_id)
        spans_of(self.redis, player_id)  # one declared as it was before is taken in first
        while True:
            with self.redis.pipeline() as pipe:
                try:
                    pipe.watch(key)
                    old, new = change(_parse(cast(list[bytes], pipe.zrange(key, 0, -1))))
                    pipe.multi()
                    if old is not None:
                        pipe.zrem(key, _member(old))
                    if new is not None:
                        pipe.zadd(key, {_member(new): new[0]})
                    pipe.execute()
                    return old is not None or new is not None
                except WatchError:
                    continue


def spans_of(client: redis.Redis, player_id: str) -> tuple[Span, ...]:
    """Every vacation of the player, oldest first (one declared as it was before vacations were
    spans is taken in first: _take_in)."""
    pipe = client.pipeline(transaction=False)
    pipe.zrange(keys.vacations(player_id), 0, -1)
    pipe.hexists(keys.player(player_id), OLD_UNTIL)
    members, old = pipe.execute()
    if old:
        _take_in(client, player_id, clock.now())
        return spans_of(client, player_id)
    return _parse(cast(list[bytes], members))


def _take_in(client: redis.Redis, player_id: str, now: int) -> None:
    """Turn the player's `vacation_until`, a vacation as it was declared before vacations were
    spans, into one from `now` until then if it has not passed, and drop the field."""
    key = keys.player(player_id)
    with client.pipeline() as pipe:
        while True:
            try:
                pipe.watch(key)
                until = cast(bytes | None, pipe.hget(key, OLD_UNTIL))
                pipe.multi()
                if until is not None and int(until) > now:
                    pipe.zadd(keys.vacations(player_id), {_member((now, int(until))): now})
                pipe.hdel(key, OLD_UNTIL)
                pipe.execute()
                return
            except WatchError:
                continue


def _member(span: Span) -> str:
    return f"{span[0]}:{span[1]}"


def _parse(members: list[bytes]) -> tuple[Span, ...]:
    spans = [member.decode().split(":") for member in members]
    return tuple(sorted((int(start), int(end)) for start, end in spans))


def _underway(spans: tuple[Span, ...], moment: int) -> Span | None:
    """The vacation that lasts at `moment`, if any."""
    return next((span for span in spans if span[0] <= moment < span[1]), None)


def _days(span: Span) -> int:
    """The days a vacation spends: each day begun counts."""
    return -(-(span[1] - span[0]) // DAY)


def _day_starts(span: Span) -> range:
    """When each day a vacation spends begins."""
    return range(span[0], span[0] + _days(span) * DAY, DAY)


def _year(moment: int) -> int:
    """The calendar year (UTC) of `moment`."""
    return datetime.fromtimestamp(moment / 1000, UTC).year


def _spent(spans: tuple[Span, ...], year: int) -> int:
    """The days spent on vacations that begin in `year`."""
    return sum(1 for span in spans for day in _day_starts(span) if _year(day) == year)
