"""Clocks worked out from a log: per move, simple and Fischer, with vacations and weekends."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from application.clocks import Clock, Move, Pauses, clocks, weekends
from events.envelope import ClockSystem, DeadlinePolicy, TurnDeadline
from players.vacations import DAY

T0 = 1_790_000_000_000  # a Wednesday
HOUR = 3_600_000


def fischer(seconds: int, increment: int = 0, maximum: int | None = None, weekends: bool = False) -> TurnDeadline:
    return TurnDeadline(seconds, DeadlinePolicy.SKIP, clock=ClockSystem.FISCHER, increment=increment, maximum=maximum,
                        weekends=weekends)


def simple(seconds: int) -> TurnDeadline:
    return TurnDeadline(seconds, DeadlinePolicy.SKIP, clock=ClockSystem.SIMPLE)


def per_move(seconds: int, vacation_days: int = 0) -> TurnDeadline:
    return TurnDeadline(seconds, DeadlinePolicy.SKIP, vacation_days=vacation_days)


def log(*moves: tuple[int, int], then: tuple[int, ...]) -> list[Move]:
    """The opening at T0, then each (seat, seconds after T0), each in its turn: the next to move is
    the seat that moves next, and after the last `then`."""
    return timed([Move(None, T0, frozenset())] + [Move(seat, T0 + at * 1000, frozenset()) for seat, at in moves], then)


def timed(moves: list[Move], then: tuple[int, ...]) -> list[Move]:
    """`moves`, each followed by the turn of the seat that moves next, the last by `then`'s."""
    after = [frozenset({move.seat}) if move.seat is not None else frozenset() for move in moves[1:]]
    return [replace(move, to_move=turn) for move, turn in zip(moves, [*after, frozenset(then)], strict=True)]


def test_a_fischer_clock_is_charged_each_turn_then_given_its_increment() -> None:
    moves = log((0, 30), (1, 100), (0, 110), then=(1,))  # seat 0 thinks 30 s, seat 1 70 s, seat 0 10 s
    found = clocks(fischer(60, increment=5), 2, moves, {}, T0 + 120_000)
    assert found[0] == Clock(0, (60 - 30 + 5 - 10 + 5) * 1000, False, None, None)
    # seat 1 ran out on its first turn: its clock stopped at zero and got its increment, 5 s from 110 s
    assert found[1] == Clock(1, 0, True, None, T0 + 115_000)


def test_a_fischer_clock_never_holds_more_than_its_maximum() -> None:
    moves = log((0, 1), (1, 2), (0, 3), (1, 4), then=(0,))
    found = clocks(fischer(60, increment=30, maximum=80), 2, moves, {}, T0 + 4000)
    assert found[0].remaining == 80_000 and found[1].remaining == 80_000


def test_a_turn_is_a_seats_run_of_moves() -> None:
    moves = log((0, 10), (0, 20), (1, 50), then=(0,))  # seat 0 plays twice in a row: one turn of 20 s
    assert clocks(fischer(60, increment=1), 2, moves, {}, T0 + 50_000)[0].remaining == (60 - 20 + 1) * 1000
    mid_turn = clocks(simple(60), 2, log((0, 10), (0, 20), then=(0,)), {}, T0 + 25_000)[0]
    assert mid_turn.remaining == 35_000 and mid_turn.runs_out == T0 + 60_000  # simple: the whole turn from its start
    per = clocks(per_move(60), 2, log((0, 10), (0, 20), then=(0,)), {}, T0 + 25_000)[0]
    assert per.remaining == 55_000 and per.runs_out == T0 + 80_000  # per move: from the latest event


def test_a_move_out_of_turn_neither_ends_nor_begins_a_turn() -> None:
    # seat 1 is to move from 10 s; seat 2 says "Last card!" out of turn at 100 s; seat 1 moves at 110 s
    moves = [Move(None, T0, frozenset({0})), Move(0, T0 + 10_000, frozenset({1})), Move(2, T0 + 100_000, frozenset({1})),
             Move(1, T0 + 110_000, frozenset({2}))]
    found = clocks(fischer(600, increment=5), 3, moves, {}, T0 + 120_000)
    assert [clock.remaining for clock in found] == [595_000, 505_000, 590_000]
    assert clocks(simple(600), 3, moves[:3], {}, T0 + 105_000)[1].remaining == 505_000


def test_each_seat_a_plus_3_waits_for_is_charged_from_its_opening_and_a_deadlines_pass_earns_nothing() -> None:
    # seat 0's +3 at 10 s waits for seats 1 and 2; seat 1 passes at 40 s, seat 2's deadline passes for it
    # at 70 s, and seat 1 is to move
    moves = [Move(None, T0, frozenset({0})), Move(0, T0 + 10_000, frozenset({1, 2})), Move(1, T0 + 40_000, frozenset({2})),
             Move(None, T0 + 70_000, frozenset({1}))]
    found = clocks(fischer(600, increment=5), 3, moves, {}, T0 + 80_000)
    assert [clock.remaining for clock in found] == [595_000, 565_000, 540_000]
    assert clocks(simple(600), 3, moves[:3], {}, T0 + 50_000)[2].remaining == 560_000

