"""Copying the frozen dataclasses the domain is made of, with some fields changed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Copy = Callable[[Any, dict[str, Any]], Any]
_COPIERS: dict[type, tuple[frozenset[str], _Copy]] = {}


def replace(record: T, /, **changes: Any) -> T:
    """`record` with `changes`, like dataclasses.replace. A state is copied on every event it
    folds, so the copy sets each field directly instead of passing them all through
    `__init__` again (the records run no code on creation, so the result is the same)."""
    kind = type(record)
    if kind not in _COPIERS:
        _COPIERS[kind] = _copier(kind)
    names, copy = _COPIERS[kind]
    if unknown := changes.keys() - names:
        raise TypeError(f"{kind.__name__} has no field {', '.join(sorted(unknown))}")
    return copy(record, changes)  # type: ignore[no-any-return]


def _copier(kind: type) -> tuple[frozenset[str], _Copy]:
    """A function copying a `kind` with changes, written out field by field for speed."""
    if hasattr(kind, "__post_init__"):
        raise TypeError(f"{kind.__name__} runs code on creation: use dataclasses.replace")
    names = [field.name for field in dataclasses.fields(kind)]
    lines = [f"    set_(new, {name!r}, changes[{name!r}] if {name!r} in changes else record.{name})" for name in names]
    source = "def copy(record, changes):\n    new = new_(kind)\n" + "\n".join(lines) + "\n    return new\n"
    scope: dict[str, Any] = {"new_": object.__new__, "set_": object.__setattr__, "kind": kind}
    exec(source, scope)
    return frozenset(names), scope["copy"]
