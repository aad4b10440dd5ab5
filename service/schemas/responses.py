"""Response bodies: games, views and events as the caller may see them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from application.clocks import Clock
from application.deadlines import Due, deadlines, game_clocks
from domain.core.codec import to_primitive
from domain.core.game import Budget, Game
from domain.core.options import options_to_json
from events.envelope import Envelope, GameRecord, Lifecycle
from events.execute import Loaded
from events.store import EventStore
from events.tournaments import TournamentRecord


def tournament_summary(record: TournamentRecord) -> dict[str, Any]:
    """What a listing shows of a tournament."""
    return {"id": record.id, "name": record.name, "game": record.game, "seats": record.seats, "format": record.format,
            "starts": record.starts, "stage": record.stage, "unlisted": record.unlisted}


def summary(record: GameRecord, seated: bool = False, viewer: str | None = None) -> dict[str, Any]:
    """The game's record as the caller (`seated` in it, or the registered player `viewer`) may see it.

    The rematch only to its seats; an unlisted origin only to its seats and creator; a reserved
    seat's player id only to that player and the creator (their name, or that whoever has the
    link may take it, to all), a link's code only to the creator."""
    named = not record.private_origin or seated or (viewer is not None and viewer == record.creator)
    return {
        "id": record.id,
        "game": record.game,
        "status": record.status,
        "version": record.version,
        "created": record.created,
        "seats": [{"seat": seat, "name": name, "bot": bot, "budget": _budget(record.budgets.get(seat)),
                   "reserved": seat in record.reserved or seat in record.links,
                   "reserved_for": _invitee(record, seat, viewer), "waits_for": _waits_for(record, seat),
                   "player": record.holders.get(seat),
                   "invite_code": record.links.get(seat) if viewer is not None and viewer == record.creator else None}
                  for seat, (name, bot) in enumerate(zip(record.names, record.bots))],
        "turn_deadline": None if record.deadline is None else dataclasses.asdict(record.deadline),
        "spectator_delay": record.spectator_delay,
        "forked_from": None if record.forked_from is None or not named else dataclasses.asdict(record.forked_from),
        "lobby_until": record.lobby_until if record.status in (Lifecycle.WAITING, Lifecycle.CANCELLED) else None,
        "unlisted": record.unlisted,
        "chat": record.chat,
        "rematch_of": record.rematch_of if named else None,
        "rematch": record.rematch if seated else None,
        "imported": record.imported,
        "original_id": record.original_id,
        "checked": record.checked,
        "rated": record.rated,
    }


def _invitee(record: GameRecord, seat: int, viewer: str | None) -> str | None:
    """The id of the player `seat` is reserved for, if `viewer` is that player or the game's creator."""
    invitee = record.reserved.get(seat)
    return invitee if viewer is not None and viewer in (invitee, record.creator) else None


def _waits_for(record: GameRecord, seat: int) -> dict[str, Any] | None:
    """Whom a free reserved seat waits for: a player (by name, if the record keeps it) or whoever has its link."""
    if record.names[seat] is not None:
        return None
    if seat in record.links:
        return {"kind": "link", "name": None}
    return {"kind": "player", "name": record.invitees.get(seat)} if seat in record.reserved else None


def game_view(loaded: Loaded, seat: int | None, deadlines: Mapping[int, Due],
              clocks: Sequence[Clock] | None = None, caller: int | None = None) -> dict[str, Any]:
    """The game as `seat` (None: a spectator) may see it at the loaded version, with the seats'
    `deadlines` and `clocks`; when a seat's vacation ends shows to that seat only, if it is the
    `caller`'s (the seat of whoever asks, not the seat whose view they read)."""
    game, record, state = loaded.game, loaded.record, loaded.state
    status = game.status(state)
    started = loaded.version > 0
    result = None
    if status.finished:
        result = {"ranking": [list(place) for place in status.ranking], "reason": status.reason,
                  "scores": None if status.scores is None else list(status.scores)}
    return {
        **summary(record, seated=seat is not None, viewer=None if seat is None else record.holders.get(seat)),
        "status": Lifecycle.FINISHED if status.finished else Lifecycle.ACTIVE if started else _before_start(record),
        "version": loaded.version,
        "options": options_to_json(game.parse_options(record.options, record.seats)),
        "you": seat,
        "to_move": list(status.to_move) if started else [],
        "table": to_primitive(game.view(state, seat)) if started else None,
        "result": result,
        **clock_fields(deadlines, clocks, caller),
    }


def clock_fields(deadlines: Mapping[int, Due], clocks: Sequence[Clock] | None, caller: int | None) -> dict[str, Any]:
    """A game's `deadlines` and `clocks` as the seat `caller` (None: a spectator) may see them: when a seat's
    vacation ends shows to that seat only."""
    return {
        "deadlines": [{"seat": to, "at": None if _away(clocks, to, caller) else due.at, "policy": due.policy}
                      for to, due in sorted(deadlines.items())],
        "clocks": None if clocks is None else [
            {"seat": clock.seat, "remaining": clock.remaining, "running": clock.running, "paused": clock.paused,
             "runs_out": None if _away(clocks, clock.seat, caller) else clock.runs_out, "stops_at": clock.stops_at}
            for clock in clocks],
    }


def shown_clocks(store: EventStore, loaded: Loaded, caller: int | None) -> dict[str, Any]:
    """The game's deadlines and clocks at the loaded version as the seat `caller` may see them, as its view shows them."""
    clocks = game_clocks(store, loaded)
    return clock_fields(deadlines(store, loaded, clocks), clocks, caller)


def clock_marks(fields: dict[str, Any]) -> str:
    """What `clock_fields` show that moves only with a move or a pause, not with the passing time (all but
    each clock's time left), as text: a change of it changes a game's ETag, and its stream tells it."""
    clocks = [{key: value for key, value in clock.items() if key != "remaining"} for clock in fields["clocks"] or []]
    return json.dumps([clocks, fields["deadlines"]], sort_keys=True)


def _away(clocks: Sequence[Clock] | None, of: int, caller: int | None) -> bool:
    """Whether the seat `of` is on vacation and `caller` is another seat (or a spectator), who may not see when it ends."""
    return clocks is not None and clocks[of].paused == "vacation" and of != caller


def _before_start(record: GameRecord) -> Lifecycle:
    """A game's status before its first event: cancelled if it never started, else waiting."""
    return Lifecycle.CANCELLED if record.status is Lifecycle.CANCELLED else Lifecycle.WAITING


def event(envelope: Envelope, game: Game, seat: int | None, finished: bool) -> dict[str, Any]:  # type: ignore[type-arg]
    """One stored event as `seat` may see it, upcast to its current schema version; unredacted once the game is over."""
    kind, schema_version, payload = envelope.type, envelope.schema_version, envelope.payload
    if not finished or schema_version != game.events.version(kind):
        decoded = game.events.decode(kind, schema_version, payload)
        kind, schema_version, payload = game.events.encode(decoded if finished else game.redact(decoded, seat))
    return {
        "version": envelope.version,
        "game": game.name,
        "type": kind,
        "schema_version": schema_version,
        "payload": payload,
        "command_id": envelope.command_id,
        "actor": envelope.actor,
        "time": envelope.time,
    }


def _budget(budget: Budget | None) -> dict[str, Any] | None:
    return None if budget is None else dataclasses.asdict(budget)
