"""Players' vacations as a yearly allowance of days: a player goes on vacation until a time, or a
day is spent for them when one of their clocks would otherwise run out; every clock of theirs
stands still while a vacation lasts. Each vacation counts as the whole days it spans (a day
begun is a day spent), each day in the calendar year (UTC) it begins in, so a vacation across New
Year spends days of both years and must fit in what is left of each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import redis
from redis.exceptions import WatchError

from events import keys
from players.errors import VacationRefused

DAY = 86_400_000  # ms
Span = tuple[int, int]  # [start, end) in ms since the epoch
Change = Callable[[tuple[Span, ...]], tuple[Span | None, Span | None]]  # the span to replace, and by which


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
            for year in sorted({_year(day) for day in _day_starts(wanted)}):
                if _spent((*others, wanted), year) > self.days_per_year:
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

    def spend_day(self, player_id: str, at: int) -> bool:
        """Spend a day from `at` for a clock of the player's that runs out then; whether the player is
        on vacation at `at` now (a day spent, or one spent already covers it), False if no day is left."""
        def change(spans: tuple[Span, ...]) -> tuple[Span | None, Span | None]:
            if _underway(spans, at) is not None:
                return None, None
            if _spent(spans, _year(at)) + 1 > self.days_per_year:
                raise VacationRefused("No vacation day is left this year.")
            return None, (at, at + DAY)
        try:
            self._change(player_id, change)
        except VacationRefused:
            return False
        return True

    def _change(self, player_id: str, change: Change) -> bool:
        """Replace one span by another (either None) as `change` decides on the spans it reads, atomically."""
        key = keys.vacations(player_id)
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
    """Every vacation of the player, oldest first."""
    return _parse(cast(list[bytes], client.zrange(keys.vacations(player_id), 0, -1)))


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
