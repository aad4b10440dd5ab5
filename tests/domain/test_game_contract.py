"""The contract every game in the registry keeps, checked over random games of random options
in which, now and then, a seat's deadline passes or a seat leaves.

In random reachable positions: a command is accepted exactly when it is listed among the
legal commands of its seat — for every listed command, for variants of listed ones with a
field added, removed or changed, and for commands of every type made from the values in play;
no command makes `decide` fail other than with a rule violation; folding the events gives the
live state and replaying the log gives it again; every event survives its codec; and no view
or redacted event shown to one seat holds what only another seat may know.

A game added to `domain.GAMES` is covered with no change here."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from domain import GAMES
from domain.core.codec import to_primitive
from domain.core.errors import RuleViolation
from domain.core.game import Game
from domain.core.rng import SeededRng
from tests.playing import moves_on, random_game

GAMES_PLAYED = 24  # random games of each game
POSITIONS = 40  # positions checked in each game
MUTATIONS = 3  # new values tried for each field of a listed command
INTERRUPTIONS = 0.02  # the share of turns a deadline passes instead, one in ten of them a seat leaving
LONGEST = 4000  # commands a game is played for at most (a ten-seat TAKI tournament may take tens of thousands)


def random_options(game: Game, seats: int, chooser: random.Random) -> Any:  # type: ignore[type-arg]
    """Options with each variant changed half the time (a number to its minimum, its maximum
    or between), then any that the rules refuse for this seat count put back to their default
    until the rest are valid."""
    raw: dict[str, Any] = {}
    for described in game.describe_options():
        if chooser.random() < 0.5:
            continue
        if described["kind"] == "integer":
            low, high = described["minimum"], described["maximum"]
            raw[described["name"]] = chooser.choice([low, high, chooser.randint(low, high)])
        else:
            raw[described["name"]] = chooser.choice([value for value in described["values"] if value != described["default"]])
    while True:
        options = game.options_type(**{name: _option_value(game, name, value) for name, value in raw.items()})
        problems = game.check_options(options, seats)
        if not problems:
            return options
        name = next(iter(problems))
        if name in raw:
            del raw[name]
        else:  # the problem names an option left at its default: give up another change
            del raw[chooser.choice(sorted(raw))]


def _option_value(game: Game, name: str, value: Any) -> Any:  # type: ignore[type-arg]
    kind = typing.get_type_hints(game.options_type)[name]
    return kind(value) if isinstance(kind, type) and issubclass(kind, enum.Enum) else value


def command_types(game: Game) -> tuple[type, ...]:  # type: ignore[type-arg]
    """Every type of command the game's `decide` takes."""
    return typing.get_args(typing.get_type_hints(game.decide)["command"])


class Values:
    """The values in play so far, by kind, to build candidate commands from."""

    def __init__(self, seats: int) -> None:
        self.ints: set[int] = {-1, 0, 1, 2, seats}
        self.strs: set[str] = {"nowhere"}
        self.enums: dict[type, set[Any]] = {}
        self.fresh: list[str] = []

    def learn(self, value: Any) -> None:
        if isinstance(value, enum.Enum):
            self.enums.setdefault(type(value), set()).update(type(value))
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int):
            self.ints.add(value)
        elif isinstance(value, str):
            self.strs.add(value)
        elif isinstance(value, tuple):
            for item in value:
                self.learn(item)

    def recent(self, events: tuple[Any, ...]) -> None:
        """The strings of the events that led to this position: the values most likely to matter in it."""
        self.fresh = sorted(set().union(*(strings(to_primitive(event)) for event in events)))

    def of(self, annotation: Any, chooser: random.Random, count: int) -> list[Any]:
        """Up to `count` values a field so annotated might be given."""
        options = typing.get_args(annotation) if isinstance(annotation, types.UnionType) else (annotation,)
        found: list[Any] = []
        for kind in options:
            if kind is type(None):
                found.append(None)
            elif kind is bool:
                found += [False, True]
            elif isinstance(kind, type) and issubclass(kind, enum.Enum):
                found += list(kind)
            elif kind is int:
                found += chooser.sample(sorted(self.ints), min(count, len(self.ints)))
            elif kind is str:
                found += chooser.sample(sorted(self.strs), min(count, len(self.strs))) + self.fresh
            elif typing.get_origin(kind) is tuple:
                found += self._tuples(typing.get_args(kind)[0], chooser, count)
        return found

    def _tuples(self, item: Any, chooser: random.Random, count: int) -> list[tuple[Any, ...]]:
        if item is str:
            strs = sorted(self.strs)
            made = [tuple(chooser.choice(strs) for _ in range(chooser.randint(1, 3))) for _ in range(count)]
            return [()] + made + [(text,) for text in self.fresh]
        parts = typing.get_args(item)  # a tuple of pairs, e.g. (card, colour)
        if parts and all(part is str or (isinstance(part, type) and issubclass(part, enum.Enum)) for part in parts):
            return [()] + [(tuple(chooser.choice(self.of(part, chooser, 1)) for part in parts),) for _ in range(count)]
        return [()]


def variants(command: Any, values: Values, chooser: random.Random) -> Iterator[Any]:
    """`command` with one field changed: another value of its kind, none, or for a list one
    item more, one less, or the order reversed."""
    hints = typing.get_type_hints(type(command))
    for field in dataclasses.fields(command):
        current = getattr(command, field.name)
        for value in values.of(hints[field.name], chooser, MUTATIONS):
            if value != current:
                yield dataclasses.replace(command, **{field.name: value})
        if isinstance(current, tuple) and current:
            yield dataclasses.replace(command, **{field.name: current[:-1]})
            yield dataclasses.replace(command, **{field.name: current[::-1]})
            yield dataclasses.replace(command, **{field.name: current + current[-1:]})
            if others := values.of(hints[field.name], chooser, 1):
                yield dataclasses.replace(command, **{field.name: current + tuple(others[0])})


