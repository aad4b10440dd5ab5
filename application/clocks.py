"""Each seat's clock, worked out from the game's log alone: who made each move and when (the actor
and time of every event), the game's time control, and what stopped a seat's clock (its player's
vacations, and weekends in its time zone). Nothing here reads a store or the wall clock, so a
log replayed or imported shows the clocks the live game showed.

A seat's turn is the time it is to move (the rules' `to_move` after each command): it begins with
the command that makes the seat one to move and ends with the command that makes it no longer one,
whoever sent either; a move out of turn (TAKI's "last card" from another seat) starts or ends no
turn. Per move, the time runs from the game's latest command, whoever sent it; simple and Fischer
clocks time the whole turn. A Fischer clock is charged each turn's time, then given its increment
(up to its maximum) only if the seat's own move ended the turn, not a deadline's nor another seat's;
a clock never goes below zero (a move that comes after it reached zero, before the timeout was
applied, still wins)."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from events.envelope import ClockSystem, TurnDeadline
from players.vacations import DAY, Span

YEAR = 365 * DAY


@dataclass(frozen=True, slots=True)
class Move:
    """One command of the log: the seat whose own move it was (None for an opening or a deadline's),
    when it was appended, and the seats to move after it."""

    seat: int | None
    time: int
    to_move: frozenset[int]


@dataclass(frozen=True, slots=True)
class Pauses:
    """When a seat's clock stands still: its player's vacations, and its weekends in `weekends` (a zone)."""

    vacations: tuple[Span, ...] = ()  # sorted by start
    weekends: str | None = None


@dataclass(frozen=True, slots=True)
class Clock:
    """A seat's clock at a moment."""

    seat: int
    remaining: int  # ms left
    running: bool  # the seat is to move and nothing stops its clock now
    paused: str | None  # "vacation" or "weekend" while the seat is to move and that stops its clock
    runs_out: int | None  # when it reaches zero if nothing else happens; None for a seat not to move
    stops_at: int | None = None  # a running clock: when it next stops by itself before that (a weekend begins)


def clocks(control: TurnDeadline, seats: int, moves: Sequence[Move], pauses: Mapping[int, Pauses],
           now: int) -> tuple[Clock, ...]:
    """Every seat's clock at `now` (no earlier than the last move), after `moves`."""
    banks, began = _turns(control, seats, moves, pauses)
    return tuple(_clock(control, seat, banks[seat], began.get(seat), pauses.get(seat, Pauses()), now)
                 for seat in range(seats))


def _turns(control: TurnDeadline, seats: int, moves: Sequence[Move],
           pauses: Mapping[int, Pauses]) -> tuple[list[int], dict[int, int]]:
    """Each seat's time left when its current turn began (or its bank, for a seat not to move), and
    when each seat to move began its turn (per move: the latest command)."""
    banks = [_capped(control.seconds * 1000, control)] * seats
    began: dict[int, int] = {}
    for move in moves:
        for seat in [seat for seat in began if seat not in move.to_move]:
            turn_began = began.pop(seat)
            if control.clock is ClockSystem.FISCHER:
                left = max(0, banks[seat] - _active(turn_began, move.time, pauses.get(seat, Pauses()), None))
                banks[seat] = _capped(left + control.increment * 1000, control) if move.seat == seat else left
        for seat in move.to_move:
            began.setdefault(seat, move.time)
    if control.clock is ClockSystem.PER_MOVE and moves:
        return banks, dict.fromkeys(began, moves[-1].time)
    return banks, began


def _capped(bank: int, control: TurnDeadline) -> int:
    """`bank` up to the control's maximum (a year for one stored without, as none is accepted now)."""
    return min(bank, YEAR if control.maximum is None else control.maximum * 1000)


def _clock(control: TurnDeadline, seat: int, bank: int, began: int | None, pauses: Pauses, now: int) -> Clock:
    """The clock of `seat` at `now`: standing at `bank`, or running from `began` with `bank` left
    then, and stopped by the vacations begun by `now` (as it was shown then, in a replay)."""
    if began is None:
        return Clock(seat, bank, False, None, None)
    pauses = Pauses(tuple(span for span in pauses.vacations if span[0] <= now), pauses.weekends)
    cap = _vacation_cap(control)
    remaining = max(0, bank - _active(began, now, pauses, cap))
    stopped, runs_out = _stopped_at(now, began, pauses, cap), _runs_out(began, bank, pauses, cap)
    return Clock(seat, remaining, stopped is None, stopped, runs_out,
                 _next_stop(now, began, pauses, cap, runs_out) if stopped is None else None)


def _next_stop(moment: int, began: int, pauses: Pauses, cap: int | None, runs_out: int) -> int | None:
    """When a clock running at `moment` next stops by itself, if it does before it runs out at `runs_out`."""
    for start, _ in _stops(began, pauses, cap):
        if start >= runs_out:
            return None
        if start > moment:
            return start
    return None


def _vacation_cap(control: TurnDeadline) -> int | None:
    """How much vacation may stop a clock during one turn: per move, the game's `vacation_days`; else no cap."""
    return control.vacation_days * DAY if control.clock is ClockSystem.PER_MOVE else None


def _stopped_at(moment: int, began: int, pauses: Pauses, cap: int | None) -> str | None:
    """What stops the clock at `moment`, if anything."""
    if any(start <= moment < end for start, end in _vacations(began, pauses, cap)):
        return "vacation"
    if pauses.weekends is not None and any(start <= moment < end for start, end in _weekends_until(began, moment, pauses)):
        return "weekend"
    return None


def _weekends_until(began: int, moment: int, pauses: Pauses) -> Iterator[Span]:
    for span in weekends(pauses.weekends or "UTC", began):
        if span[0] > moment:
            return
        yield span


def _active(began: int, end: int, pauses: Pauses, cap: int | None) -> int:
    """The time in [began, end) that the clock ran."""
    run, cursor = 0, began
    for start, stop in _stops(began, pauses, cap):
        if start >= end:
            break
        run += max(0, start - cursor)
        cursor = max(cursor, stop)
    return run + max(0, end - cursor)


def _runs_out(began: int, left: int, pauses: Pauses, cap: int | None) -> int:
    """When a clock running from `began` with `left` ms reaches zero; one that stops the moment it
    would (a vacation day spent for it then) reaches zero when it runs again."""
    cursor = began
    for start, stop in _stops(began, pauses, cap):
        if start - cursor > left:
            break
        left -= max(0, start - cursor)
        cursor = max(cursor, stop)
    return cursor + left


def _stops(began: int, pauses: Pauses, cap: int | None) -> Iterator[Span]:
    """The spans from `began` on during which the clock stands still, merged, in order (endless with weekends)."""
    spans = heapq.merge(_vacations(began, pauses, cap),
                        weekends(pauses.weekends, began) if pauses.weekends is not None else iter(()))
    current: Span | None = None
    for start, stop in spans:
        if current is not None and start <= current[1]:
            current = (current[0], max(current[1], stop))
            continue
        if current is not None:
            yield current
        current = (start, stop)
    if current is not None:
        yield current


def _vacations(began: int, pauses: Pauses, cap: int | None) -> Iterator[Span]:
    """The vacation spans from `began` on, clipped to it, and no more of them in all than `cap` ms
    of the time the clock would have run (a weekend that stops it anyway costs nothing of `cap`)."""
    left, weekends = cap, Pauses((), pauses.weekends)
    for start, end in pauses.vacations:
        start = max(start, began)
        if end <= start:
            continue
        if left is not None:
            end = min(end, _runs_out(start, left, weekends, None))
            left -= _active(start, end, weekends, None)
        if end > start:
            yield start, end
        if left == 0:
            return


def weekends(zone: str, since: int) -> Iterator[Span]:
    """Every weekend (Saturday 00:00 to Monday 00:00 in `zone`) that ends after `since`, in order."""
    tz = ZoneInfo(zone)
    day = datetime.fromtimestamp(since / 1000, tz).date()
    saturday = day - timedelta(days=(day.weekday() - 5) % 7)
    while True:
        start = datetime(saturday.year, saturday.month, saturday.day, tzinfo=tz)
        monday = saturday + timedelta(days=2)
        end = datetime(monday.year, monday.month, monday.day, tzinfo=tz)
        if end.timestamp() * 1000 > since:
            yield int(start.timestamp() * 1000), int(end.timestamp() * 1000)
        saturday += timedelta(days=7)
