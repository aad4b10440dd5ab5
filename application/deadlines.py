"""When a seat's time to act runs out: the earlier of the rules' own deadline (TAKI's +3 window)
and the moment its clock reaches zero. Clocks are worked out from the game's log
(application/clocks.py) with what stops them: the vacations of the seat's player (an imported
game's, as its log gave them) and the seat's weekends, when the game's time control has them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from application.clocks import Clock, Move, Pauses, clocks
from application.timelines import folded, played
from domain.core.game import Budget
from events import clock
from events.envelope import ClockSystem, DeadlinePolicy, Envelope, GameRecord, TurnDeadline
from events.execute import Loaded
from events.log_file import GameLog, LogClock
from events.store import EventStore
from players.vacations import DAY, Span, Spent, Vacations, spans_of


@dataclass(frozen=True, slots=True)
class Due:
    at: int  # milliseconds since the epoch
    policy: DeadlinePolicy  # the rules' own deadline skips; `auto` plays the AI at `level`, within `budget` if set
    level: str | None
    budget: Budget | None = None


def game_clocks(store: EventStore, loaded: Loaded, now: int | None = None) -> tuple[Clock, ...] | None:
    """Every seat's clock at the loaded version, as of `now` (by default: now at the game's current
    version, the moment the version was appended at an earlier one); None for a game with no time control."""
    control = loaded.record.deadline
    if control is None or loaded.version == 0:
        return None
    first, moves = timeline(store, loaded)
    status = loaded.game.status(loaded.state)
    live = loaded.version == loaded.record.version and not status.finished
    if now is None:
        now = clock.now() if live else moves[-1].time
    found = pauses(store, loaded.record)
    if not live:  # a past or finished state shows what the game's exported log gives
        last = moves[-1].time if loaded.version == loaded.record.version else \
            store.streams.read(loaded.record.id, after=loaded.record.version - 1, limit=1)[0].time
        found = within(found, first, last)
    return clocks(control, loaded.record.seats, moves, found, max(now, moves[-1].time))


def timeline(store: EventStore, loaded: Loaded) -> tuple[int, Sequence[Move]]:
    """Since when the loaded game's log is read, and its log as its clocks read it: its commands
    from its first event (application.timelines); for a per-move clock only the latest counts."""
    if loaded.record.deadline is None or loaded.record.deadline.clock is ClockSystem.PER_MOVE:
        latest = store.streams.read(loaded.record.id, after=loaded.version - 1, limit=1)[0]
        return latest.time, [Move(None, latest.time, frozenset(loaded.game.status(loaded.state).to_move))]
    kept = folded(store, loaded)
    return kept.first, kept.moves


def pauses(store: EventStore, record: GameRecord) -> dict[int, Pauses]:
    """What may stop each seat's clock: its player's vacations and its weekends."""
    vacations = {seat: record.vacations.get(seat, ()) if record.imported else spans_of(store.redis, holder) if holder else ()
                 for seat, holder in ((seat, record.holders.get(seat)) for seat in range(record.seats))}
    return seat_pauses(record.deadline, record.seats, vacations, record.time_zones)


def seat_pauses(control: TurnDeadline | None, seats: int, vacations: Mapping[int, tuple[Span, ...]],
                time_zones: Mapping[int, str]) -> dict[int, Pauses]:
    """Each seat's pauses: its `vacations`, and its weekends in its time zone if `control` has them."""
    weekends = control is not None and control.weekends
    return {seat: Pauses(vacations.get(seat, ()), time_zones.get(seat, "UTC") if weekends else None) for seat in range(seats)}


def early_deadline(log: GameLog) -> tuple[int, str] | None:
    """The first event of a log with a time control (its times in order) that a deadline moved for a
    seat whose time had not run out then, neither the rules' own deadline nor its clock as the live
    game works it out from the log (application.clocks), and why; None if there is none (or the log is
    of format 1, checked the old way)."""
    if log.clock is None or log.format_version == 1 or not log.times_in_order():
        return None
    found = seat_pauses(log.clock.control, log.seats, log.clock.vacations, log.clock.time_zones)
    runs, events = log.moves(), iter(log.events)
    decoded = [(actor, lines[0]["time"], [next(events) for _ in lines]) for actor, lines in runs]
    state = log.game.initial(log.game.parse_options(log.options, log.seats), log.seats)
    moves: list[Move] = []
    version, opened = 1, 0  # opened: when the rules' own window open before the move opened
    for (before, move), (actor, lines) in zip(played(log.game, state, decoded), runs, strict=True):
        if (found_seat := _deadline_seat(actor)) is not None and moves:
            problem = _before_time(log, log.clock.control, before, (moves, opened), found, found_seat, move.time)
            if problem is not None:
                return version, problem
        if log.game.response_seconds(before) is None:
            opened = move.time
        moves.append(move)
        version += len(lines)
    return None


def _deadline_seat(actor: str) -> int | None:
    """The seat a deadline's actor (`deadline:n`) moved for; None for any other actor."""
    return int(actor.split(":")[1]) if actor.startswith("deadline:") else None


