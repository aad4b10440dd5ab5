"""Record readers compiled from source written out for each record's fields."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import TYPE_CHECKING, Any

from domain.core.errors import PayloadInvalid

if TYPE_CHECKING:
    from domain.core.codec import FieldReader, Structure


def written_out(kind: type, fields: list[FieldReader], careful: Structure) -> Structure:
    """A reader of `kind` that reads as `careful` does, by code written out for its fields."""
    # The code reads an object of exactly `kind`'s fields, each plain one of exactly its type; any
    # other payload, or one a field's reader refuses, is left to `careful`, which reads it or names its fault.
    scope: dict[str, Any] = {"kind": kind, "new": object.__new__, "careful": careful, "PayloadInvalid": PayloadInvalid}
    tests, reads = [], []
    for i, (each, put) in enumerate(zip(fields, _setters(kind))):  # a plain field's value is tested, any other read
        if each.plain:
            tests.append(f"type(v{i}) is plain_v{i}")
        else:
            reads.append(f"v{i} = read_v{i}(v{i})")
        scope |= {f"plain_v{i}": each.plain, f"read_v{i}": each.read, f"put_v{i}": put}
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
    return typing.cast("Structure", scope["record"])


def _setters(kind: type) -> list[typing.Callable[[Any, Any], None]]:
    """What sets each field's slot of `kind`, which must make a record as its `__init__` would."""
    # Setting slots makes what `__init__` makes only if the dataclass has slots, sets every field in
    # `__init__`, and runs no code on creation.
    declared = dataclasses.fields(kind)
    slots: list[Any] = [getattr(kind, each.name, None) for each in declared]
    if hasattr(kind, "__post_init__") or not all(
            each.init and each.default_factory is dataclasses.MISSING and isinstance(slot, types.MemberDescriptorType)
            for each, slot in zip(declared, slots)):
        raise TypeError(f"no strict reading of {kind!r}: a dataclass of slots, each set by __init__, with no "
                        "__post_init__ and no default factory")
    return [slot.__set__ for slot in slots]
