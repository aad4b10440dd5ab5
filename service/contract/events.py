"""Each game's events as JSON Schemas (OpenAPI 3.1), read off the event dataclasses that
`strict` reads stored payloads by: the envelope every event endpoint answers, `Event`, and per
game a schema of each event's payload, an envelope of each event, and their union.

Names, per game prefix (Taki, Djambi, Taxi): `<Prefix>Event` is the union of the game's events;
`<Prefix><Class>Event` an event as the API sends it (TakiCardPlayedEvent), `<Prefix><Class>Payload`
its payload (TakiCardPlayedPayload), and `<Prefix>Event<Class>` a dataclass or enum a payload
holds (TakiEventColor, DjambiEventPieceMove). These suffixes keep them apart from one another and
from the spec's other schemas (TakiColor, TaxiMove …); a clash raises ValueError."""

from __future__ import annotations

import copy
import dataclasses
import enum
import inspect
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain import GAMES
from domain.core.codec import to_primitive
from domain.core.game import Game

Schema = dict[str, Any]

PREFIXES = {"taki": "Taki", "djambi": "Djambi", "bahama_taxi": "Taxi"}
REFERENCE = "#/components/schemas/"
HIDDEN = ('"?" stands for each string here the caller may not see (a card of another seat, a shuffle\'s order '
          "and salt until the game is over); every event shows in full once the game is over.")
_SCALARS = {int: "integer", str: "string", bool: "boolean", float: "number"}
_SPECIMENS: dict[Any, Any] = {int: 0, str: "x", bool: False, float: 0.0}
_ENUM_TYPES = {str: "string", int: "integer"}

ENVELOPE: dict[str, Schema] = {
    "version": {"description": "The event's place in the game's stream: 1, 2, 3 … with no gaps.",
                "type": "integer", "minimum": 1},
    "game": {"description": "The game whose rules wrote it; with `type`, it tells the form of the `payload`.",
             "type": "string", "enum": list(GAMES)},
    "type": {"description": "The event's wire name, e.g. card_played.", "type": "string"},
    "schema_version": {"description": "The version of the payload's form for this type: always the current one "
                                      "here, an event stored at an older one being upcast.",
                       "type": "integer", "minimum": 1},
    "payload": {"description": 'The event\'s fields. Cards the caller may not see are "?". A shuffle (`deck_shuffled`, '
                               "`discard_reshuffled`, and a fork's `hidden_cards_redealt`, whose `hands` show each seat "
                               "its own) is sealed: its `commitment`, the hex SHA-256 of \"<salt>:<card ids in order, "
                               "comma-separated>\", is shown at once; its `order` and `salt` read \"?\" until the game "
                               "is over (check a finished log with `meeple verify`).",
                "type": "object"},
    "command_id": {"description": "The command that appended it, shared by every event that command appended.",
                   "type": "string"},
    "actor": {"description": 'Who caused it: "seat:N", "bot:N" (an AI seat), "deadline:N" (a deadline applied for '
                             'seat N); "system" (the setup), "fork" (a fork\'s copied opening and its fresh deal) or '
                             '"import".',
              "type": "string"},
    "time": {"description": "Milliseconds since the epoch, when the server appended it.", "type": "integer"},
}


@dataclass
class Named:
    """Schemas gathered by name: each dataclass and enum written once, under `name(its class)`."""

    name: Callable[[type], str]
    schemas: dict[str, Schema] = field(default_factory=dict)
    classes: dict[str, type] = field(default_factory=dict)

    def ref(self, kind: type) -> Schema:
        """A reference to `kind`'s schema, written first if it is new."""
        name = self.name(kind)
        if self.classes.setdefault(name, kind) is not kind:
            raise ValueError(f"{kind!r} and {self.classes[name]!r} would both be named {name}")
        if name not in self.schemas:
            self.schemas[name] = {}  # a type that holds itself refers to the name it is being written under
            self.schemas[name] = _enum(kind) if issubclass(kind, enum.Enum) else _record(kind, self)
        return {"$ref": REFERENCE + name}


def json_schema(kind: Any, named: Named) -> Schema:
    """The JSON Schema of what `strict(kind)` reads, each dataclass and enum met named in `named`; else TypeError."""
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if kind in _SCALARS:
        return {"type": _SCALARS[kind]}
    if isinstance(kind, type) and (issubclass(kind, enum.Enum) or dataclasses.is_dataclass(kind)):
        return named.ref(kind)
    if origin in (types.UnionType, typing.Union):
        options = [argument for argument in arguments if argument is not type(None)]
        if len(options) != 1:
            raise TypeError(f"no schema of {kind!r}: a union other than X | None")
        inner = json_schema(options[0], named)
        return {"oneOf": [inner, {"type": "null"}]} if "$ref" in inner else {**inner, "type": [inner["type"], "null"]}
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return {"type": "array", "items": json_schema(arguments[0], named)}
    if origin is tuple:
        fixed: Schema = {"type": "array", "minItems": len(arguments), "maxItems": len(arguments)}
        items: list[Schema] = []
        for schema in (json_schema(argument, named) for argument in arguments):
            items += [] if schema in items else [schema]
        return fixed if not items else {**fixed, "items": items[0] if len(items) == 1 else {"anyOf": items}}
    if origin is frozenset:
        return {"type": "array", "items": json_schema(arguments[0], named), "uniqueItems": True}
    raise TypeError(f"no schema of {kind!r}")