def _before_time(log: GameLog, control: TurnDeadline, state: Any, before: tuple[list[Move], int],
                 found: dict[int, Pauses], seat: int, at: int) -> str | None:
    """Why a deadline that moved for `seat` at `at`, on `state` after the moves `before` it (and when the
    rules' own window open on it opened), came before its time; None if it did not."""
    moves, opened = before
    seconds = log.game.response_seconds(state)
    if seconds is not None and at >= opened + seconds * 1000:
        return None  # the rules' own deadline, counted from its window's opening
    runs_out = clocks(control, log.seats, moves, found, at)[seat].runs_out
    if runs_out is not None and at >= runs_out:
        return None
    when = "it was not to move" if runs_out is None else f"its clock ran out at {runs_out}"
    return f"a deadline moved for seat {seat} at {at}, before its time ran out ({when})"


def log_clock(store: EventStore, record: GameRecord, envelopes: list[Envelope]) -> LogClock | None:
    """What an exported log's clocks need beside its events: the vacations that fell within the
    game (up to its last event: none that lasts past it says when it ends)."""
    if record.deadline is None or not envelopes:
        return None
    found = within(pauses(store, record), envelopes[0].time, envelopes[-1].time)
    return LogClock(record.deadline, record.time_zones, {seat: stops.vacations for seat, stops in found.items() if stops.vacations})


def within(found: dict[int, Pauses], first: int, last: int) -> dict[int, Pauses]:
    """Each seat's pauses with its vacations cut to the game's first and last events: none that
    lasts past the last says when it ends."""
    return {seat: replace(stops, vacations=tuple((max(start, first), min(end, last)) for start, end in stops.vacations
                                                 if start < last and end > first))
            for seat, stops in found.items()}


def correspondence(control: TurnDeadline) -> bool:
    """Whether a time control is one for correspondence, whose clocks a vacation day is spent for
    when they run out: a day or more for a move (per move, simple) or in the bank a clock starts with (Fischer)."""
    return control.seconds >= DAY // 1000


def spend_vacation_day(store: EventStore, loaded: Loaded, seat: int, at: int, days_per_year: int) -> Spent:
    """Spend a vacation day from `at` for the player at `seat` if their clock, in a correspondence
    game, runs out then as their vacations stand when it is spent (players.vacations.Spent)."""
    holder, control = loaded.record.holders.get(seat), loaded.record.deadline
    if holder is None or control is None or loaded.record.imported or not correspondence(control):
        return Spent.NONE
    found = pauses(store, loaded.record)
    log = timeline(store, loaded)[1]

    def runs_out(spans: tuple[Span, ...]) -> int | None:
        stops = {s: replace(p, vacations=spans) if loaded.record.holders.get(s) == holder else p for s, p in found.items()}
        return clocks(control, loaded.record.seats, log, stops, at)[seat].runs_out

    def check(spans: tuple[Span, ...]) -> Spent | None:
        if (now := runs_out(spans)) is None or now > at:
            return Spent.NOT_DUE
        later = runs_out(tuple(sorted((*spans, (at, at + DAY)))))
        return Spent.NONE if later is None or later <= at else None  # past the days a per-move deadline allows
    return Vacations(store.redis, days_per_year).spend_day(holder, at, check)


def deadlines(store: EventStore, loaded: Loaded, found: tuple[Clock, ...] | None) -> dict[int, Due]:
    """When each seat to move must act by, for those with a deadline, given the game's clocks now (`found`):
    at the game's current version only (a past version's deadlines have passed, or moved with a vacation since)."""
    if loaded.version == 0 or loaded.version != loaded.record.version:
        return {}
    each = {seat: due(store, loaded, seat, found) for seat in loaded.game.status(loaded.state).to_move}
    return {seat: deadline for seat, deadline in each.items() if deadline is not None}


def window_opened(store: EventStore, loaded: Loaded) -> int:
    """When the rules' own window open at the loaded version opened: the time of the latest event that
    opened one (Game.window_opening), so that a seat answering in it gives the seats still awaited no
    more time; read once per loaded version however many seats it awaits."""
    key = (loaded.record.id, loaded.version, loaded.command_id)
    if (found := _OPENED.get(key)) is None:
        if loaded.game.window_opening is None or \
                (found := store.streams.time_of_latest(loaded.record.id, loaded.version, loaded.game.window_opening)) is None:
            raise ValueError(f"no event opened the window open at version {loaded.version} of {loaded.record.id}")
        _OPENED[key] = found
        if len(_OPENED) > OPENINGS_KEPT:
            del _OPENED[next(iter(_OPENED))]
    return found


OPENINGS_KEPT = 1024  # the windows' openings kept in this process, the oldest dropped first
_OPENED: dict[tuple[str, int, str | None], int] = {}  # (game, version, the command appending it) → when its window opened


def due(store: EventStore, loaded: Loaded, seat: int, clocks: tuple[Clock, ...] | None = None) -> Due | None:
    """The deadline of `seat` at the loaded version, or None if it has none; `clocks`, the game's
    clocks now if the caller has them already."""
    seconds, turn = loaded.game.response_seconds(loaded.state), loaded.record.deadline
    if loaded.version == 0 or seat not in loaded.game.status(loaded.state).to_move or (seconds is None and turn is None):
        return None
    candidates: list[Due] = []
    if seconds is not None:
        candidates.append(Due(window_opened(store, loaded) + seconds * 1000, DeadlinePolicy.SKIP, None))
    found = clocks if clocks is not None else game_clocks(store, loaded) if turn is not None else None
    if turn is not None and found is not None and (runs_out := found[seat].runs_out) is not None:
        candidates.append(Due(runs_out, turn.policy, turn.level, turn.budget))
    return min(candidates, key=lambda deadline: deadline.at, default=None)
