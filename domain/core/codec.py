"""Domain values as plain JSON data and back, events under explicit wire names."""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import cattrs

from domain.core.errors import PayloadInvalid, UnknownEvent
from domain.core.generated_readers import written_out

E = TypeVar("E")

converter = cattrs.Converter(unstruct_collection_overrides={AbstractSet: sorted}, detailed_validation=False)  # sets as sorted JSON lists

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]  # a payload at version n made into one at version n + 1


def to_primitive(value: object) -> Any:
    """Plain JSON data (dicts, lists, strings, numbers) for a domain value."""
    return converter.unstructure(value)


Structure = Callable[[Any], Any]  # plain JSON data → a domain value; raises PayloadInvalid


class FieldReader(typing.NamedTuple):
    """How one field of a record is read."""

    name: str
    read: Structure
    plain: type | None  # an int, str or bool field's own type: a value of exactly that type is taken as it is
    default: Any  # dataclasses.MISSING for a field without one


RecordReader = Callable[[type, list[FieldReader]], Structure]  # a dataclass's reader, from its fields' readers


class StrictReaders:
    """Readers of plain data as a type exactly as its hints say, converting nothing, each made once."""

    # An int is an int (not a bool, not 1.5), an enum is read by its value, a tuple from a list,
    # null only where the hint allows None, a dataclass from its fields and no others: each
    # event's dataclass is thus its schema, in one place.

    def __init__(self, record: RecordReader) -> None:
        self._record = record
        self._made: dict[Any, Structure] = {}

    def __call__(self, kind: Any) -> Structure:
        """The reader of `kind`."""
        if kind in self._made:
            return self._made[kind]
        self._made[kind] = lambda data: structure(data)  # a type that holds itself
        structure = self._structure(kind)
        self._made[kind] = structure
        return structure

    def _structure(self, kind: Any) -> Structure:
        origin, arguments = typing.get_origin(kind), typing.get_args(kind)
        if kind in (int, str, bool):
            return _scalar(kind)
        if kind is float:
            return _number
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            return _member(kind)
        if origin in (types.UnionType, typing.Union):
            return _optional(kind, self)
        if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
            return _items(self(arguments[0]), arguments[0] if arguments[0] in (int, str, bool) else None)
        if origin is tuple:
            return _pair([self(argument) for argument in arguments])
        if origin is frozenset:
            return _members(self(arguments[0]))
        if dataclasses.is_dataclass(kind) and isinstance(kind, type):
            return self._record(kind, self._fields(kind))
        raise TypeError(f"no strict reading of {kind!r}")

    def _fields(self, kind: type) -> list[FieldReader]:
        hints = typing.get_type_hints(kind)
        return [FieldReader(each.name, self(hint), hint if hint in (int, str, bool) else None, each.default)
                for each in dataclasses.fields(kind) for hint in [hints[each.name]]]


_NAMES = {int: "an integer", str: "a string", bool: "true or false", float: "a number"}


def _wrong(wanted: str, data: Any) -> PayloadInvalid:
    shown = repr(data) if len(repr(data)) <= 40 else f"{repr(data)[:37]}..."
    return PayloadInvalid(f"must be {wanted}, not {shown}")


def _scalar(kind: type) -> Structure:
    """A reader of an int, a string or a bool, of exactly that type."""
    def scalar(data: Any) -> Any:
        if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
            raise _wrong(_NAMES[kind], data)
        return data
    return scalar


def _number(data: Any) -> Any:
    """A float read from any number but a bool."""
    if not isinstance(data, (int, float)) or isinstance(data, bool):
        raise _wrong("a number", data)
    return float(data)


def _member(kind: type[enum.Enum]) -> Structure:
    """A reader of a member of `kind` by its value."""
    values = {member.value: member for member in kind}
    listed = ", ".join(repr(value) for value in values)

    def member(data: Any) -> Any:
        if type(data) in (str, int) and data in values:
            return values[data]
        if isinstance(data, kind):  # a payload made in this process, not read from JSON
            return data
        raise _wrong(f"one of {listed}", data)
    return member


def _optional(kind: Any, readers: StrictReaders) -> Structure:
    """A reader of `X | None`: null, or what reads an X."""
    options = [argument for argument in typing.get_args(kind) if argument is not type(None)]
    if len(options) != 1:
        raise TypeError(f"no strict reading of {kind!r}: a union other than X | None")
    inner = readers(options[0])

    def optional(data: Any) -> Any:
        try:
            return None if data is None else inner(data)
        except PayloadInvalid as problem:
            if not problem.path:  # the complaint is about this value, not one inside it
                problem.says = problem.says.replace("must be ", "must be null or ", 1)
            raise
    return optional


def _items(item: Structure, plain: type | None) -> Structure:
    """A reader of a tuple of any length from a list, each item read by `item`."""
    def items(data: Any) -> Any:
        if type(data) not in (list, tuple):
            raise _wrong("a list", data)
        made = tuple(data)
        for value in made:  # ints, strings or bools of exactly their type are taken as they are
            if type(value) is not plain:
                return tuple(_each(item, data))
        return made

    def read_each(data: Any) -> Any:
        if type(data) not in (list, tuple):
            raise _wrong("a list", data)
        try:
            return tuple(map(item, data))
        except PayloadInvalid:
            pass
        return tuple(_each(item, data))  # read again, to name the item at fault
    return items if plain is not None else read_each


