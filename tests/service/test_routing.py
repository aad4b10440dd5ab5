"""The API's URL matcher matches as Werkzeug's does, and leaves nothing for the garbage collector."""

from __future__ import annotations

import gc
from typing import Any

import fakeredis
import pytest
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, RequestRedirect
from werkzeug.routing.matcher import StateMachineMatcher

from service.app import create_app
from service.routing import Matcher
from tests.service.conftest import unlimited

GAME = "g_0123456789abcdef"
PATHS = [
    "/v1/health", "/v1/health/", "/v1//health", "/v1/games", "/v1/games/", f"/v1/games/{GAME}",
    f"/v1/games/{GAME}/", f"/v1/games/{GAME}/commands", f"/v1/games/{GAME}/legal-commands",
    f"/v1/games/{GAME}/events", f"/v1/games/{GAME}/join", "/v1/games/not-an-id/commands", "/v1/games/x/y/z",
    "/", "/play", "/play/", "/openapi.yaml", "/docs", "/metrics", "/nothing", "", "//", "/v1/players",
]
METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD"]


@pytest.fixture(scope="module")
def url_map() -> Map:
    return create_app(unlimited(), client=fakeredis.FakeRedis()).url_map


def _outcome(adapter: MapAdapter, path: str, method: str) -> Any:
    try:
        rule, values = adapter.match(path, method, return_rule=True)
        return rule.rule, rule.endpoint, values
    except RequestRedirect as redirect:
        return "redirect", redirect.new_url
    except HTTPException as error:
        return error.code, sorted(getattr(error, "valid_methods", None) or [])


def _outcomes(url_map: Map, matcher: StateMachineMatcher) -> dict[tuple[str, str], Any]:
    """What each method on each path gets from the API's map when `matcher` matches it."""
    for rule in url_map.iter_rules():
        matcher.add(rule)
    matcher.update()
    ours, url_map._matcher = url_map._matcher, matcher
    try:
        adapter = url_map.bind("meeple.test")
        return {(path, method): _outcome(adapter, path, method) for path in PATHS for method in METHODS}
    finally:
        url_map._matcher = ours


def test_the_api_is_matched_by_the_matcher_without_cycles(url_map: Map) -> None:
    assert type(url_map._matcher) is Matcher


def test_every_path_and_method_is_matched_as_werkzeug_matches_it(url_map: Map) -> None:
    expected = _outcomes(url_map, StateMachineMatcher(url_map.merge_slashes))
    assert _outcomes(url_map, Matcher(url_map.merge_slashes)) == expected
    assert {outcome[0] for outcome in expected.values()} >= {"/v1/health", "redirect", 404, 405}


def test_a_match_leaves_no_garbage_for_the_collector(url_map: Map) -> None:
    adapter = url_map.bind("meeple.test")
    gc.collect()
    gc.disable()
    try:
        for _ in range(100):
            adapter.match(f"/v1/games/{GAME}/commands", "POST")
            adapter.match("/v1/health", "GET")
        assert gc.collect() == 0
    finally:
        gc.enable()
