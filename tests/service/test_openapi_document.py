"""openapi.yaml is the document built from the code, valid OpenAPI 3.1, served as it is, and
describes exactly the routes the app serves."""

from __future__ import annotations

import re
from http import HTTPStatus
from pathlib import Path

import fakeredis
import yaml
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from service.app import create_app
from service.contract import spec
from service.problems import CODES, http_code
from tests.service.conftest import unlimited

FILE = Path(__file__).parents[2] / "openapi.yaml"
SPEC = yaml.safe_load(FILE.read_text())


def test_openapi_yaml_is_the_document_built_from_the_code() -> None:
    assert FILE.read_text() == spec.as_yaml(), "openapi.yaml is stale: write it anew with `meeple openapi > openapi.yaml`"


def test_the_document_is_served_as_json_and_yaml_with_docs_to_browse() -> None:
    client = create_app(unlimited(), client=fakeredis.FakeRedis()).test_client()
    assert client.get("/openapi.json").get_json() == SPEC
    assert yaml.safe_load(client.get("/openapi.yaml").data) == SPEC
    page = client.get("/docs")
    assert page.status_code == 200 and "default-src 'self'" in page.headers["Content-Security-Policy"]
    for script in ("/docs/swagger-ui-bundle.js", "/docs/start.js", "/docs/swagger-ui.css"):
        assert script in page.text and client.get(script).status_code == 200
    assert client.get("/docs/../../app.py").status_code == 404
    assert client.get("/docs/swagger-editor.js").get_json()["code"] == "not_found"


def test_every_problem_code_the_server_names_is_listed_and_the_spec_lists_them() -> None:
    assert SPEC["components"]["schemas"]["Problem"]["properties"]["code"]["enum"] == list(CODES)
    calls = re.compile(r'(?:ApiError|problem|problem_body)\(\d+, "(\w+)"')  # ApiError(404, "game_not_found", ...
    chosen = re.compile(r'\bcode(?:, detail)? = "(\w+)"(?: if .* else "(\w+)")?')  # code = "a" if ... else "b"
    refusals = re.compile(r'\b(?:Forbidden|Invalid|NotFound|NotReached|NotNow|TooLong|Unavailable|Unreadable)\("(\w+)"')  # application.errors
    named: set[str] = set()
    root = Path(__file__).parents[2]
    for source in [*(root / "service").rglob("*.py"), *(root / "application").rglob("*.py")]:
        text = source.read_text()
        named |= set(calls.findall(text)) | {code for found in chosen.findall(text) for code in found if code}
        named |= set(refusals.findall(text))
    assert {"game_not_found", "not_your_turn", "illegal_move", "internal_error"} <= named <= set(CODES), named - set(CODES)
    assert {http_code(status) for status in HTTPStatus if status >= 400} <= set(CODES)


def test_an_error_the_api_does_not_name_still_answers_problem_json() -> None:
    client = create_app(unlimited(), client=fakeredis.FakeRedis()).test_client()
    answer = client.get("/docs/start.js", headers={"Range": "bytes=99999999-"})
    assert answer.status_code == 416 and answer.get_json()["code"] == "requested_range_not_satisfiable"
    assert http_code(418) == "bad_request" and http_code(507) == "internal_error"


def test_commands_of_each_game_are_told_apart_by_their_type() -> None:
    union = SPEC["components"]["schemas"]["Command"]
    mapping = union["discriminator"]["mapping"]
    assert {ref["$ref"] for ref in union["oneOf"]} == set(mapping.values())
    for kind, ref in mapping.items():
        assert SPEC["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]["type"] == {"type": "string", "enum": [kind]}
    assert {"taki.play", "djambi.play", "bahama_taxi.move"} <= set(mapping)


def test_the_spec_is_valid_openapi_3_1() -> None:
    assert SPEC["openapi"].startswith("3.1")
    validate(SPEC, cls=OpenAPIV31SpecValidator)


def test_every_route_is_in_the_spec_and_every_spec_path_is_served() -> None:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.startswith("web."):  # the web client's pages are no API
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            served.add((path, method.lower()))
    documented = {(path, method) for path, item in SPEC["paths"].items() for method in item if method != "parameters"}
    assert served == documented
