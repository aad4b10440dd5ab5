"""openapi.yaml is valid OpenAPI 3.1 and describes exactly the routes the app serves."""

from __future__ import annotations

import re
from pathlib import Path

import fakeredis
import yaml
from openapi_spec_validator import OpenAPIV31SpecValidator, validate

from service.app import create_app
from tests.service.conftest import unlimited

SPEC = yaml.safe_load((Path(__file__).parents[2] / "openapi.yaml").read_text())


def test_the_spec_is_valid_openapi_3_1() -> None:
    assert SPEC["openapi"].startswith("3.1")
    validate(SPEC, cls=OpenAPIV31SpecValidator)


def test_every_route_is_in_the_spec_and_every_spec_path_is_served() -> None:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            served.add((path, method.lower()))
    documented = {(path, method) for path, item in SPEC["paths"].items() for method in item if method != "parameters"}
    assert served == documented