def made_up(types_: tuple[type, ...], values: Values, chooser: random.Random, count: int) -> Iterator[Any]:
    """Commands of every type, each field a value in play."""
    for kind in types_:
        hints = typing.get_type_hints(kind)
        for _ in range(count):
            fields = {}
            for field in dataclasses.fields(kind):
                choices = values.of(hints[field.name], chooser, 1)
                if not choices:
                    break
                fields[field.name] = chooser.choice(choices)
            else:
                yield kind(**fields)


def accepted(game: Game, state: Any, command: Any) -> bool:  # type: ignore[type-arg]
    """Whether `decide` takes the command; a refusal must say why, anything else is a bug."""
    try:
        game.decide(state, command, SeededRng(0))
    except RuleViolation as problem:
        assert problem.reason and problem.message, command
        return False
    return True


def check_commands(game: Game, state: Any, seats: int, values: Values, chooser: random.Random) -> None:  # type: ignore[type-arg]
    """Accepted exactly when listed, in its listed form, for every candidate of this position.
    A seat's forfeit and what a deadline does for it are accepted without being listed: no
    seat chooses them among its moves."""
    listed = {seat: set(game.legal_commands(state, seat)) for seat in range(seats)}
    for commands in listed.values():
        for command in commands:
            for field in dataclasses.fields(command):
                values.learn(getattr(command, field.name))
    candidates = {command for commands in listed.values() for command in commands}
    for command in chooser.sample(sorted(candidates, key=repr), min(len(candidates), 12)):
        candidates.update(variants(command, values, chooser))
    candidates.update(made_up(command_types(game), values, chooser, 4))
    to_move = game.status(state).to_move
    unlisted = {game.forfeit_command(seat) for seat in listed} | {game.timeout_command(state, seat) for seat in to_move}
    for command in sorted(candidates | unlisted, key=repr):
        verdict = accepted(game, state, command)  # whatever the command, a rule violation or events
        if command in listed.get(command.seat, set()):
            assert verdict, command
        elif command not in unlisted:  # a forfeit or a deadline's command is accepted without being listed
            form = game.listed_form(state, command)
            if form is not None:  # not a batch of listed commands, accepted or refused as a whole
                assert verdict == (form in listed.get(command.seat, set())), (command, form)


def strings(value: Any) -> set[str]:
    """Every string in plain JSON data."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(strings, value)) if value else set()
    return set()


def check_secrets(game: Game, state: Any, events: tuple[Any, ...], seats: int, public: set[str]) -> None:  # type: ignore[type-arg]
    """No seat is shown what only another seat may know, in its view of `state` or in the
    events that led to it as redacted for it: what another seat's view shows beyond a
    spectator's, or what the state holds that no view shows (a pile's order). A value a
    spectator was shown in an event (`public`: an area named like a hand card) tells nothing,
    so a secret shown to everyone alike is left to each game's own tests."""
    views = {reader: strings(to_primitive(game.view(state, reader))) for reader in (None, *range(seats))}
    hidden = strings(to_primitive(state)) - set().union(*views.values())
    private = {seat: views[seat] - views[None] for seat in range(seats)}
    for reader in (None, *range(seats)):
        secrets = (hidden | set().union(*(mine for seat, mine in private.items() if seat != reader))) - public
        shown = [views[reader]] + [strings(to_primitive(game.redact(event, reader))) for event in events]
        for number, seen in enumerate(shown):
            assert not seen & secrets, (reader, "view" if number == 0 else events[number - 1], seen & secrets)


CASES = [(name, number) for name in GAMES for number in range(GAMES_PLAYED)]


@pytest.mark.parametrize(("name", "number"), CASES, ids=[f"{name}-{number}" for name, number in CASES])
def test_the_contract_holds_in_random_games(name: str, number: int) -> None:
    game = GAMES[name]
    chooser = random.Random(f"{name}:{number}")
    seats = chooser.randint(game.min_seats, game.max_seats)
    options = random_options(game, seats, chooser)
    seed = chooser.randrange(2**32)
    values = Values(seats)
    log = list(game.setup(options, seats, SeededRng(seed)))
    public = set().union(*(strings(to_primitive(game.redact(event, None))) for event in log))
    steps = list(random_game(game, seats, options, seed, prefer=moves_on, max_commands=LONGEST, must_end=False,
                              interruptions=INTERRUPTIONS))
    check_secrets(game, steps[0].before, tuple(log), seats, public)  # the opening: the shuffle, the deal
    checked = set(chooser.sample(range(len(steps)), min(POSITIONS, len(steps))))
    for index, step in enumerate(steps):
        state = step.before
        for event in step.events:
            state = game.evolve(state, event)
            wire, version, payload = game.events.encode(event)
            assert game.events.decode(wire, version, json.loads(json.dumps(payload))) == event
            public |= strings(to_primitive(game.redact(event, None)))
        assert state == step.after
        if index in checked:
            values.recent(steps[index - 1].events if index else ())
            check_commands(game, step.before, seats, values, chooser)
            check_secrets(game, step.after, step.events, seats, public)
        log += step.events
    assert game.status(steps[-1].after).finished or len(steps) == LONGEST
    assert game.replay(options, seats, log) == steps[-1].after
