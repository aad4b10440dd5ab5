"""Turning domain values into plain JSON data and back, with explicit event wire names."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import cattrs

E = TypeVar("E")

converter = cattrs.Converter(unstruct_collection_overrides={AbstractSet: sorted}, detailed_validation=False)  # sets as sorted JSON lists


def to_primitive(value: object) -> Any:
    """Plain JSON data (dicts, lists, strings, numbers) for a domain value."""
    return converter.unstructure(value)


class UnknownEvent(Exception):
    """A stored event whose wire name or schema version this server does not know."""


@dataclass(frozen=True)
class EventCodec(Generic[E]):
    """Maps each event type to its wire name and payload schema version, both ways."""

    names: Mapping[type, str]
    schema_versions: Mapping[str, int] = field(default_factory=dict)  # wire name → current version, default 1
    _types: dict[str, type] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_types", {name: kind for kind, name in self.names.items()})

    def encode(self, event: E) -> tuple[str, int, dict[str, Any]]:
        """(wire name, schema version, payload) of an event."""
        name = self.names[type(event)]
        return name, self.schema_versions.get(name, 1), converter.unstructure(event)

    def decode(self, name: str, schema_version: int, payload: Mapping[str, Any]) -> E:
        """The event a stored (wire name, schema version, payload) stands for."""
        kind = self._types.get(name)
        if kind is None or schema_version != self.schema_versions.get(name, 1):
            raise UnknownEvent(f"no event {name!r} at schema version {schema_version}")
        event: E = converter.structure(payload, kind)
        return event