def test_simple_time_is_not_kept() -> None:
    moves = log((0, 5), (1, 10), then=(0,))
    found = clocks(simple(60), 2, moves, {}, T0 + 10_000)
    assert found[0].remaining == 60_000 and found[0].runs_out == T0 + 70_000 and found[1].remaining == 60_000


def test_a_vacation_stops_the_clock_and_hides_nothing_else() -> None:
    away = {0: Pauses(((T0 + 10_000, T0 + 10_000 + DAY),))}
    found = clocks(fischer(60), 2, log(then=(0,)), away, T0 + 20_000)[0]
    assert found == Clock(0, 50_000, False, "vacation", T0 + 60_000 + DAY)


def test_a_per_move_deadline_waits_for_a_vacation_up_to_the_days_its_game_allows() -> None:
    away = {0: Pauses(((T0, T0 + 5 * DAY),))}
    assert clocks(per_move(60, vacation_days=2), 1, log(then=(0,)), away, T0)[0].runs_out == T0 + 2 * DAY + 60_000
    assert clocks(per_move(60), 1, log(then=(0,)), away, T0)[0].runs_out == T0 + 60_000  # none allowed


def test_a_vacation_day_on_a_weekend_costs_nothing_of_what_a_per_move_deadline_waits() -> None:
    friday = int(datetime(2026, 11, 27, 12, 0, tzinfo=UTC).timestamp() * 1000)
    monday = int(datetime(2026, 11, 30, 0, 0, tzinfo=UTC).timestamp() * 1000)
    control = TurnDeadline(60, DeadlinePolicy.SKIP, vacation_days=1, weekends=True)
    away = {0: Pauses(((friday, friday + 5 * DAY),), "UTC")}  # from Friday noon: half a day, the weekend, half a day
    found = clocks(control, 1, [Move(None, friday, frozenset({0}))], away, friday)[0]
    assert found.runs_out == monday + 12 * HOUR + 60_000 and found.paused == "vacation"

def test_a_weekend_pause() -> None:
    friday = int(datetime(2026, 11, 27, 22, 0, tzinfo=UTC).timestamp() * 1000)
    monday = int(datetime(2026, 11, 30, 0, 0, tzinfo=UTC).timestamp() * 1000)
    control = fischer(4 * 3600, weekends=True)
    moves = [Move(None, friday, frozenset({0}))]
    assert clocks(control, 1, moves, {0: Pauses(weekends="UTC")}, friday)[0].runs_out == monday + 2 * HOUR
    saturday = clocks(control, 1, moves, {0: Pauses(weekends="UTC")}, friday + 10 * HOUR)[0]
    assert saturday == Clock(0, 2 * HOUR, False, "weekend", monday + 2 * HOUR)
    # in Tokyo the weekend began at Friday 15:00 UTC, before the clock started: it runs from Sunday 15:00 UTC
    tokyo = clocks(control, 1, moves, {0: Pauses(weekends="Asia/Tokyo")}, friday)[0]
    assert tokyo.runs_out == monday - 9 * HOUR + 4 * HOUR and tokyo.paused == "weekend"


def test_a_running_clock_says_when_a_weekend_stops_it_before_it_runs_out() -> None:
    friday = int(datetime(2026, 11, 27, 22, 0, tzinfo=UTC).timestamp() * 1000)
    moves = [Move(None, friday, frozenset({0}))]
    running = clocks(fischer(4 * 3600, weekends=True), 1, moves, {0: Pauses(weekends="UTC")}, friday + HOUR)[0]
    assert running.running and running.stops_at == friday + 2 * HOUR  # Saturday 00:00
    assert clocks(fischer(3600, weekends=True), 1, moves, {0: Pauses(weekends="UTC")}, friday)[0].stops_at is None
    assert clocks(fischer(4 * 3600), 1, moves, {0: Pauses()}, friday)[0].stops_at is None
    paused = clocks(fischer(4 * 3600, weekends=True), 1, moves, {0: Pauses(weekends="UTC")}, friday + 3 * HOUR)[0]
    assert paused.paused == "weekend" and paused.stops_at is None


def test_weekends_follow_their_zone_across_a_change_of_summer_time() -> None:
    spans = weekends("Europe/Paris", int(datetime(2026, 3, 26, tzinfo=UTC).timestamp() * 1000))
    first = next(spans)  # 28-30 March 2026: summer time begins on the Sunday
    assert first[1] - first[0] == 2 * DAY - HOUR
    assert datetime.fromtimestamp(first[0] / 1000, UTC) == datetime(2026, 3, 27, 23, 0, tzinfo=UTC)


