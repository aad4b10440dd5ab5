"""Copies of slotted frozen records made by copy functions compiled for each record type."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Setter = Callable[[Any, Any], None]
_COPIERS: dict[type, tuple[Callable[[Any], Any], dict[str, _Setter]]] = {}


def replace(record: T, /, **changes: Any) -> T:
    """`record` with `changes`, as dataclasses.replace makes it, its slots set directly."""
    kind = type(record)
    if kind not in _COPIERS:
        _COPIERS[kind] = _copier(kind)
    copy, setters = _COPIERS[kind]
    new = copy(record)
    try:
        for name, value in changes.items():
            setters[name](new, value)
    except KeyError:
        raise TypeError(f"{kind.__name__} has no field {name}") from None
    return new  # type: ignore[no-any-return]


def _copier(kind: type) -> tuple[Callable[[Any], Any], dict[str, _Setter]]:
    """A function copying a `kind` slot by slot, written out field by field, and each field's setter."""
    # Setting slots makes what `__init__` makes only for records of slots that run no code on creation.
    names = [field.name for field in dataclasses.fields(kind)]
    slots: list[Any] = [getattr(kind, name, None) for name in names]
    if hasattr(kind, "__post_init__") or not all(isinstance(slot, types.MemberDescriptorType) for slot in slots):
        raise TypeError(f"{kind.__name__} runs code on creation or has no slots: use dataclasses.replace")
    setters = {name: slot.__set__ for name, slot in zip(names, slots)}
    lines = [f"    set_{name}(new, record.{name})" for name in names]
    source = "def copy(record):\n    new = new_(kind)\n" + "\n".join(lines) + "\n    return new\n"
    scope: dict[str, Any] = {"new_": object.__new__, "kind": kind, **{f"set_{name}": put for name, put in setters.items()}}
    exec(source, scope)
    return scope["copy"], setters
