"""What is stored around each event: where it belongs, what caused it and when."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from domain.core.game import Budget


# A named tuple rather than a frozen dataclass: one is built for every event read, at under a third of the cost.
class Envelope(NamedTuple):
    """One stored event; `version` counts 1, 2, 3 … with no gaps within a game."""

    game_id: str
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    command_id: str
    actor: str  # "seat:2", "bot:1", "deadline:0"…; "system", "fork" or "import" for a game's opening
    time: int  # milliseconds since the epoch, from the server that appended it
    # on the first event of a command's run, what caused the run as a log writes it: the command
    # ({"type", "schema_version", "payload"}) or the game's own ("setup", "redeal"); else None, as
    # on every event stored before causes were
    cause: Any = None


OPENING_ACTORS = frozenset({"system", "fork", "import"})  # appends that are no player's move
MAX_THINK_SECONDS = 30  # the longest an AI may think over one move, whatever budget it is given


class Lifecycle(StrEnum):
    """Where a game is in its life, as its record says: waiting for its seats to be taken, in
    play, over, or cancelled (its seats were not all taken in time)."""

    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class DeadlinePolicy(StrEnum):
    """What happens when a seat's time to act is up."""

    SKIP = "skip"  # the game's own timeout command is sent for the seat
    AUTO = "auto"  # an AI plays the seat's move
    FORFEIT = "forfeit"  # the seat leaves the game


class ClockSystem(StrEnum):
    """How a seat's time to act is counted (application/clocks.py)."""

    PER_MOVE = "per_move"  # `seconds` for each move, from the game's latest event
    FISCHER = "fischer"  # `seconds` at first, `increment` more after each turn, never above `maximum`
    SIMPLE = "simple"  # `seconds` for each turn, from the moment the turn came; unused time is not kept


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event ready to append: encoded, with the command that caused it."""

    type: str
    schema_version: int
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NextCommand:
    """A mark among an append's events: those after it were caused by this command, of this actor,
    at `time` if given (an import keeps the moves of the game it copies, and when each was made)."""

    command_id: str
    actor: str
    time: int | None = None  # ms since the epoch; None: the append's own
    cause: Any = None  # what caused the events after it, as Envelope.cause


@dataclass(frozen=True, slots=True)
class TurnDeadline:
    """A game's time control: how long a seat has to act, counted as `clock` says, and what happens
    when the time is up (`auto` lets the AI at `level` play the move). A per-move deadline waits up
    to `vacation_days` for a player on vacation; Fischer and simple clocks stop for every day of it."""

    seconds: int  # per move and simple: the time for each move; Fischer: the time each seat starts with
    policy: DeadlinePolicy
    level: str | None = None
    vacation_days: int = 0
    budget: Budget | None = None  # how long the AI at `level` thinks, if not as its level does
    clock: ClockSystem = ClockSystem.PER_MOVE
    increment: int = 0  # Fischer: seconds added to a seat's clock after each of its turns
    maximum: int | None = None  # Fischer: the most seconds a clock may hold (None: no cap)
    weekends: bool = False  # clocks stand still on Saturdays and Sundays, in each seat's time zone

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnDeadline:
        """A stored or exported time control; one stored before clocks were chosen is per move."""
        budget = data.get("budget")
        return cls(**{**data, "policy": DeadlinePolicy(data["policy"]), "budget": None if budget is None else Budget(**budget),
                      "clock": ClockSystem(data.get("clock", ClockSystem.PER_MOVE))})


@dataclass(frozen=True, slots=True)
class Origin:
    """The game, and the version of it, that a fork started from, and the names of its seats then:
    who played the opening the fork copies (none in a record written before forks kept them)."""

    game_id: str
    version: int
    names: tuple[str | None, ...] = ()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Origin:
        return cls(data["game_id"], data["version"], tuple(data.get("names", ())))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What the store keeps about a game beside its events."""

    id: str
    game: str
    options: dict[str, Any]
    seats: int
    status: Lifecycle
    version: int
    created: int  # milliseconds since the epoch
    names: tuple[str | None, ...]  # the name at each seat, None while free
    bots: tuple[str | None, ...]  # the AI level playing each seat, None for a person or a free seat
    deadline: TurnDeadline | None = None
    spectator_delay: int = 0  # moves a spectator sees the game behind, until it is finished
    forked_from: Origin | None = None
    holders: Mapping[int, str] = field(default_factory=dict)  # seat → the registered player holding it
    token_seats: Mapping[str, int] = field(default_factory=dict)  # SHA-256 of each seat's token → the seat
    # seat → the SHA-256 of the player token (a device's) its seat token was given to: that seat token
    # lasts no longer than it; none for a seat taken without one, or before devices were kept
    devices: Mapping[int, str] = field(default_factory=dict)
    lobby_until: int | None = None  # ms since the epoch: cancelled then if seats are still free
    budgets: Mapping[int, Budget] = field(default_factory=dict)  # seat → the budget its AI thinks within, if not its level's
    unlisted: bool = False  # never listed; reachable by its id only
    chat: bool = True  # its chat is on, unless it was created with it off (events.chat)
    reserved: Mapping[int, str] = field(default_factory=dict)  # seat → the registered player only who may take it
    links: Mapping[int, str] = field(default_factory=dict)  # seat → the code of the link only whose holder may take it
    invitees: Mapping[int, str] = field(default_factory=dict)  # seat → the name of the player it was reserved for
    rematch_of: str | None = None  # the finished game this one is the rematch of
    rematch: str | None = None  # this game's rematch, once one was asked for
    imported: bool = False  # loaded from an exported log (POST /v1/games/import), not played here
    original_id: str | None = None  # an imported game's id where it was exported, if its log names it
    checked: str | None = None  # how an imported game's log was checked: "redecided" (format 2) or "events" (format 1)
    creator: str | None = None  # the registered player who created it (a rematch: the player of the seat that asked)
    private_origin: bool = False  # a copy (fork, rematch) of an unlisted game: named to the copy's seats only
    time_zones: Mapping[int, str] = field(default_factory=dict)  # seat → the IANA zone of its weekends, fixed at the start
    # an imported game's vacations, seat → (start, end) ms spans, as its log's header gave them
    vacations: Mapping[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    rated: bool = False  # its result counts for its players' ratings (application.ratings), chosen when it was created

    def seat_of(self, player_id: str) -> int | None:
        """The seat a registered player holds in this game, if any."""
        return next((seat for seat, holder in self.holders.items() if holder == player_id), None)

    def invitation(self, player_id: str) -> int | None:
        """The seat reserved for a registered player that is still free for them, while the game waits."""
        if self.status is not Lifecycle.WAITING:
            return None
        return next((seat for seat, invited in self.reserved.items() if invited == player_id and self.names[seat] is None), None)


CANCELLED = "The game was cancelled: its seats were not all taken in time."


