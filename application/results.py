"""A rated game's result: who held each seat (a registered player, or an AI level as its own
identity) and the places the rules gave them, read from the finished game's log. A game counts
for nothing unless it was created rated, every seat was a registered player's or an AI's, no
identity held two seats, and each seat moved at least twice."""

from __future__ import annotations

from collections import Counter

from domain import GAMES
from events.envelope import Envelope, GameRecord, Lifecycle
from events.execute import Executor, recorded
from events.ratings import Result

AI = "ai:"  # an AI level's identity is `ai:<level>`: a player's id never holds a colon
MIN_MOVES = 2  # the moves each seat makes before a rated game counts


def ai_identity(level: str) -> str:
    """The rated identity of the AI at `level`."""
    return f"{AI}{level}"


def is_ai(identity: str) -> bool:
    return identity.startswith(AI)


def shown_name(identity: str, name: str | None) -> str:
    """The name an identity is shown with: a player's as they sat, an AI level's its own (`AI (greedy)`)."""
    return f"AI ({identity[len(AI):]})" if is_ai(identity) else name or identity


def seat_identities(record: GameRecord) -> list[str | None]:
    """Each seat's rated identity: its registered player, its AI level, or None (a guest's seat)."""
    return [record.holders.get(seat) or (None if level is None else ai_identity(level)) for seat, level in enumerate(record.bots)]


def result_of(executor: Executor, game_id: str) -> Result | None:
    """The result the finished game `game_id` counts for, or None if it counts for nothing."""
    record = executor.store.games.get(game_id)
    if not record.rated or record.status is not Lifecycle.FINISHED:
        return None
    identities = seat_identities(record)
    if None in identities or len(set(identities)) != len(identities):
        return None
    events = executor.store.streams.read(game_id)
    if not events or min(_moves(events, record.seats, _leaving(record.game))) < MIN_MOVES:
        return None
    loaded = executor.load(game_id)
    ranking = loaded.game.status(loaded.state).ranking
    places = tuple(tuple(str(identities[seat]) for seat in place) for place in ranking)  # the rules rank every seat
    names = {str(identity): shown_name(str(identity), name) for identity, name in zip(identities, record.names, strict=True)}
    return Result(game_id, record.game, events[-1].time, places, names, record.unlisted or record.private_origin)


def _leaving(game: str) -> str:
    """The type of the command by which a seat of `game` leaves it (forfeits or resigns)."""
    rules = GAMES[game]
    return str(recorded(rules, rules.forfeit_command(0))["type"])


def _moves(events: list[Envelope], seats: int, leaving: str) -> list[int]:
    """How many moves each seat made itself (or its AI made): commands, not the deadlines applied to
    it nor the command by which it left the game."""
    left = {event.command_id for event in events if isinstance(event.cause, dict) and event.cause.get("type") == leaving}
    commands = {(event.command_id, event.actor) for event in events if event.command_id not in left}
    made = Counter(int(actor.partition(":")[2]) for _, actor in commands if actor.startswith(("seat:", "bot:")))
    return [made[seat] for seat in range(seats)]