def test_a_finished_game_shows_every_clock_stopped() -> None:
    found = clocks(fischer(60, increment=2), 2, log((0, 3), (1, 7), then=()), {}, T0 + 99_000)
    assert [(c.remaining, c.running, c.runs_out) for c in found] == [(59_000, False, None), (58_000, False, None)]


turns = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3 * DAY)), max_size=12)
spans = st.lists(st.tuples(st.integers(0, 20 * DAY), st.integers(1, 3 * DAY)), max_size=3)
controls = st.one_of(
    st.builds(fischer, st.integers(1, 5 * 86400), st.integers(0, 86400), st.one_of(st.none(), st.integers(5 * 86400, 9 * 86400)),
              st.booleans()),
    st.builds(simple, st.integers(1, 5 * 86400)),
    st.builds(per_move, st.integers(1, 5 * 86400), st.integers(0, 3)))


def played(steps: list[tuple[int, int]], then: tuple[int, ...]) -> list[Move]:
    moves, at = [Move(None, T0, frozenset())], T0
    for seat, wait in steps:
        at += wait
        moves.append(Move(seat, at, frozenset()))
    return timed(moves, then)


def paused(found: list[tuple[int, int]], zone: bool) -> Pauses:
    vacations = tuple(sorted((T0 + start, T0 + start + length) for start, length in found))
    return Pauses(vacations, "Europe/Paris" if zone else None)


@given(controls, turns, st.integers(0, 2), spans, st.booleans(), st.integers(0, 10 * DAY))
def test_a_running_clock_reaches_zero_exactly_when_it_says(control: TurnDeadline, steps: list[tuple[int, int]],
                                                           seat: int, away: list[tuple[int, int]], zone: bool,
                                                           later: int) -> None:
    moves = played(steps, (seat,))
    now = moves[-1].time + later
    known = paused(away, zone)  # the vacations begun by now: one begun later is not foreseen
    stops = {seat: Pauses(tuple(span for span in known.vacations if span[0] <= now), known.weekends)}
    clock = clocks(control, 3, moves, stops, now)[seat]
    assert clock.runs_out is not None and clock.remaining >= 0
    assert clocks(control, 3, moves, stops, max(now, clock.runs_out))[seat].remaining == 0
    if clock.runs_out > moves[-1].time:  # the millisecond before, it ran with one left, or stood still at zero
        before = clocks(control, 3, moves, stops, clock.runs_out - 1)[seat]
        assert (before.remaining, before.running) in ((1, True), (0, False))
    if clock.remaining > 0:
        assert clock.runs_out > now


@given(controls, turns, st.integers(0, 2), spans, st.booleans())
def test_a_pause_never_brings_a_clock_nearer_its_end(control: TurnDeadline, steps: list[tuple[int, int]], seat: int,
                                                     away: list[tuple[int, int]], zone: bool) -> None:
    moves = played(steps, (seat,))
    bare = clocks(control, 3, moves, {}, moves[-1].time)[seat]
    stopped = clocks(control, 3, moves, {seat: paused(away, zone)}, moves[-1].time)[seat]
    assert bare.runs_out is not None and stopped.runs_out is not None
    assert stopped.runs_out >= bare.runs_out and stopped.remaining >= bare.remaining


@given(st.integers(1, 86400), st.integers(0, 3600), turns)
def test_without_pauses_a_fischer_clock_is_its_time_and_increments_less_its_turns(seconds: int, increment: int,
                                                                                 steps: list[tuple[int, int]]) -> None:
    moves = played(steps, ())
    found = clocks(fischer(seconds, increment), 3, moves, {}, moves[-1].time)
    for seat in range(3):
        bank, began = seconds * 1000, moves[0].time
        for number in range(1, len(moves)):  # each run of a seat: charged from the event before it to its last move
            move = moves[number]
            if move.seat != moves[number - 1].seat:
                began = moves[number - 1].time
            if move.seat == seat and (number == len(moves) - 1 or moves[number + 1].seat != seat):
                bank = max(0, bank - (move.time - began)) + increment * 1000
        assert found[seat].remaining == bank


def test_a_vacation_day_spent_as_a_clock_runs_out_gives_the_seat_that_day() -> None:
    out = clocks(fischer(60), 1, log(then=(0,)), {}, T0 + 60_000)[0]
    assert out.runs_out == T0 + 60_000 and out.remaining == 0
    spent = {0: Pauses(((T0 + 60_000, T0 + 60_000 + DAY),))}
    assert clocks(fischer(60), 1, log(then=(0,)), spent, T0 + 60_000)[0] == Clock(0, 0, False, "vacation", T0 + 60_000 + DAY)


def test_a_replay_does_not_foresee_a_vacation_begun_later() -> None:
    later = {0: Pauses(((T0 + 30_000, T0 + DAY),))}
    assert clocks(fischer(60), 1, log(then=(0,)), later, T0 + 10_000)[0].runs_out == T0 + 60_000
    assert clocks(fischer(60), 1, log(then=(0,)), later, T0 + 40_000)[0].runs_out == T0 + DAY + 30_000
