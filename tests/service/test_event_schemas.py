"""The spec's event schemas (service.contract.events): every event type of every game has a
payload schema and a place in its game's union; every event of random games, as each seat, a
spectator and (once the game is over) anyone reads it from the API, is valid by its game's union;
and a payload the decoder refuses, the schema refuses too."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from domain import GAMES
from domain.core.errors import PayloadInvalid
from domain.core.rng import SeededRng
from events.envelope import Envelope
from service.contract.events import ENVELOPE, HIDDEN, PREFIXES, REFERENCE, Named, components, json_schema
from service.schemas.responses import event as shown
from tests.playing import moves_on, random_game

SCHEMAS = components()
SPEC = "urn:meeple:spec"
REGISTRY = Registry().with_resource(SPEC, DRAFT202012.create_resource({"components": {"schemas": SCHEMAS}}))

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("taki", 2, {}), ("taki", 3, {"mode": "tournament"}), ("taki", 4, {"play_for_places": True}),
    ("taki", 6, {"last_card_rule": "off", "taki_close": "auto", "super_taki_after_king": "choose"}),
    ("djambi", 3, {}), ("djambi", 3, {"hostage_army": "red", "self_kill": False}), ("djambi", 4, {}),
    ("bahama_taxi", 2, {"max_rounds": 30, "contraband": True}),
    ("bahama_taxi", 3, {"max_rounds": 30, "dice": True, "hand_size": 4, "unknown_destination": True}),
    ("bahama_taxi", 4, {"max_rounds": 30, "cabs_per_player": 2, "two_cab_mode": "alternate"}),
    ("bahama_taxi", 3, {"max_rounds": 30, "cabs_per_player": 2, "setup": "shift_change"}),
    ("bahama_taxi", 2, {"max_rounds": 30, "movement": "optional", "mirror_board": True, "passengers_from_god": True,
                        "mandatory_pickup": True, "setup": "start_as_destination"}),
    ("bahama_taxi", 5, {"max_rounds": 20, "double_pickup": "together", "double_dropoff": "separately",
                        "cancelled_passenger": "two_point_round_trip"}),
]


def validator(reference: str) -> Draft202012Validator:
    """What checks data against the schema `reference` names."""
    return Draft202012Validator({"$ref": SPEC + reference}, registry=REGISTRY)


def union(name: str) -> Draft202012Validator:
    """What checks an event against the union of `name`'s events."""
    return validator(f"{REFERENCE}{PREFIXES[name]}Event")


def schema(reference: str) -> dict[str, Any]:
    return SCHEMAS[reference.removeprefix(REFERENCE)]


def payload_schema(name: str, wire_name: str) -> dict[str, Any]:
    mapping = SCHEMAS[f"{PREFIXES[name]}Event"]["discriminator"]["mapping"]
    return schema(schema(mapping[wire_name])["properties"]["payload"]["$ref"])


@pytest.mark.parametrize("name", PREFIXES)
def test_every_event_type_has_a_payload_schema_and_a_variant_in_its_games_union(name: str) -> None:
    codec, prefix = GAMES[name].events, PREFIXES[name]
    events = SCHEMAS[f"{prefix}Event"]
    assert events["discriminator"]["propertyName"] == "type"
    assert [variant["$ref"] for variant in events["oneOf"]] == list(events["discriminator"]["mapping"].values())
    assert list(events["discriminator"]["mapping"]) == list(codec.names.values())
    for kind, wire_name in codec.names.items():
        variant = schema(events["discriminator"]["mapping"][wire_name])
        assert variant["properties"]["type"] == {"type": "string", "enum": [wire_name]}
        assert variant["properties"]["schema_version"]["enum"] == [codec.version(wire_name)]
        assert variant["properties"]["payload"] == {"$ref": f"{REFERENCE}{prefix}{kind.__name__}Payload"}
        assert variant["properties"]["game"] == {"type": "string", "enum": [name]}
        assert variant["required"] == list(ENVELOPE) == list(variant["properties"])
    assert SCHEMAS["Event"]["discriminator"] == {"propertyName": "game", "mapping": {
        game: f"{REFERENCE}{prefix}Event" for game, prefix in PREFIXES.items()}}


