"""Turning domain values into plain JSON data and back, with explicit event wire names.

Events are forever: a stored event is never rewritten. When an event's payload changes, its
schema version goes up by one and an upcaster turns a payload of the version before into one of
the new version; decoding chains them (v1 → v2 → v3 …) in memory, so a stream or an exported
log written at any earlier version still reads as the events of today."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import cattrs

E = TypeVar("E")

converter = cattrs.Converter(unstruct_collection_overrides={AbstractSet: sorted}, detailed_validation=False)  # sets as sorted JSON lists

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]  # a payload at version n made into one at version n + 1


def to_primitive(value: object) -> Any:
    """Plain JSON data (dicts, lists, strings, numbers) for a domain value."""
    return converter.unstructure(value)


class UnknownEvent(Exception):
    """A stored event whose wire name or schema version this server does not know."""


@dataclass(frozen=True)
class EventCodec(Generic[E]):
    """Maps each event type to its wire name and payload schema version, both ways, reading a
    payload of an earlier version through its upcasters."""

    names: Mapping[type, str]
    schema_versions: Mapping[str, int] = field(default_factory=dict)  # wire name → current version, default 1
    # wire name → {n: the upcaster from version n to n + 1}, one for every version before the current
    upcasters: Mapping[str, Mapping[int, Upcaster]] = field(default_factory=dict)
    _types: dict[str, type] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_types", {name: kind for kind, name in self.names.items()})
        for name in {*self.schema_versions, *self.upcasters} - set(self._types):
            raise ValueError(f"schema version or upcaster for {name!r}, which is no event's wire name")
        for name in self._types:
            current, steps = self.version(name), set(self.upcasters.get(name, {}))
            if current < 1 or steps != set(range(1, current)):
                raise ValueError(f"{name!r} is at schema version {current}: it needs an upcaster from each "
                                 f"version 1 to {current - 1} to the next, and has them from {sorted(steps)}")

    def version(self, name: str) -> int:
        """The schema version an event of wire name `name` is written at now."""
        return self.schema_versions.get(name, 1)

    def encode(self, event: E) -> tuple[str, int, dict[str, Any]]:
        """(wire name, schema version, payload) of an event, always at the current version."""
        name = self.names[type(event)]
        return name, self.version(name), converter.unstructure(event)

    def decode(self, name: str, schema_version: int, payload: Mapping[str, Any]) -> E:
        """The event a stored (wire name, schema version, payload) stands for, a payload of an
        earlier version upcast step by step to the current one; `payload` itself is left as it is."""
        kind = self._types.get(name)
        if kind is None or type(schema_version) is not int or schema_version > self.version(name):
            raise UnknownEvent(f"no event {name!r} at schema version {schema_version!r}")
        if schema_version < self.version(name):
            payload = self.upcast(name, schema_version, payload)
        event: E = converter.structure(payload, kind)
        return event

    def upcast(self, name: str, schema_version: int, payload: Mapping[str, Any]) -> dict[str, Any]:
        """A payload of `name` at `schema_version` as the current version writes it."""
        steps = self.upcasters.get(name, {})
        upcast = copy.deepcopy(dict(payload))  # the stored payload is never changed
        for version in range(schema_version, self.version(name)):
            if version not in steps:
                raise UnknownEvent(f"no upcaster for {name!r} from schema version {version}")
            upcast = steps[version](upcast)
        return upcast
