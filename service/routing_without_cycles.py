"""Werkzeug's URL matcher, forked to leave no reference cycle behind a match."""

# Werkzeug's `StateMachineMatcher.match` walks its states with a nested function that calls itself
# through its own closure: each request leaves a reference cycle that only the garbage collector
# frees, and those cycles were most of what the collector found in an API process (each collection
# pausing every request the process serves). `Matcher` is the same walk, from Werkzeug 3.1's
# `werkzeug/routing/matcher.py` (BSD-3-Clause, the Pallets Projects), with the recursion a method
# and the walk's findings in an object: nothing it makes outlives the match but the answer.
# Werkzeug's own `Map` is the reference: tests/service/test_routing_without_cycles.py holds the two equal.

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from werkzeug.routing import Map, Rule
from werkzeug.routing.converters import ValidationError
from werkzeug.routing.exceptions import NoMatch, RequestAliasRedirect, RequestPath
from werkzeug.routing.matcher import SlashRequired, State, StateMachineMatcher
from werkzeug.routing.rules import RulePart

Found = tuple[Rule, list[str]] | None  # the rule a walk reached and the dynamic values on its way, or none


class _Walk:
    """One match: what it asks and what it found on the way (methods that would have matched,
    a rule that differs only in being a websocket's)."""

    def __init__(self, method: str, websocket: bool) -> None:
        self.method, self.websocket = method, websocket
        self.allowed: set[str] = set()
        self.websocket_mismatch = False

    def accepts(self, rule: Rule) -> bool:
        if rule.methods is not None and self.method not in rule.methods:
            self.allowed.update(rule.methods)
        elif rule.websocket != self.websocket:
            self.websocket_mismatch = True
        else:
            return True
        return False

    def follow(self, state: State, parts: list[str], values: list[str]) -> Found:
        """The rule and dynamic values reached from `state` by `parts`, if any."""
        if not parts:
            return self._ending(state, values)
        if parts[0] in state.static:
            found = self.follow(state.static[parts[0]], parts[1:], values)
            if found is not None:
                return found
        for test_part, next_state in state.dynamic:
            found = self._through(test_part, next_state, parts, values)
            if found is not None:
                return found
        # only a trailing slash left: rules that are not strict about it match
        if parts == [""]:
            for rule in state.rules:
                if not rule.strict_slashes and self.accepts(rule):
                    return rule, values
        return None

    def _ending(self, state: State, values: list[str]) -> Found:
        """A rule of `state`, where the path ends, or of its trailing slash's state."""
        for rule in state.rules:
            if self.accepts(rule):
                return rule, values
        # a match with a trailing slash added: a redirect if the rule is strict about it
        if "" in state.static:
            for rule in state.static[""].rules:
                if self.websocket == rule.websocket and (rule.methods is None or self.method in rule.methods):
                    if rule.strict_slashes:
                        raise SlashRequired()
                    return rule, values
        return None

    def _through(self, test_part: RulePart, next_state: State, parts: list[str], values: list[str]) -> Found:
        """The rule reached through a dynamic transition `test_part` matching the next part, if any."""
        target, remaining = parts[0], parts[1:]
        if test_part.final:  # a transition that takes all the remaining parts
            target, remaining = "/".join(parts), []
        match = re.compile(test_part.content).match(target)
        if match is None:
            return None
        if test_part.suffixed and match.groups()[-1] == "/":
            remaining = [""]
        groups = sorted((item for item in match.groupdict().items() if item[0].startswith("__werkzeug_")),
                        key=lambda item: int(item[0][11:]))
        return self.follow(next_state, remaining, values + [value for _, value in groups])


class Matcher(StateMachineMatcher):
    """Werkzeug's matcher, matching as it does, without a reference cycle per match."""

    def match(self, domain: str, path: str, method: str, websocket: bool) -> tuple[Rule, MutableMapping[str, Any]]:
        walk = _Walk(method, websocket)
        try:
            found = walk.follow(self._root, [domain, *path.split("/")], [])
        except SlashRequired:
            raise RequestPath(f"{path}/") from None
        if self.merge_slashes and found is None:
            path = re.sub("/{2,}", "/", path)
            try:
                found = walk.follow(self._root, [domain, *path.split("/")], [])
            except SlashRequired:
                raise RequestPath(f"{path}/") from None
            if found is None or found[0].merge_slashes is False:
                raise NoMatch(walk.allowed, walk.websocket_mismatch)
            raise RequestPath(f"{path}")
        if found is None:
            raise NoMatch(walk.allowed, walk.websocket_mismatch)
        rule, values = found
        result: dict[str, Any] = {}
        for name, value in zip(rule._converters.keys(), values):
            try:
                result[str(name)] = rule._converters[name].to_python(value)
            except ValidationError as error:
                raise NoMatch(walk.allowed, walk.websocket_mismatch) from error
        if rule.defaults:
            result.update(rule.defaults)
        if rule.alias and rule.map.redirect_defaults:
            raise RequestAliasRedirect(result, rule.endpoint)
        return rule, result


class RoutingMap(Map):
    """Werkzeug's map of URLs, matched by `Matcher`."""

    def __init__(self, rules: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(None, *args, **kwargs)
        self._matcher = Matcher(self.merge_slashes)
        for rule in rules or ():
            self.add(rule)
