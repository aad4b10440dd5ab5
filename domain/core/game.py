"""The Game protocol: what every game in Meeple provides, and nothing more."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Annotated, Any, Generic, TypeVar, cast

from domain.core.codec import EventCodec
from domain.core.errors import OptionsInvalid
from domain.core.options import describe_options, parse_options
from domain.core.rng import Drawn, Rng

SEAT = "seat"
Seat = Annotated[int, SEAT]  # an int to every reader; the mark lets a log's check find each seat an event names
Clock = Callable[[], float]  # seconds on a scale that never goes back: the only door time enters the rules by
S = TypeVar("S")  # state
C = TypeVar("C")  # command
E = TypeVar("E")  # event
Opt = TypeVar("Opt")  # options


def places(ranking: tuple[tuple[Seat, ...], ...]) -> str:
    """A ranking as people read it: places best first, seats sharing one joined by commas."""
    return " ".join(",".join(str(seat) for seat in place) for place in ranking) or "nothing"


def seats_named(event: object) -> Iterator[int]:
    """Every seat `event` names: each of its values typed `Seat`, in tuples and records too."""
    yield from _seat_finder(type(event))(event)


_FINDERS: dict[Any, Callable[[Any], Iterator[int]]] = {}


def _seat_finder(kind: Any) -> Callable[[Any], Iterator[int]]:
    if kind not in _FINDERS:
        _FINDERS[kind] = lambda value: iter(())  # a type that holds itself
        _FINDERS[kind] = _find_seats(kind)
    return _FINDERS[kind]


def _find_seats(kind: Any) -> Callable[[Any], Iterator[int]]:
    if typing.get_origin(kind) is Annotated and SEAT in kind.__metadata__:
        return lambda value: iter(() if value is None else (value,))
    inner = [argument for argument in typing.get_args(kind) if argument not in (Ellipsis, type(None))]
    if typing.get_origin(kind) is tuple:
        finders = [_seat_finder(argument) for argument in inner]
        return lambda value: (seat for index, item in enumerate(value) for seat in finders[min(index, len(finders) - 1)](item))
    if inner:  # X | None
        finder = _seat_finder(inner[0])
        return lambda value: iter(()) if value is None else finder(value)
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind, include_extras=True)
        fields = [(field.name, _seat_finder(hints[field.name])) for field in dataclasses.fields(kind)]
        fields = [(name, finder) for name, finder in fields if finder is not _NOTHING]
        return lambda value: (seat for name, finder in fields for seat in finder(getattr(value, name)))
    return _NOTHING


def _nothing(value: Any) -> Iterator[int]:
    return iter(())


_NOTHING = _nothing


@dataclass(frozen=True, slots=True)
class GameStatus:
    """Who may act now, and how the game ended if it did."""

    to_move: tuple[Seat, ...]
    finished: bool
    ranking: tuple[tuple[Seat, ...], ...] = ()  # places, best first; seats sharing a place tie
    reason: str | None = None  # why it ended: "won", "stalemate", ...
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Budget:
    """How long an AI level that searches thinks per move: `iterations`, `seconds`, whichever runs out first."""

    # What one iteration is, each search says; None sets no limit. Seconds are read on the clock
    # the search is handed, never on one of its own.
    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs a limit: iterations, seconds or both")
        if (self.iterations is not None and self.iterations < 1) or (self.seconds is not None and self.seconds < 0):
            raise ValueError("a budget allows at least one iteration, and no less than no time")

    def timer(self, clock: Clock | None) -> Callable[[], bool]:
        """A test of whether this budget's seconds, from now on `clock`, have run out (never, if it sets none)."""
        if self.seconds is None:
            return lambda: False
        if clock is None:
            raise ValueError("a budget in seconds needs a clock to keep it")
        deadline = clock() + self.seconds
        return lambda: clock() > deadline


