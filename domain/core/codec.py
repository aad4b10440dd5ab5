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
from collections.abc import Callable, Iterable, Mapping
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
    """A payload that is not of its event's type: a field missing, unknown or of the wrong kind.
    It names the value at fault by the fields and indexes leading to it (`moves[0].to`), each
    reader the complaint rises through adding its part to `path`."""

    def __init__(self, says: str, *path: str) -> None:
        super().__init__(says)
        self.says = says  # "must be a string, not 3", "is missing" …
        self.path = list(path)  # ".to", "[0]", ".moves": innermost first

    def __str__(self) -> str:
        where = "".join(reversed(self.path)).removeprefix(".") or "payload"
        return f"`{where}` {self.says}"


Structure = Callable[[Any], Any]  # plain JSON data → a domain value; raises PayloadInvalid


def strict(kind: Any) -> Structure:
    """What reads plain data as `kind` exactly as its type hints say, converting nothing: an int
    that is an int (not a bool, not 1.5), a string, an enum by its value, a list for a tuple,
    null only where the hint allows None, a dataclass's fields and no others. Its events'
    dataclasses are thus each event's schema, in one place."""
    if kind in _STRUCTURES:
        return _STRUCTURES[kind]
    _STRUCTURES[kind] = lambda data: structure(data)  # a type that holds itself
    structure = _structure(kind)
    _STRUCTURES[kind] = structure
    return structure


_STRUCTURES: dict[Any, Structure] = {}
_NAMES = {int: "an integer", str: "a string", bool: "true or false", float: "a number"}


def _wrong(wanted: str, data: Any) -> PayloadInvalid:
    shown = repr(data) if len(repr(data)) <= 40 else f"{repr(data)[:37]}..."
    return PayloadInvalid(f"must be {wanted}, not {shown}")


def _structure(kind: Any) -> Structure:
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if kind in (int, str, bool):
        def scalar(data: Any) -> Any:
            if not isinstance(data, kind) or (kind is int and isinstance(data, bool)):
                raise _wrong(_NAMES[kind], data)
            return data
        return scalar
    if kind is float:
        def number(data: Any) -> Any:
            if not isinstance(data, (int, float)) or isinstance(data, bool):
                raise _wrong("a number", data)
            return float(data)
        return number
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        values = {member.value: member for member in kind}
        listed = ", ".join(repr(value) for value in values)

        def member(data: Any) -> Any:
            if type(data) in (str, int) and data in values:
                return values[data]
            if isinstance(data, kind):  # a payload made in this process, not read from JSON
                return data
            raise _wrong(f"one of {listed}", data)
        return member
    if origin in (types.UnionType, typing.Union):
        options = [argument for argument in arguments if argument is not type(None)]
        if len(options) != 1:
            raise TypeError(f"no strict reading of {kind!r}: a union other than X | None")
        inner = strict(options[0])

        def optional(data: Any) -> Any:
            try:
                return None if data is None else inner(data)
            except PayloadInvalid as problem:
                if not problem.path:  # the complaint is about this value, not one inside it
                    problem.says = problem.says.replace("must be ", "must be null or ", 1)
                raise
        return optional
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            item, plain = strict(arguments[0]), arguments[0] if arguments[0] in (int, str, bool) else None

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
        fixed = [strict(argument) for argument in arguments]

        def pair(data: Any) -> Any:
            if not isinstance(data, (list, tuple)) or len(data) != len(fixed):
                raise _wrong(f"a list of {len(fixed)}", data)
            places = iter(fixed)
            return tuple(_each(lambda value: next(places)(value), data))  # each item read by its place's reader
        return pair
    if origin is frozenset:
        element = strict(arguments[0])

        def members(data: Any) -> Any:
            if not isinstance(data, (list, tuple, AbstractSet)):
                raise _wrong("a list", data)
            return frozenset(_each(element, data))
        return members
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _record(kind)
    raise TypeError(f"no strict reading of {kind!r}")


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