def _pair(fixed: list[Structure]) -> Structure:
    """A reader of a tuple of fixed length from a list, each item read by its place's reader."""
    def pair(data: Any) -> Any:
        if not isinstance(data, (list, tuple)) or len(data) != len(fixed):
            raise _wrong(f"a list of {len(fixed)}", data)
        places = iter(fixed)
        return tuple(_each(lambda value: next(places)(value), data))  # each item read by its place's reader
    return pair


def _members(element: Structure) -> Structure:
    """A reader of a frozenset from a list, each member read by `element`."""
    def members(data: Any) -> Any:
        if not isinstance(data, (list, tuple, AbstractSet)):
            raise _wrong("a list", data)
        return frozenset(_each(element, data))
    return members


def _each(read: Structure, data: Iterable[Any]) -> list[Any]:
    """Each item of `data` read in turn, a complaint naming the item's index."""
    done: list[Any] = []
    try:
        for value in data:
            done.append(read(value))
    except PayloadInvalid as problem:
        problem.path.append(f"[{len(done)}]")
        raise
    return done


def field_by_field(kind: type, fields: list[FieldReader]) -> Structure:
    """Reads any payload as a `kind`, field by field, or names its fault."""
    known = frozenset(each.name for each in fields)

    def record(data: Any) -> Any:
        if not isinstance(data, dict):
            raise _wrong("an object", data)
        if not known.issuperset(data):
            unknown = sorted(map(str, set(data) - known))[0]
            raise PayloadInvalid(f"is no field of {kind.__name__}", f".{unknown}")
        values: dict[str, Any] = {}
        for name, read, _, default in fields:
            if name in data:
                values[name] = _field(read, data[name], name)
            elif default is dataclasses.MISSING:
                raise PayloadInvalid("is missing", f".{name}")
        return kind(**values)
    return record


def _field(read: Structure, value: Any, name: str) -> Any:
    """`value` read by `read`, a complaint naming the field."""
    try:
        return read(value)
    except PayloadInvalid as problem:
        problem.path.append(f".{name}")
        raise


def _written_out(kind: type, fields: list[FieldReader]) -> Structure:
    """The generated reader of `kind`, leaving what it does not read to `field_by_field`."""
    return written_out(kind, fields, careful=field_by_field(kind, fields))


plain_readers = StrictReaders(field_by_field)  # the reference the generated readers are held equal to
# Every rebuild decodes every stored event: records are read by code written out for each one's
# fields, as a loop over the fields was most of what decoding a nested record cost.
readers = StrictReaders(_written_out)


# Events are forever: a stored event is never rewritten. When an event's payload changes, its
# schema version goes up by one and an upcaster turns a payload of the version before into one of
# the new version; decoding chains them (v1 → v2 → v3 …) in memory, so a stream or an exported log
# written at any earlier version still reads as the events of today.
@dataclass(frozen=True)
class EventCodec(Generic[E]):
    """Each event type's wire name and schema version, both ways, with the upcasters of its past versions."""

    names: Mapping[type, str]
    schema_versions: Mapping[str, int] = field(default_factory=dict)  # wire name → current version, default 1
    # wire name → {n: the upcaster from version n to n + 1}, one for every version before the current
    upcasters: Mapping[str, Mapping[int, Upcaster]] = field(default_factory=dict)
    _reads: dict[str, tuple[int, Structure]] = field(init=False, repr=False)  # wire name → (current version, reader)

    def __post_init__(self) -> None:
        kinds = {name: kind for kind, name in self.names.items()}
        for name in {*self.schema_versions, *self.upcasters} - set(kinds):
            raise ValueError(f"schema version or upcaster for {name!r}, which is no event's wire name")
        for name in kinds:
            current, steps = self.version(name), set(self.upcasters.get(name, {}))
            if current < 1 or steps != set(range(1, current)):
                raise ValueError(f"{name!r} is at schema version {current}: it needs an upcaster from each "
                                 f"version 1 to {current - 1} to the next, and has them from {sorted(steps)}")
        object.__setattr__(self, "_reads", {name: (self.version(name), readers(kind)) for name, kind in kinds.items()})

    def version(self, name: str) -> int:
        """The schema version an event of wire name `name` is written at now."""
        return self.schema_versions.get(name, 1)

    def encode(self, event: E) -> tuple[str, int, dict[str, Any]]:
        """(wire name, schema version, payload) of an event, always at the current version."""
        name = self.names[type(event)]
        return name, self.version(name), converter.unstructure(event)

    def decode(self, name: str, schema_version: int, payload: Mapping[str, Any]) -> E:
        """The event a stored (wire name, schema version, payload) stands for; raises PayloadInvalid naming the field."""
        # a payload of an earlier version is upcast step by step on a copy: `payload` is left as it is
        known = self._reads.get(name)
        if known is None or type(schema_version) is not int or schema_version > known[0]:
            raise UnknownEvent(f"no event {name!r} at schema version {schema_version!r}")
        current, read = known
        if schema_version < current:
            payload = self.upcast(name, schema_version, payload)
        event: E = read(payload)
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
