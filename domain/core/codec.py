"""Turning domain values into plain JSON data and back, with explicit event wire names.

Events are forever: a stored event is never rewritten. When an event's payload changes, its
schema version goes up by one and an upcaster turns a payload of the version before into one of
the new version; decoding chains them (v1 → v2 → v3 …) in memory, so a stream or an exported
log written at any earlier version still reads as the events of today."""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
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


class PayloadInvalid(UnknownEvent):
    """A payload that is not of its event's type: a field missing, unknown or of the wrong kind."""


Structure = Callable[[Any, str], Any]  # plain JSON data (and where it is, for the complaint) → a domain value


def strict(kind: Any) -> Structure:
    """What reads plain data as `kind` exactly as its type hints say, converting nothing: an int
    that is an int (not a bool, not 1.5), a string, an enum by its value, a list for a tuple,
    null only where the hint allows None, a dataclass's fields and no others. Its events'
    dataclasses are thus each event's schema, in one place."""
    if kind in _STRUCTURES:
        return _STRUCTURES[kind]
    _STRUCTURES[kind] = lambda data, where: structure(data, where)  # a type that holds itself
    structure = _structure(kind)
    _STRUCTURES[kind] = structure
    return structure


_STRUCTURES: dict[Any, Structure] = {}
_NAMES = {int: "an integer", str: "a string", bool: "true or false", float: "a number"}


def _wrong(where: str, wanted: str, data: Any) -> PayloadInvalid:
    shown = repr(data) if len(repr(data)) <= 40 else f"{repr(data)[:37]}..."
    return PayloadInvalid(f"`{where}` must be {wanted}, not {shown}")


def _structure(kind: Any) -> Structure:
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if kind in (int, str, bool):
        def scalar(data: Any, where: str) -> Any:
            if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
                raise _wrong(where, _NAMES[kind], data)
            return data
        return scalar
    if kind is float:
        def number(data: Any, where: str) -> Any:
            if not isinstance(data, (int, float)) or isinstance(data, bool):
                raise _wrong(where, "a number", data)
            return float(data)
        return number
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        values = {member.value: member for member in kind}
        listed = ", ".join(repr(value) for value in values)

        def member(data: Any, where: str) -> Any:
            if isinstance(data, kind):  # a payload made in this process, not read from JSON
                return data
            if type(data) not in (str, int) or data not in values:
                raise _wrong(where, f"one of {listed}", data)
            return values[data]
        return member
    if origin in (types.UnionType, typing.Union):
        options = [argument for argument in arguments if argument is not type(None)]
        if len(options) != 1:
            raise TypeError(f"no strict reading of {kind!r}: a union other than X | None")
        inner = strict(options[0])

        def optional(data: Any, where: str) -> Any:
            try:
                return None if data is None else inner(data, where)
            except PayloadInvalid as problem:
                said = f"`{where}` must be "
                raise PayloadInvalid(str(problem).replace(said, f"{said}null or ", 1)) from None
        return optional
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            item = strict(arguments[0])

            def items(data: Any, where: str) -> Any:
                if type(data) not in (list, tuple):
                    raise _wrong(where, "a list", data)
                return tuple(item(value, f"{where}[{index}]") for index, value in enumerate(data))
            return items
        fixed = [strict(argument) for argument in arguments]

        def pair(data: Any, where: str) -> Any:
            if not isinstance(data, (list, tuple)) or len(data) != len(fixed):
                raise _wrong(where, f"a list of {len(fixed)}", data)
            return tuple(read(value, f"{where}[{index}]") for index, (read, value) in enumerate(zip(fixed, data)))
        return pair
    if origin is frozenset:
        element = strict(arguments[0])

        def members(data: Any, where: str) -> Any:
            if not isinstance(data, (list, tuple, AbstractSet)):
                raise _wrong(where, "a list", data)
            return frozenset(element(value, f"{where}[{index}]") for index, value in enumerate(data))
        return members
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _record(kind)
    raise TypeError(f"no strict reading of {kind!r}")


def _record(kind: type) -> Structure:
    hints = typing.get_type_hints(kind)
    fields = [(f.name, strict(hints[f.name]), f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
              for f in dataclasses.fields(kind) if f.init]
    known = {name for name, _, _ in fields}

    def record(data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise _wrong(where or "payload", "an object", data)
        if unknown := set(data) - known:
            raise PayloadInvalid(f"`{where + '.' if where else ''}{sorted(map(str, unknown))[0]}` is no field of {kind.__name__}")
        given = {}
        for name, read, required in fields:
            path = f"{where}.{name}" if where else name
            if name in data:
                given[name] = read(data[name], path)
            elif required:
                raise PayloadInvalid(f"`{path}` is missing")
        return kind(**given)
    return record


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
        earlier version upcast step by step to the current one; `payload` itself is left as it is.
        Raises PayloadInvalid, naming the field, for a payload not of the event's type."""
        kind = self._types.get(name)
        if kind is None or type(schema_version) is not int or schema_version > self.version(name):
            raise UnknownEvent(f"no event {name!r} at schema version {schema_version!r}")
        if schema_version < self.version(name):
            payload = self.upcast(name, schema_version, payload)
        event: E = strict(kind)(payload, "")
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