def _record(kind: type, named: Named) -> Schema:
    """A dataclass as an object of its fields and no others, those with a default optional."""
    hints = typing.get_type_hints(kind)
    properties, required = {}, []
    for each in dataclasses.fields(kind):
        if not each.init:
            continue
        schema = json_schema(hints[each.name], named)
        if each.default is not dataclasses.MISSING:
            schema["default"] = _json(each.default)
        elif each.default_factory is not dataclasses.MISSING:
            schema["default"] = _json(each.default_factory())
        else:
            required.append(each.name)
        properties[each.name] = schema
    return {"type": "object", **_described(kind), "properties": properties,
            **({"required": required} if required else {}), "additionalProperties": False}


def _json(value: Any) -> Any:
    """A value as JSON data of plain types (an enum member as its value, not a str subclass)."""
    return json.loads(json.dumps(to_primitive(value)))


def _enum(kind: type[enum.Enum]) -> Schema:
    """An enum as its values."""
    values = [member.value for member in kind]
    if any(type(value) not in _ENUM_TYPES for value in values):
        raise TypeError(f"no schema of {kind!r}: `strict` reads only enums of strings and integers")
    kinds = list(dict.fromkeys(_ENUM_TYPES[type(value)] for value in values))
    return {"type": kinds[0] if len(kinds) == 1 else kinds, **_described(kind), "enum": values}


def _described(kind: type) -> Schema:
    """The class's docstring as its description, if one was written (not a dataclass's made-up signature)."""
    doc = kind.__doc__
    if not doc or doc.startswith(f"{kind.__name__}("):
        return {}
    return {"description": "\n\n".join(" ".join(part.split()) for part in inspect.cleandoc(doc).split("\n\n"))}


def _specimen(kind: Any) -> Any:
    """A value of `kind` with a string in every string and an item in every list, for `redact` to hide part of."""
    origin, arguments = typing.get_origin(kind), typing.get_args(kind)
    if kind in _SPECIMENS:
        return _SPECIMENS[kind]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return next(iter(kind))
    if origin in (types.UnionType, typing.Union):
        return _specimen(next(argument for argument in arguments if argument is not type(None)))
    if origin is tuple and len(arguments) == 2 and arguments[1] is Ellipsis:
        return (_specimen(arguments[0]),)
    if origin in (tuple, frozenset):
        return origin(_specimen(argument) for argument in arguments)
    if not (isinstance(kind, type) and dataclasses.is_dataclass(kind)):
        raise TypeError(f"no specimen of {kind!r}")
    hints = typing.get_type_hints(kind)
    return kind(**{each.name: _specimen(hints[each.name]) for each in dataclasses.fields(kind) if each.init})


def _hidden(game: Game[Any, Any, Any, Any], kind: type) -> list[str]:
    """The fields of event `kind` that `game.redact` hides from a spectator."""
    specimen = _specimen(kind)
    shown, seen = to_primitive(specimen), to_primitive(game.redact(specimen, None))
    return [name for name in shown if shown[name] != seen[name]]


def _variant(game: str, wire_name: str, version: int, payload: Schema) -> Schema:
    """The envelope of one event type of one game: its wire name, current schema version and payload."""
    return {"type": "object", "required": list(ENVELOPE), "properties": {
        **copy.deepcopy(ENVELOPE), "game": {"type": "string", "enum": [game]}, "type": {"type": "string", "enum": [wire_name]},
        "schema_version": {"type": "integer", "enum": [version]}, "payload": payload}}


def game_components(game: Game[Any, Any, Any, Any], prefix: str) -> dict[str, Schema]:
    """One game's union of events, each event's envelope and payload, and what the payloads hold."""
    codec = game.events
    named = Named(lambda kind: f"{prefix}{kind.__name__}Payload" if kind in codec.names else f"{prefix}Event{kind.__name__}")
    variants: dict[str, Schema] = {}
    for kind, name in codec.names.items():
        payload = named.ref(kind)
        for hidden in _hidden(game, kind):
            named.schemas[payload["$ref"].removeprefix(REFERENCE)]["properties"][hidden]["description"] = HIDDEN
        variants[f"{prefix}{kind.__name__}Event"] = _variant(game.name, name, codec.version(name), payload)
    union = {
        "description": f"An event of a {game.title} game, its `type` naming which and so the form of its `payload`.",
        "oneOf": [{"$ref": REFERENCE + variant} for variant in variants],
        "discriminator": {"propertyName": "type", "mapping": {
            name: REFERENCE + variant for name, variant in zip(codec.names.values(), variants)}},
    }
    return _merged({f"{prefix}Event": union}, variants, named.schemas)


def components() -> dict[str, Schema]:
    """The event schemas for `components.schemas`: `Event` (the games' unions by `game`), then each game's."""
    event = {"description": "An event as the caller may see it: its `game` names the game's union (TakiEvent, "
                            "DjambiEvent, TaxiEvent), in which its `type` names the event and so its payload's form.",
             "oneOf": [{"$ref": f"{REFERENCE}{prefix}Event"} for prefix in PREFIXES.values()],
             "discriminator": {"propertyName": "game",
                               "mapping": {name: f"{REFERENCE}{prefix}Event" for name, prefix in PREFIXES.items()}}}
    return _merged({"Event": event}, *(game_components(GAMES[name], prefix) for name, prefix in PREFIXES.items()))


def _merged(*parts: dict[str, Schema]) -> dict[str, Schema]:
    """The schemas of all the parts, each name given once."""
    merged: dict[str, Schema] = {}
    for part in parts:
        if clash := merged.keys() & part.keys():
            raise ValueError(f"two schemas named {sorted(clash)[0]}")
        merged.update(part)
    return merged
