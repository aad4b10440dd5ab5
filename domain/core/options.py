"""Game options: every variant is a typed field with a default, described and parsed here."""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from domain.core.errors import OptionsInvalid

T = TypeVar("T")


def option(default: Any, doc: str, *, minimum: int | None = None, maximum: int | None = None) -> Any:
    """A dataclass field that is a game option, with its one-line description and bounds."""
    return dataclasses.field(default=default, metadata={"doc": doc, "minimum": minimum, "maximum": maximum})


def describe_options(cls: type) -> list[dict[str, Any]]:
    """Each option of an options dataclass: name, kind, default, allowed values, description."""
    hints = _hints(cls)
    described = []
    for field in dataclasses.fields(cls):
        kind = hints[field.name]
        entry: dict[str, Any] = {"name": field.name, "default": _plain(field.default), "description": field.metadata["doc"]}
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            entry |= {"kind": "choice", "values": [member.value for member in kind]}
        elif kind is bool:
            entry |= {"kind": "boolean", "values": [False, True]}
        else:
            entry |= {"kind": "integer", "minimum": field.metadata["minimum"], "maximum": field.metadata["maximum"]}
        described.append(entry)
    return described


def parse_options(cls: type[T], raw: Mapping[str, Any]) -> T:
    """Options built from client JSON; raises OptionsInvalid naming every bad entry."""
    hints = _hints(cls)
    fields = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    errors = {name: "unknown option" for name in raw if name not in fields}
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name in fields:
            try:
                values[name] = _parse_value(hints[name], fields[name], value)
            except ValueError as error:
                errors[name] = str(error)
    if errors:
        raise OptionsInvalid(errors)
    return cls(**values)


def options_to_json(options: object) -> dict[str, Any]:
    """The options as plain JSON values, every option included."""
    return {field.name: _plain(getattr(options, field.name)) for field in dataclasses.fields(options)}  # type: ignore[arg-type]


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The type of each option, resolved once per options type (resolving annotations is slow)."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _parse_value(kind: Any, field: dataclasses.Field[Any], value: Any) -> Any:
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        allowed = [member.value for member in kind]
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(map(str, allowed))}")
        return kind(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError("must be true or false")
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("must be a whole number")
    low, high = field.metadata["minimum"], field.metadata["maximum"]
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"must be between {low} and {high}")
    return value


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value
