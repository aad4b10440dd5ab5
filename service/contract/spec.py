"""The OpenAPI document: `api.yaml` (the operations and the shapes of the answers) joined with
the schemas made from the code that reads the requests: the request bodies and query parameters
from their marshmallow schemas, each game's commands and options, the events of each game
(service.contract.events), and the problem codes (service.problems.CODES). `openapi.yaml` is
this document as `meeple openapi` writes it; a test keeps the two the same."""

from __future__ import annotations

import copy
import inspect
import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import Schema

from domain import GAMES
from domain.core.options import describe_options
from service.contract import events
from service.problems import CODES
from service.schemas import GAME_SCHEMAS
from service.schemas.chat import ChatMessageSchema, NotesSchema
from service.schemas.common import (
    BotSeatSchema,
    BudgetSchema,
    CreateGameSchema,
    ExpectedVersionSchema,
    ForkSchema,
    GameTicketSchema,
    InboxTicketSchema,
    JoinSchema,
    RegisterSchema,
    ReservedSeatSchema,
    SignInLinkSchema,
    SignInSchema,
    StreamTicketSchema,
    TimeZoneSchema,
    TokenNameSchema,
    TurnDeadlineSchema,
    VacationSchema,
    WebhookSchema,
    settings_contract,
)
from service.schemas.mail import MailAddressSchema, MailChoicesSchema, MailConfirmationSchema
from service.schemas.moderation import DecisionSchema, MuteSchema, ReportSchema, ReportsQuerySchema  # noqa: F401 (a query's schema, named in api.yaml)
from service.schemas.ratings import LeaderboardQuerySchema, OpponentsQuerySchema, RecentQuerySchema  # noqa: F401 (queries' schemas, named in api.yaml)
from service.schemas.tournaments import (
    CreateTournamentSchema,
    NewEntrantSchema,
    TournamentsQuerySchema,  # noqa: F401 (a query's schema, named in api.yaml)
)

SOURCE = Path(__file__).with_name("api.yaml")
PREFIXES = events.PREFIXES  # game → the prefix of its schemas' names
REQUESTS: dict[str, type[Schema]] = {  # component name → the schema that reads that body
    "Budget": BudgetSchema, "BotSeat": BotSeatSchema, "ReservedSeat": ReservedSeatSchema, "TurnDeadline": TurnDeadlineSchema,
    "ForkGame": ForkSchema, "JoinGame": JoinSchema, "RegisterPlayer": RegisterSchema, "NewWebhook": WebhookSchema,
    "Vacation": VacationSchema, "TimeZone": TimeZoneSchema, "GameStreamTicket": GameTicketSchema, "InboxStreamTicket": InboxTicketSchema,
    "TokenName": TokenNameSchema, "SignInLinkRequest": SignInLinkSchema, "SignIn": SignInSchema,
    "MailAddress": MailAddressSchema, "MailConfirmation": MailConfirmationSchema, "MailChoices": MailChoicesSchema,
    "NewChatMessage": ChatMessageSchema, "Notes": NotesSchema, "NewReport": ReportSchema,
    "ReportDecision": DecisionSchema, "Mute": MuteSchema, "CreateTournament": CreateTournamentSchema,
    "NewEntrant": NewEntrantSchema}
UNIONS = {  # component name → (its description, the field that tells its bodies apart, its bodies by that field's value)
    "StreamTicketRequest": (StreamTicketSchema, "stream", {"game": "GameStreamTicket", "inbox": "InboxStreamTicket"})}


class _Converter(OpenAPIConverter):
    """apispec's converter, adding what a schema's own rules across its fields state (its `CONTRACT`)."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        converted: dict[str, Any] = super().schema2jsonschema(schema)  # type: ignore[no-untyped-call]  # apispec leaves it unannotated
        return converted | getattr(schema, "CONTRACT", {})


class _Plugin(MarshmallowPlugin):
    Converter = _Converter


def build() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document, as a dict, built from the games and schemas as they are now."""
    source = yaml.safe_load(SOURCE.read_text())
    plugin = _Plugin()
    spec = APISpec(source["info"]["title"], source["info"]["version"], "3.1.0", plugins=[plugin])
    for name, schema in REQUESTS.items():
        spec.components.schema(name, component=_described(schema), schema=schema)
    for path, item in copy.deepcopy(source["paths"]).items():
        for operation in [item, *(value for key, value in item.items() if key != "parameters")]:
            operation["parameters"] = [_named(parameter) for parameter in operation.get("parameters", [])]
        spec.path(path=path, parameters=item.pop("parameters"), operations=item)
    built = spec.to_dict()
    if plugin.converter is None:
        raise RuntimeError("apispec gave the marshmallow plugin no converter")
    requests = built["components"]["schemas"] | create_game(plugin.converter) | commands(plugin.converter)
    requests |= {name: union(_described(schema)["description"], field, variants)
                 for name, (schema, field, variants) in UNIONS.items()}
    schemas = {**source["components"]["schemas"], **{name: _defaults_told(schema) for name, schema in requests.items()}}
    schemas["Problem"]["properties"]["code"] |= problem_codes()
    schemas |= events.components()
    return {**source, "paths": built["paths"], "components": {**source["components"], "schemas": schemas}}


def _defaults_told(schema: dict[str, Any]) -> dict[str, Any]:
    """A request body's schema with each property's default told in its description instead of as `default`."""
    # openapi-typescript makes a property with a default required of the client (`defaultNonNullable`)
    properties = {}
    for name, field in schema.get("properties", {}).items():
        default = field.get("default")
        field = {key: value for key, value in field.items() if key != "default"}
        if default is not None:  # a null default is what leaving it out says anyway
            told = f"Left out: {json.dumps(default)}."
            field["description"] = f"{field['description'].rstrip('.')}. {told}" if "description" in field else told
        properties[name] = field
    return {**schema, "properties": properties} if properties else schema


