"""The fork of Werkzeug's URL matcher routes every path as Werkzeug's own does, and leaves
nothing for the garbage collector."""

from __future__ import annotations

import gc
from typing import Any

import fakeredis
import pytest
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter, Map, MapAdapter, RequestRedirect, Rule, ValidationError
from werkzeug.routing.matcher import StateMachineMatcher

from service.app import create_app
from service.routing_without_cycles import Matcher
from service.web import STATIC
from tests.service.conftest import unlimited

GAME = "g_0123456789abcdef"
SAMPLES = {"<game:game_id>": GAME, "<game_id>": GAME, "<int:version>": "7", "<path:filename>": "app/table.js",
           "<name>": "taki", "<webhook_id>": "w_1", "<player_id>": "p_1"}
METHODS = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD"]


def _paths(url_map: Map) -> list[str]:
    """Each rule's path with sample values, each file of the web client, and beside them what a
    client may get wrong: a trailing slash, doubled slashes, a value its converter refuses, a part too many."""
    paths = {"", "//", "/nothing", "/v1/games/not-an-id/commands", f"/v1/games/{GAME}/states/x"}
    paths |= {f"/web/{file.relative_to(STATIC).as_posix()}" for file in STATIC.rglob("*") if file.is_file()}
    for rule in url_map.iter_rules():
        path = rule.rule
        for placeholder, sample in SAMPLES.items():
            path = path.replace(placeholder, sample)
        paths |= {path, path + "/", path.replace("/", "//"), path + "/more"}
    return sorted(paths)


def _features() -> Map:
    """A map with what the API's does not use: slashes not strict nor merged, defaults and
    aliases, a converter that reaches past a slash, a converter that refuses a value."""
    return Map([
        Rule("/a/", endpoint="a"), Rule("/b", endpoint="b", strict_slashes=False),
        Rule("/c//d", endpoint="c", merge_slashes=False), Rule("/page/", endpoint="page", defaults={"n": 1}),
        Rule("/page/<int:n>", endpoint="page"), Rule("/old", endpoint="b", alias=True),
        Rule("/files/<path:name>/raw", endpoint="raw"), Rule("/x<int:n>y", endpoint="xy"),
        Rule("/ws", endpoint="ws", websocket=True), Rule("/ws", endpoint="http", methods=["GET"]),
        Rule("/dir/<path:name>/", endpoint="dir"), Rule("/e/f", endpoint="e", merge_slashes=False),
        Rule("/even/<even:n>", endpoint="even"),
    ], redirect_defaults=True, converters={"even": _Even})


class _Even(BaseConverter):
    """Digits, of an even number only."""

    regex = r"\d+"

    def to_python(self, value: str) -> int:
        if int(value) % 2:
            raise ValidationError()
        return int(value)


@pytest.fixture(scope="module")
def url_map() -> Map:
    return create_app(unlimited(), client=fakeredis.FakeRedis()).url_map


def _outcome(adapter: MapAdapter, path: str, method: str, websocket: bool) -> Any:
    try:
        rule, values = adapter.match(path, method, return_rule=True, websocket=websocket)
        return rule.rule, rule.endpoint, values
    except RequestRedirect as redirect:
        return "redirect", redirect.new_url
    except HTTPException as error:
        return error.code, sorted(getattr(error, "valid_methods", None) or [])


def _outcomes(url_map: Map, matcher: StateMachineMatcher, paths: list[str]) -> dict[tuple[str, str, bool], Any]:
    """What each method on each path gets from `url_map` when `matcher` matches it."""
    for rule in url_map.iter_rules():
        matcher.add(rule)
    matcher.update()
    ours, url_map._matcher = url_map._matcher, matcher
    try:
        adapter = url_map.bind("meeple.test")
        return {(path, method, websocket): _outcome(adapter, path, method, websocket)
                for path in paths for method in METHODS for websocket in (False, True)}
    finally:
        url_map._matcher = ours


def test_the_api_is_matched_by_the_matcher_without_cycles(url_map: Map) -> None:
    assert type(url_map._matcher) is Matcher


@pytest.mark.parametrize("which", ["the API's", "every feature"])
def test_every_path_and_method_is_matched_as_werkzeug_matches_it(url_map: Map, which: str) -> None:
    if which == "every feature":
        url_map = _features()
        paths = ["/a", "/a/", "/b", "/b/", "/c//d", "/c/d", "/page", "/page/", "/page/2", "/page/x", "/old",
                 "/files/a/b/raw", "/files/raw", "/x5y", "/xay", "/ws", "/ws/", "//a//", "/nothing", "/dir/a/b",
                 "/dir/a/b/", "/e/f", "/e//f", "/even/2", "/even/3"]
    else:
        paths = _paths(url_map)
    expected = _outcomes(url_map, StateMachineMatcher(url_map.merge_slashes), paths)
    assert _outcomes(url_map, Matcher(url_map.merge_slashes), paths) == expected
    assert {outcome[0] for outcome in expected.values()} >= {"redirect", 404, 405}


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
