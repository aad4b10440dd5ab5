"""The contract states what the server enforces: a body the server refuses for its shape alone
(422), the spec refuses too, and a body of the same kind that the spec allows, the server takes.
The fuzzing (tests/integration/test_fuzzing.py) checks the same over generated requests."""

from __future__ import annotations

import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from service.contract import spec
from tests.contract import ContractClient

DOCUMENT = spec.build()
REGISTRY = Registry().with_resource("urn:meeple", Resource.from_contents(DOCUMENT, default_specification=DRAFT202012))


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    """`pattern` as ECMA-262 (the contract's dialect) reads it: a final `$` is the end of the text,
    not also the place before a final newline, as Python's `re` has it."""
    if validator.is_type(instance, "string") and re.search(re.sub(r"\$$", r"\\Z", pattern), instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Contract = validators.extend(Draft202012Validator, {"pattern": _ecma_pattern})


def allows(component: str, body: Any) -> bool:
    """Whether the spec's schema `component` takes `body`."""
    return bool(Contract({"$ref": f"urn:meeple#/components/schemas/{component}"}, registry=REGISTRY).is_valid(body))


NAMES = [("a\u0007b", False), ("\u008b", False), ("   ", False), ("ann\n", False), ("\u202eevil", False),
         ("Zoë 👨\u200d👩\u200d👧", True), ("\u00a0Bo", True), ("x" * 64, True)]


@pytest.mark.parametrize(("name", "valid"), NAMES)
def test_a_name_with_control_characters_is_refused_by_the_spec_as_by_the_server(
        api: ContractClient, name: str, valid: bool) -> None:
    assert allows("RegisterPlayer", {"name": name}) is valid
    assert api.post("/v1/players", json={"name": name}).status_code == (201 if valid else 422)


@pytest.mark.parametrize(("budget", "valid"), [({}, False), ({"iterations": None}, False), ({"seconds": None}, False),
                                               ({"iterations": 50}, True), ({"seconds": 0.5, "iterations": None}, True)])
def test_a_budget_without_iterations_or_seconds_is_refused_by_the_spec_as_by_the_server(
        api: ContractClient, budget: dict[str, Any], valid: bool) -> None:
    body = {"game": "taki", "seats": 2, "bots": [{"seat": 1, "level": "search", "budget": budget}]}
    assert allows("Budget", budget) is valid and allows("CreateGame", body) is valid
    assert api.post("/v1/games", json=body).status_code == (201 if valid else 422)


SEATINGS = [
    ({"bots": [{"seat": 1, "level": "greedy"}, {"seat": 1, "level": "random"}]}, False),  # two bots on a seat
    ({"bots": [{"seat": 2, "level": "greedy"}]}, False),  # a seat the game does not have
    ({"bots": [{"seat": 0, "level": "grandmaster"}]}, False),  # a level the game does not have
    ({"bots": [{"seat": 0, "level": "greedy", "budget": {"iterations": 9}}]}, False),  # a budget for a level that does not search
    ({"turn_deadline": {"seconds": 60, "policy": "auto"}}, False),  # `auto` with no level
    ({"turn_deadline": {"seconds": 60, "policy": "skip", "level": "greedy"}}, False),  # a level for `skip`
    ({"bots": [{"seat": 0, "level": "greedy"}, {"seat": 1.0, "level": "search", "budget": {"seconds": 1}}]}, True),
    ({"turn_deadline": {"seconds": 60, "policy": "auto", "level": "search", "budget": {"iterations": 10}}}, True),
]


@pytest.mark.parametrize(("settings", "valid"), SEATINGS)
def test_bots_and_deadlines_that_do_not_fit_the_game_are_refused_by_the_spec_as_by_the_server(
        api: ContractClient, settings: dict[str, Any], valid: bool) -> None:
    body = {"game": "taki", "seats": 2.0, **settings}  # 2.0 is an integer in JSON Schema, and to the server
    assert allows("CreateGame", body) is valid
    assert api.post("/v1/games", json=body).status_code == (201 if valid else 422)


TICKETS = [({"stream": "inbox", "game_id": "g" * 16}, False), ({"stream": "game"}, False),
           ({"stream": "game", "game_id": None}, False), ({"stream": "inbox", "game_id": None}, True),
           ({"stream": "inbox"}, True), ({"stream": "game", "game_id": "g" * 16}, True)]


@pytest.mark.parametrize(("body", "valid"), TICKETS)
def test_a_stream_ticket_names_a_game_for_a_game_and_none_for_the_inbox(body: dict[str, Any], valid: bool) -> None:
    assert allows("StreamTicketRequest", body) is valid
    union = DOCUMENT["components"]["schemas"]["StreamTicketRequest"]
    assert union["discriminator"]["propertyName"] == "stream"  # the body's shape depends on `stream`


def test_a_stream_takes_a_token_or_a_ticket_as_its_security_says_never_both() -> None:
    for path in ("/v1/games/{game_id}/stream", "/v1/players/me/inbox/stream"):
        security = DOCUMENT["paths"][path]["get"]["security"]
        assert {"streamTicket": []} in security
        assert all(len(requirement) <= 1 for requirement in security)  # one alternative each: a token or a ticket
        assert not any(parameter.get("name") == "ticket" for parameter in DOCUMENT["paths"][path]["get"].get("parameters", []))


@pytest.mark.parametrize(("cards", "valid"), [({}, False), ({"card": "red.5.1", "cards": ["red.5.1"]}, False),
                                              ({"card": "red.5.1"}, True), ({"cards": ["red.5.1", "red.6.1"]}, True)])
def test_a_taki_play_names_a_card_or_a_batch_never_both_nor_neither(
        api: ContractClient, cards: dict[str, Any], valid: bool) -> None:
    body = {"type": "taki.play", **cards}
    assert allows("TakiPlay", body) is valid
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    token = [api.post(f"/v1/games/{game_id}/join", json={"name": name}).json["token"] for name in ("ann", "bo")][0]
    checked = api.post(f"/v1/games/{game_id}/command-checks", json=body, headers={"Authorization": f"Bearer {token}"})
    assert (checked.status_code != 422) is valid  # a valid play is judged by the rules: 200, or 409 for a card not held