def _described(schema: type[Schema]) -> dict[str, Any]:
    """A request schema's docstring as its description, if it has one."""
    return {"description": " ".join(inspect.cleandoc(schema.__doc__).split())} if schema.__doc__ else {}


def _named(parameter: dict[str, Any]) -> dict[str, Any] | str:
    """A parameter as apispec takes it: a reference to a component by the component's name."""
    return parameter["$ref"].removeprefix("#/components/parameters/") if "$ref" in parameter else parameter


document = cache(build)  # the document this server serves, built once


def problem_codes() -> dict[str, Any]:
    """The schema of a problem's `code`: one of the codes the server sends, each explained."""
    lines = "\n".join(f"- `{code}`: {meaning}" for code, meaning in CODES.items())
    return {"type": "string", "enum": list(CODES), "description": f"Stable; one of:\n\n{lines}\n"}


def create_game(converter: OpenAPIConverter) -> dict[str, Any]:
    """`CreateGame`: one body per game, told apart by `game`, each with its seat range and options."""
    settings = converter.schema2jsonschema(CreateGameSchema)
    schemas: dict[str, Any] = {}
    for name, game in GAMES.items():
        prefix = PREFIXES[name]
        body = copy.deepcopy(settings)
        body["properties"] |= {
            "game": {"type": "string", "enum": [name]},
            "seats": {"type": "integer", "minimum": game.min_seats, "maximum": game.max_seats},
            "options": {"$ref": f"#/components/schemas/{prefix}Options"}}
        body["allOf"] = settings_contract(name, bot={"$ref": "#/components/schemas/BotSeat"})
        schemas[f"Create{prefix}Game"] = {"description": f"A game of {game.title}.", **body}
        schemas[f"{prefix}Options"] = options(game.title, game.options_type)
    schemas["CreateGame"] = union("A new game: its rules' options and who plays it.", "game",
                                  {name: f"Create{PREFIXES[name]}Game" for name in GAMES})
    return schemas


def options(title: str, options_type: type) -> dict[str, Any]:
    """The options of a game, each with its values and default; absent ones take their defaults."""
    properties: dict[str, Any] = {}
    for option in describe_options(options_type):
        kind: dict[str, dict[str, Any]] = {"choice": {"type": "string", "enum": option.get("values")}, "boolean": {"type": "boolean"},
                "integer": {"type": "integer", "minimum": option.get("minimum"), "maximum": option.get("maximum")}}
        schema = {key: value for key, value in kind[option["kind"]].items() if value is not None}
        properties[option["name"]] = {"description": option["description"], **schema, "default": option["default"]}
    return {"description": f"The options of {title}; an option left out takes its default.", "type": "object",
            "additionalProperties": False, "properties": properties}


def commands(converter: OpenAPIConverter) -> dict[str, Any]:
    """One schema per command of each game, and `Command`, their union told apart by `type` (`<game>.<command>`)."""
    expected = converter.schema2jsonschema(ExpectedVersionSchema)["properties"]
    schemas: dict[str, Any] = {}
    every: dict[str, str] = {}
    for game, module in GAME_SCHEMAS.items():
        for kind, (command, fields) in module.COMMAND_BODIES.items():
            name = PREFIXES[game] + "".join(word.title() for word in kind.split("_"))
            body = converter.schema2jsonschema(fields)
            qualified = f"{game}.{kind}"
            shape = {"type": "object", "additionalProperties": False, "required": ["type", *body.get("required", [])],
                     "properties": {"type": {"type": "string", "enum": [qualified]}, **body["properties"], **expected}}
            schemas[name] = {
                "description": inspect.cleandoc(command.__doc__ or "").split("\n\n")[0].replace("\n", " "),
                **_exactly_one(shape, getattr(fields, "EXACTLY_ONE", ()))}
            every[qualified] = name
    schemas["Command"] = union("A command of any game; its `type` names its game and itself.", "type", every)
    return schemas


def _exactly_one(shape: dict[str, Any], alone: tuple[str, ...]) -> dict[str, Any]:
    """`shape`, held to exactly one of the fields `alone` if any: not two of them, and not none."""
    if not alone:
        return shape
    # said with `not`, which generated clients leave aside rather than split the type
    two = [{"properties": {name: {} for name in pair}, "required": list(pair)} for pair in itertools.combinations(alone, 2)]
    return {**shape, "not": {"anyOf": [*two, {"properties": {name: {"not": {}} for name in alone}}]}}  # {"not": {}}: absent


def union(description: str, discriminator: str, variants: dict[str, str]) -> dict[str, Any]:
    """A `oneOf` of named schemas that a client tells apart by the value of `discriminator`."""
    refs = {value: f"#/components/schemas/{name}" for value, name in variants.items()}
    return {"description": description, "oneOf": [{"$ref": ref} for ref in dict.fromkeys(refs.values())],
            "discriminator": {"propertyName": discriminator, "mapping": refs}}


class _Dumper(yaml.SafeDumper):
    """YAML writing a value used twice out twice rather than as an alias, and text of several lines as a block."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if "\n" in text else None)


_Dumper.add_representer(str, _text)


@cache
def as_yaml() -> str:
    """The document as `openapi.yaml` holds it."""
    head = "# Built from the code by `meeple openapi` (service/contract): change it there, not here.\n"
    body: str = yaml.dump(document(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)
    return head + body


@cache
def as_json() -> bytes:
    return json.dumps(document()).encode()
