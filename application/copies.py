"""New games made of others: a fork goes on from a version of a game, a rematch offers a finished
game again, an import stores a game exported from a server."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, TypeVar

from application.deadlines import early_deadline
from application.errors import Invalid, NotNow, NotReached, TooLong, Unavailable, Unreadable
from application.lobby import Bot, Caller, GameSettings, Lobby, Opened
from application.tokens import new_id
from domain.core.game import Game
from domain.core.redecision import Own
from events import clock, keys
from events.envelope import GameRecord, Lifecycle, NewEvent, NextCommand, Origin
from events.errors import GameNotFound, LogInvalid, LogTooLong, NotPublished
from events.execute import Executor, recorded
from events.log_file import GameLog, read_log
from events.store import EventStore

T = TypeVar("T")
SKEW = 60_000  # ms: how far after this server's now an imported event's time may be (another server's clock)


def fork(lobby: Lobby, origin: GameRecord, version: int, settings: GameSettings, caller: Caller) -> Opened:
    """A new game that opens with `origin`'s events up to `version` and goes on from there, with
    new seats: once the game is over (or before, to the admin). It keeps who played the opening
    it copies: the names of `origin`'s seats."""
    _check_fork(lobby.executor, origin, version, caller)
    return lobby.open(origin.game, origin.options, origin.seats, settings, caller,
                      forked_from=Origin(origin.id, version, origin.names), private_origin=origin.unlisted)


def _check_fork(executor: Executor, origin: GameRecord, version: int, caller: Caller) -> None:
    """Refuse a fork of a game not over (but to the admin), at a version it has not reached,
    inside a move, or at which it was already over."""
    if origin.status is not Lifecycle.FINISHED and not caller.is_admin():
        raise NotNow("game_not_finished", "A game can be forked once it is over.")
    if version > origin.version:
        raise NotReached("version_not_found", f"The game is at version {origin.version}.", current=origin.version)
    at, *following = executor.store.streams.read(origin.id, after=version - 1, limit=2)
    if following and following[0].command_id == at.command_id:
        raise Invalid("not_a_move_boundary", f"Version {version} falls inside a move; fork where one ends.")
    loaded = executor.load(origin.id, version)
    if loaded.game.status(loaded.state).finished:
        raise Invalid("game_over_at_version", f"The game is already over at version {version}.")


def rematch(lobby: Lobby, origin: GameRecord, seat: int, caller: Caller) -> Opened:
    """Offer a finished game again, asked by one of its seats: a new unlisted game of the same
    game, options and settings, seats rotated by one, each registered player's seat reserved for
    them and each AI's kept. One rematch per game: asked again, the one offered first answers."""
    creator = origin.holders.get(seat)
    if origin.status is not Lifecycle.FINISHED:
        raise NotNow("game_not_finished", "A rematch is offered once the game is over.")
    if origin.rematch is not None:
        return Opened(origin.rematch, creator, new=False)
    caller.count_game()  # its invitations are to players who held seats beside the one asking: contacts, not limited
    rematch_id, settings = new_id(), _rematch_settings(origin, lobby.lobby_seconds, origin.chat)
    lobby.create(rematch_id, origin.game, origin.options, origin.seats, settings, creator=creator,
                 rematch_of=origin.id, private_origin=origin.unlisted)
    games = lobby.executor.store.games
    if (named := games.name_rematch(origin.id, rematch_id)) != rematch_id:
        games.discard(rematch_id)  # another seat asked at the same time, and its rematch was named first
        return Opened(named, creator, new=False)
    lobby.invite(rematch_id, lobby.invitations.reaching(creator, settings.reserved.values()))
    return Opened(rematch_id, creator)


def _rematch_settings(origin: GameRecord, lobby_seconds: int, chat: bool) -> GameSettings:
    """The settings of `origin`'s rematch: its own, unlisted, with each seat's player (reserved)
    and AI moved on by one seat; its lobby time, or else `lobby_seconds`; its `chat` on or off as the original's."""
    budgets = _rotated(origin, origin.budgets)
    bots = tuple(Bot(seat, level, budgets.get(seat))
                 for seat, level in _rotated(origin, dict(enumerate(origin.bots))).items() if level is not None)
    waits = (origin.lobby_until - origin.created) // 1000 if origin.lobby_until else lobby_seconds
    return GameSettings(origin.deadline, origin.spectator_delay, waits, bots, unlisted=True,
                    reserved=_rotated(origin, origin.holders), chat=chat, rated=origin.rated)


def _rotated(record: GameRecord, by_seat: Mapping[int, T]) -> dict[int, T]:
    """What each seat had, moved on to the next seat (the last seat's to seat 0)."""
    return {(seat + 1) % record.seats: value for seat, value in by_seat.items()}