def _record(kind: type) -> Structure:
    """A dataclass read field by field and made as its `__init__` would make it, its slots set
    directly: a frozen dataclass's `__init__` sets each through `object.__setattr__`, which was a
    third of what decoding cost. So the dataclass must have slots and run no code on creation."""
    hints, declared = typing.get_type_hints(kind), dataclasses.fields(kind)
    slots: list[Any] = [getattr(kind, each.name, None) for each in declared]
    if hasattr(kind, "__post_init__") or not all(
            each.init and each.default_factory is dataclasses.MISSING and isinstance(slot, types.MemberDescriptorType)
            for each, slot in zip(declared, slots)):
        raise TypeError(f"no strict reading of {kind!r}: a dataclass of slots, each set by __init__, with no "
                        "__post_init__ and no default factory")
    fields = [_Field(each.name, strict(hints[each.name]), hints[each.name] if hints[each.name] in (int, str, bool) else None,
                     each.default, slot.__set__) for each, slot in zip(declared, slots)]
    return _written_out(kind, fields, _field_by_field(kind, fields))


class _Field(typing.NamedTuple):
    """How a record's field is read and set."""

    name: str
    read: Structure
    plain: type | None  # an int, str or bool field's own type: a value of exactly that type is taken as it is
    default: Any  # dataclasses.MISSING for a field without one
    put: Callable[[Any, Any], None]  # sets the field's slot


def _field_by_field(kind: type, fields: list[_Field]) -> Structure:
    """Reads any payload as a `kind`, or names its fault."""
    known = frozenset(each.name for each in fields)

    def record(data: Any) -> Any:
        if not isinstance(data, dict):
            raise _wrong("an object", data)
        if not known.issuperset(data):
            unknown = sorted(map(str, set(data) - known))[0]
            raise PayloadInvalid(f"is no field of {kind.__name__}", f".{unknown}")
        made: Any = object.__new__(kind)
        try:
            for name, read, plain, default, put in fields:
                if name in data:
                    value = data[name]
                    put(made, value if type(value) is plain else read(value))
                elif default is dataclasses.MISSING:
                    raise PayloadInvalid("is missing")
                else:
                    put(made, default)
        except PayloadInvalid as problem:
            problem.path.append(f".{name}")
            raise
        return made
    return record


def _written_out(kind: type, fields: list[_Field], careful: Structure) -> Structure:
    """Reads the payloads decoding meets as `careful` does, written out field by field for speed
    (a loop over the fields was most of what decoding a nested record cost): an object of exactly
    `kind`'s fields, each plain one of exactly its type. Any other payload, or one a field's
    reader refuses, is left to `careful`, which reads it or names its fault."""
    scope: dict[str, Any] = {"kind": kind, "new": object.__new__, "careful": careful, "PayloadInvalid": PayloadInvalid}
    tests, reads = [], []
    for i, each in enumerate(fields):  # a plain field's value is tested, any other read by its reader
        if each.plain:
            tests.append(f"type(v{i}) is plain_v{i}")
        else:
            reads.append(f"v{i} = read_v{i}(v{i})")
        scope |= {f"plain_v{i}": each.plain, f"read_v{i}": each.read, f"put_v{i}": each.put}
    source = "\n".join([
        "def record(data):",
        f"    if type(data) is dict and len(data) == {len(fields)}:",
        "        try:",
        *(f"            v{i} = data[{each.name!r}]" for i, each in enumerate(fields)),
        f"            if {' and '.join(tests) or 'True'}:",
        *(f"                {read}" for read in reads),
        "                made = new(kind)",
        *(f"                put_v{i}(made, v{i})" for i in range(len(fields))),
        "                return made",
        "        except (KeyError, PayloadInvalid):",
        "            pass",
        "    return careful(data)",
    ])
    exec(source, scope)
    return typing.cast(Structure, scope["record"])


@dataclass(frozen=True)
class EventCodec(Generic[E]):
    """Maps each event type to its wire name and payload schema version, both ways, reading a
    payload of an earlier version through its upcasters."""

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
        object.__setattr__(self, "_reads", {name: (self.version(name), strict(kind)) for name, kind in kinds.items()})

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
