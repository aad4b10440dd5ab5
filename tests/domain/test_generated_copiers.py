"""The generated copy functions copy records as dataclasses.replace does, and fold every game's
recorded events to the same states and views."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import pytest

from domain import GAMES
from domain.core import record_copies
from domain.core.generated_copiers import replace
from tests.logs import GENUINE, entries, genuine_export


@dataclasses.dataclass(frozen=True, slots=True)
class Pawn:
    area: str
    riders: tuple[str, ...] = ()
    seen: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Checked:
    value: int

    def __post_init__(self) -> None:
        assert self.value >= 0


def test_a_copy_changes_the_named_fields_and_keeps_the_rest() -> None:
    pawn = Pawn("AS", ("c1",), {"x": 1})
    moved = replace(pawn, area="QD")
    assert moved == dataclasses.replace(pawn, area="QD") and moved is not pawn
    assert moved.riders is pawn.riders and moved.seen is pawn.seen
    assert pawn.area == "AS"
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.area = "AS"  # type: ignore[misc]


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="no field colour"):
        replace(Pawn("AS"), colour="red")


def test_a_record_that_runs_code_on_creation_is_refused() -> None:
    with pytest.raises(TypeError, match="runs code on creation"):
        replace(Checked(1), value=2)


@dataclasses.dataclass(frozen=True)
class Unslotted:
    value: int


def test_a_record_without_slots_is_refused() -> None:
    with pytest.raises(TypeError, match="has no slots"):
        replace(Unslotted(1), value=2)


def _folded(name: str, index: int, log: list[dict[str, Any]]) -> list[tuple[Any, list[Any]]]:
    """Each state a recorded game passes through, with what each seat and a spectator see of it."""
    game, (seats, _, options) = GAMES[name], GENUINE[name][index]
    state = game.initial(game.parse_options(options, seats), seats)
    folded = []
    for entry in log:
        state = game.evolve(state, game.events.decode(entry["type"], entry["schema_version"], entry["payload"]))
        folded.append((state, [game.view(state, seat) for seat in (None, *range(seats))]))
    return folded


@pytest.mark.parametrize(("name", "index"), [(name, index) for name, games in GENUINE.items() for index in range(len(games))])
def test_every_recorded_game_folds_and_shows_as_with_dataclasses_replace(
        name: str, index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    log = entries(genuine_export(name, *GENUINE[name][index]))[1]
    generated = _folded(name, index, log)
    users = [module for module in list(sys.modules.values())
             if module.__name__.startswith("domain.") and getattr(module, "replace", None) is record_copies.replace]
    assert {f"domain.{name}.evolve", f"domain.{name}.views"} & {module.__name__ for module in users}
    for module in users:
        monkeypatch.setattr(module, "replace", dataclasses.replace)
    assert _folded(name, index, log) == generated