def test_every_reference_names_a_schema_and_the_schemas_read_the_same_each_time() -> None:
    referenced: list[str] = []

    def gather(value: Any) -> None:
        if isinstance(value, dict):
            referenced.extend([value["$ref"]] if "$ref" in value else [])
            for inner in value.values():
                gather(inner)
        elif isinstance(value, list):
            for inner in value:
                gather(inner)
    gather(SCHEMAS)
    assert {reference.removeprefix(REFERENCE) for reference in referenced} <= set(SCHEMAS)
    assert all(reference.startswith(REFERENCE) and "/" not in reference.removeprefix(REFERENCE) for reference in referenced)
    assert json.dumps(components()) == json.dumps(SCHEMAS)
    for each in SCHEMAS.values():
        Draft202012Validator.check_schema(each)


def api_events(name: str, seats: int, options: dict[str, Any], seed: int) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Each event of a random game (deadlines passing and seats leaving, after seed 0), with a
    fork's fresh deal halfway, and every form the API shows it in: as each seat and a spectator
    see it in play, and as it reads once the game is over."""
    game = GAMES[name]
    parsed = game.parse_options(options, seats)
    events = list(game.setup(parsed, seats, SeededRng(seed)))
    steps = list(random_game(game, seats, parsed, seed, prefer=moves_on, interruptions=0.02 * seed))
    for number, step in enumerate(steps):
        events += step.events
        if number == len(steps) // 2:
            events += game.redeal(step.after, SeededRng(seed))
    forms = []
    for version, event in enumerate(events, start=1):
        envelope = Envelope(f"{name}-{seed}", version, *game.events.encode(event), command_id="c", actor="system", time=0)
        seen = [shown(envelope, game, seat, finished=False) for seat in [*range(seats), None]]
        forms.append((event, [*seen, shown(envelope, game, None, finished=True)]))
    return forms


@pytest.mark.parametrize(("name", "seats", "options"), CASES)
def test_every_event_of_random_games_is_valid_by_its_games_union_as_anyone_sees_it(
        name: str, seats: int, options: dict[str, Any]) -> None:
    mapping = SCHEMAS[f"{PREFIXES[name]}Event"]["discriminator"]["mapping"]
    variants = {wire_name: validator(reference) for wire_name, reference in mapping.items()}
    seen_types: set[str] = set()
    redacted = False
    for seed in range(3):
        for event, forms in api_events(name, seats, options, seed):
            whole = forms[-1]
            # the union checks every variant of its oneOf (some ms an event): once a type, and then the
            # variant its `type` picks, which is all a variant of another type could match
            if whole["type"] not in seen_types:
                union(name).validate(whole)
                seen_types.add(whole["type"])
            for form in {json.dumps(form, sort_keys=True): form for form in forms}.values():
                variants[form["type"]].validate(form)
                properties = payload_schema(name, form["type"])["properties"]
                hidden = [key for key, value in form["payload"].items() if value != whole["payload"][key]]
                redacted |= bool(hidden)
                assert all(properties[key].get("description") == HIDDEN for key in hidden), (event, hidden)
    assert len(seen_types) > len(GAMES[name].events.names) // 3 and redacted == (name != "djambi")


REFUSED = [
    ("a field missing", lambda payload: {key: value for key, value in payload.items() if key != "card"}),
    ("an unknown field", lambda payload: {**payload, "colour": "red"}),
    ("a string for an integer", lambda payload: {**payload, "seat": "0"}),
    ("a boolean for an integer", lambda payload: {**payload, "seat": True}),
    ("a number for an integer", lambda payload: {**payload, "seat": 0.5}),
    ("null where none is allowed", lambda payload: {**payload, "card": None}),
    ("a value of no enum member", lambda payload: {**payload, "role": "sideways"}),
    ("an integer for a boolean", lambda payload: {**payload, "announce": 1}),
    ("no object", lambda payload: ["red.5.1"]),
]


@pytest.mark.parametrize(("why", "change"), REFUSED, ids=[why for why, _ in REFUSED])
def test_a_payload_the_decoder_refuses_the_schema_refuses(why: str, change: Any) -> None:
    game, check = GAMES["taki"], union("taki")
    envelope: dict[str, Any] = {"version": 7, "game": "taki", "type": "card_played", "schema_version": 1,
                "payload": {"seat": 1, "card": "red.5.1", "role": "run", "announce": True},
                "command_id": "c", "actor": "seat:1", "time": 0}
    check.validate(envelope)
    check.validate({**envelope, "payload": {"seat": 1, "card": "red.5.1"}})  # the fields with defaults may be left out
    game.events.decode("card_played", 1, envelope["payload"])
    changed = {**envelope, "payload": change(envelope["payload"])}
    assert not check.is_valid(changed)
    with pytest.raises(PayloadInvalid):
        game.events.decode("card_played", 1, changed["payload"])


@pytest.mark.parametrize("envelope", [
    {"type": "card_drawn"}, {"type": "cards_drawn"}, {"schema_version": 2}, {"version": 0}, {"time": "0"}, {"game": "djambi"},
], ids=["an unknown type", "another type's payload", "a later schema version", "version 0", "a string time", "another game"])
def test_an_envelope_not_of_its_type_is_refused(envelope: dict[str, Any]) -> None:
    event = {"version": 7, "game": "taki", "type": "card_played", "schema_version": 1, "payload": {"seat": 1, "card": "red.5.1"},
             "command_id": "c", "actor": "seat:1", "time": 0}
    assert union("taki").is_valid(event) and not union("taki").is_valid({**event, **envelope})


class Mood(Enum):
    CALM = "calm"
    COUNT = 3


@dataclass(frozen=True)
class Inner:
    """A thing held."""

    at: str


@dataclass(frozen=True)
class Outer:
    pair: tuple[int, str]
    twins: tuple[int, int]
    tags: frozenset[str]
    weight: float
    mood: Mood
    inner: Inner | None
    flags: tuple[bool, ...] = field(default_factory=tuple)


def test_a_type_hint_reads_as_strict_reads_it() -> None:
    named = Named(lambda kind: f"X{kind.__name__}")
    assert json_schema(Outer, named) == {"$ref": f"{REFERENCE}XOuter"}
    assert named.schemas == {
        "XOuter": {"type": "object", "properties": {
            "pair": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
            "twins": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "weight": {"type": "number"},
            "mood": {"$ref": f"{REFERENCE}XMood"},
            "inner": {"oneOf": [{"$ref": f"{REFERENCE}XInner"}, {"type": "null"}]},
            "flags": {"type": "array", "items": {"type": "boolean"}, "default": []},
        }, "required": ["pair", "twins", "tags", "weight", "mood", "inner"], "additionalProperties": False},
        "XMood": {"type": ["string", "integer"], "enum": ["calm", 3]},
        "XInner": {"type": "object", "description": "A thing held.", "properties": {"at": {"type": "string"}},
                   "required": ["at"], "additionalProperties": False},
    }
    assert json_schema(int | None, named) == {"type": ["integer", "null"]}


@pytest.mark.parametrize("kind", [list[int], dict[str, int], int | str, Any, bytes])
def test_a_type_strict_cannot_read_has_no_schema(kind: Any) -> None:
    with pytest.raises(TypeError):
        json_schema(kind, Named(lambda kind: kind.__name__))


def test_two_classes_of_one_name_are_refused() -> None:
    other = type("Inner", (), {})
    named = Named(lambda kind: kind.__name__)
    json_schema(Inner, named)
    with pytest.raises(ValueError):
        named.ref(dataclass(other))