def checked_log(body: bytes, max_events: int) -> GameLog:
    """The finished game an exported log holds, checked as strictly as a live game, each command it
    records decided again (a log of format 1 records none: its events are checked the old way);
    refused naming the first event the rules would not have written, and why."""
    try:
        log = read_log(body.decode("utf-8").splitlines(), max_events=max_events, first_problem=True)
    except UnicodeDecodeError:
        raise Unreadable("invalid_log", "The log is not UTF-8 text.") from None
    except LogTooLong as problem:
        raise TooLong("log_too_long", str(problem), limit=max_events) from None
    except LogInvalid as problem:
        raise Invalid("invalid_log", str(problem), **({} if problem.event is None else {"event": problem.event})) from None
    if log.problems:
        raise Invalid("invalid_log", log.first_problem() or "", event=log.problems[0][0])
    if not log.game.status(log.state).finished:
        raise Invalid("invalid_log", "Only the log of a finished game can be imported.")
    if log.clock is not None and not log.times_in_order():
        raise Invalid("invalid_log", "A log with clocks needs each event's `time`, whole milliseconds in order.")
    times = [at for entry in log.envelopes if type(at := entry.get("time")) is int]
    if times and not 0 <= min(times) <= max(times) <= clock.now() + SKEW:
        raise Invalid("invalid_log", "An event's `time` is later than now (or before 1970).")
    if log.clock is not None and any(not times[0] <= start < end <= times[-1] for spans in log.clock.vacations.values()
                                     for start, end in spans):
        raise Invalid("invalid_log", "The header's `clock` has a vacation outside the game's first and last events.")
    if (early := early_deadline(log)) is not None:
        raise Invalid("invalid_log", f"Event {early[0]} ({log.envelopes[early[0] - 1]['type']}): {early[1]}", event=early[0])
    return log


def import_log(store: EventStore, log: GameLog, creator: str | None) -> str:
    """A new, finished, read-only game holding a checked log (`checked_log`), move by move as the
    log's commands ran, with new command ids, at the times the log gives where they are in order (so
    its clocks are the original's); its id. The import of a private game is unlisted and names no origin.
    Its events are written apart a few hundred at a time, so Redis serves others meanwhile, and become
    its stream at once: no reader sees part of them."""
    private = _is_private(store, log)
    game_id = new_id()
    timed = log.times_in_order()
    causes = [_stored(log.game, cause.command) for cause in log.causes] if log.format_version == 2 else None
    moves = ((actor, lines, None if causes is None else causes[index]) for index, (actor, lines) in enumerate(log.moves()))
    version = store.streams.stage(game_id, (_move(actor, lines, timed, cause) for actor, lines, cause in moves))
    store.games.create(game_id, log.game.name, log.options, log.seats, None if log.clock is None else log.clock.control,
                       imported=True, unlisted=private, original_id=None if private else log.original_id, creator=creator,
                       checked=log.checked())
    if log.clock is not None:  # its clocks, as the game it copies showed them
        store.games.fix_time_zones(game_id, log.clock.time_zones)
        store.games.keep_vacations(game_id, log.clock.vacations)
    for seat, name in enumerate(log.names):
        store.seats.claim(game_id, seat, name, None)
    try:
        store.streams.publish(game_id, version, Lifecycle.FINISHED)
    except NotPublished:
        store.games.discard(game_id)  # its record, seats and index entries: no empty game is left
        raise Unavailable("import_interrupted", "The log's events were not all kept until the game was made of "
                          "them (the server was busy); nothing was stored: send it again.") from None
    return game_id


def _move(actor: str, lines: list[dict[str, Any]], timed: bool, cause: Any) -> list[NewEvent | NextCommand]:
    """One move of an imported log, ready to append: a command of its own (a new id, the log's
    actor, and the log's time if `timed`: its clocks are worked out from it; its `cause`), then its events."""
    return [NextCommand(uuid.uuid4().hex, actor, lines[0]["time"] if timed else None, cause),
            *(NewEvent(e["type"], e["schema_version"], e["payload"]) for e in lines)]


def _stored(game: Game, command: Any) -> Any:  # type: ignore[type-arg]
    """A cause as the import stores it: the command re-decision decoded, encoded by the game (never
    the log's own JSON), or the game's own by name."""
    return command.value if isinstance(command, Own) else recorded(game, command)


def _is_private(store: EventStore, log: GameLog) -> bool:
    """Whether an imported log is of a private game: its header says the game was unlisted (the
    export of an unlisted game says so, and names no id), or it names a game of this server that
    is unlisted. A log naming a game this server does not know was listed where it was exported
    (that server's export names no unlisted game) or was written by someone who knows the id
    already."""
    if log.unlisted:
        return True
    if log.original_id is None or not keys.GAME_ID.match(log.original_id):
        return False
    try:
        return store.games.get(log.original_id).unlisted
    except GameNotFound:
        return False
