"""The domain's fast copy of frozen records agrees with dataclasses.replace."""

from __future__ import annotations

import dataclasses

import pytest

from domain.core.records import replace


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