@dataclass(frozen=True)
class Game(Generic[S, C, E, Opt]):
    """One game's rules as a decider: setup, decide, evolve, and who may see what."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    options_type: type[Opt]
    check_options: Callable[[Opt, int], Mapping[str, str]]
    initial: Callable[[Opt, int], S]
    setup: Callable[[Opt, int, Rng], tuple[E, ...]]
    decide: Callable[[S, C, Rng], tuple[E, ...]]
    evolve: Callable[[S, E], S]
    legal_commands: Callable[[S, Seat], tuple[C, ...]]
    view: Callable[[S, Seat | None], Any]
    redact: Callable[[E, Seat | None], E]
    status: Callable[[S], GameStatus]
    events: EventCodec[E]
    commands: EventCodec[C]  # what a seat asks, as a log records it beside the events it caused
    # AI levels, each a pure function to a legal command; one that searches is a dataclass whose
    # `budget` field says how long it thinks and whose `clock` field (None until `bot` is given
    # one) is what it reads the seconds of its budget on
    bots: Mapping[str, Callable[[S, Seat, Rng], C]]
    timeout_command: Callable[[S, Seat], C]  # what a seat does when its deadline passes
    forfeit_command: Callable[[Seat], C]  # how a seat leaves the game for good
    response_seconds: Callable[[S], int | None]  # a deadline the rules themselves set on the seats to move
    render: Callable[[S, Seat | None], str]  # the state as text for people, as `seat` (or a spectator) sees it
    # what is wrong with an event given the state before it, which the fold (that never refuses)
    # would record all the same: a broken seal, a card not taken from where the committed order puts
    # it, a card, area, piece or citizen that is not there, a result other than the rules give
    audit: Callable[[S, E], str | None] = lambda state, event: None
    # the listed command that one the rules also accept stands for (a piece named by its id
    # rather than its square), or None for a batch: several listed commands sent as one (a run
    # of cards, a move with its pickups), accepted or refused as a whole
    listed_form: Callable[[S, C], C | None] = lambda state, command: command
    # a fork's secrets: the events that deal again, under a fresh seal, every card no seat of
    # the fork may know in `state` (the draw pile, face-down hands), because the original's log
    # shows them; games with no hidden cards have nothing to deal
    redeal: Callable[[S, Rng], tuple[E, ...]] = lambda state, rng: ()
    # the outcomes of chance an event records, in the order the rules drew them (domain.core.rng.ReplayingRng)
    chance: Callable[[E], tuple[Drawn, ...]] = lambda event: ()
    # the type of the event that opens the window `response_seconds` counts from; None for rules that set none
    window_opening: str | None = None

    def parse_options(self, raw: Mapping[str, Any], seats: int) -> Opt:
        """Options from client JSON, checked against the seat count; raises OptionsInvalid."""
        options = parse_options(self.options_type, raw)
        if errors := self.check_options(options, seats):
            raise OptionsInvalid(errors)
        return options

    def bot(self, level: str, budget: Budget | None = None, clock: Clock | None = None) -> Callable[[S, Seat, Rng], C]:
        """The AI at `level`; one that searches thinks within `budget`, if given, timed on `clock`."""
        bot = self.bots[level]
        if level not in self.budgets():
            if budget is not None:
                raise ValueError(f"{level} does not search, so it takes no budget")
            return bot
        given = {name: value for name, value in (("budget", budget), ("clock", clock)) if value is not None}
        return cast(Callable[[S, Seat, Rng], C], dataclasses.replace(cast(Any, bot), **given)) if given else bot

    def budgets(self) -> dict[str, Budget]:
        """The levels that search, each with the budget it thinks within unless given another."""
        return {level: budget for level, bot in self.bots.items() if isinstance(budget := getattr(bot, "budget", None), Budget)}

    def describe_options(self) -> list[dict[str, Any]]:
        return describe_options(self.options_type)

    def check(self, seats: int, state: S, event: E) -> str | None:
        """What is wrong with `event` after `state` in a log of `seats` seats, or None."""
        # an event after the end, a seat that does not play, or what the game's audit finds
        if self.status(state).finished:
            return "the game is already over"
        if (seat := next((seat for seat in seats_named(event) if not 0 <= seat < seats), None)) is not None:
            return f"there is no seat {seat}"
        return self.audit(state, event)

    def audit_log(self, options: Opt, seats: int, events: Sequence[E]) -> list[tuple[int, str]]:
        """Each (version, problem) of a complete log whose shuffles are revealed, as `check` finds them."""
        # none: every shuffle matches its commitment, every card came from the committed order and
        # every event names what is there
        problems, state = [], self.initial(options, seats)
        for version, event in enumerate(events, start=1):
            if problem := self.check(seats, state, event):
                problems.append((version, problem))
            state = self.evolve(state, event)
        return problems

    def replay(self, options: Opt, seats: int, events: Sequence[E]) -> S:
        """The state after `events`, from the initial state: the fold that is the truth."""
        state = self.initial(options, seats)
        for event in events:
            state = self.evolve(state, event)
        return state


def assemble(name: str, title: str, options_type: type[Opt], forfeit_command: Callable[[Seat], C], *,
             options: ModuleType, setup: ModuleType, rules: ModuleType, decide: ModuleType, evolve: ModuleType,
             state: ModuleType, views: ModuleType, events: ModuleType, commands: ModuleType, bot: ModuleType,
             audit: ModuleType) -> Game[Any, C, Any, Opt]:
    """A game from its modules, each in the role every game gives it (docs/architecture.md)."""
    return Game(
        name=name, title=title, min_seats=setup.MIN_SEATS, max_seats=setup.MAX_SEATS,
        options_type=options_type, check_options=options.check_options,
        initial=evolve.initial, setup=setup.setup, decide=decide.decide, evolve=evolve.evolve,
        legal_commands=rules.legal_commands, listed_form=rules.listed_form, timeout_command=rules.timeout_command,
        response_seconds=rules.response_seconds, forfeit_command=forfeit_command,
        view=views.view, redact=views.redact, render=views.render, status=state.status,
        events=events.CODEC, commands=commands.CODEC, bots=bot.BOTS, audit=audit.audit,
        **({"redeal": setup.redeal} if hasattr(setup, "redeal") else {}),  # only games with hidden cards deal again
        **({"chance": events.chance} if hasattr(events, "chance") else {}),  # only games of chance record any
        **({"window_opening": rules.WINDOW_OPENING} if hasattr(rules, "WINDOW_OPENING") else {}),  # only rules with a window
    )
