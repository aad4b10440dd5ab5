"""A thousand random mutations of genuine exports of each game: each is refused with a 4xx, or
imports to a game whose every read answers 2xx (issue 28). Spread over chunks, so that
`pytest -n auto` shares them among the cores."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from service.app import create_app
from tests.logs import GENUINE, entries, genuine_export, joined
from tests.service.conftest import unlimited

MUTATIONS = 1000  # per game
CHUNKS = 10
ODD = [None, -1, 0, 1.5, True, "?", "", [], {}, ["?"], [[0]], 10**9, "c1", "AS", "red.5.1", "E5"]


@functools.cache
def exports(name: str) -> tuple[tuple[str, tuple[dict[str, Any], ...]], ...]:
    return tuple((header, tuple(events)) for header, events in
                 (entries(genuine_export(name, seats, seed, options)) for seats, seed, options in GENUINE[name]))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        found += [p for key, item in value.items() for p in _paths(item, (*path, key))]
    elif isinstance(value, list):
        found += [p for index, item in enumerate(value) for p in _paths(item, (*path, index))]
    return found


def _changed(old: Any, pick: random.Random, strings: list[str]) -> Any:
    """Another value of the same kind (a number off by a little, another string of the log, a
    list shuffled or cut), or one of another kind."""
    if pick.random() < 0.3:
        return pick.choice(ODD)
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return pick.choice([old + 1, old - 1, -old - 1, old * 2 + 7])
    if isinstance(old, str):
        return pick.choice([pick.choice(strings), old + "x", old[:-1]])
    if isinstance(old, list) and old:
        changed = list(old)
        if pick.random() < 0.5:
            pick.shuffle(changed)
        else:
            changed.pop(pick.randrange(len(changed)))
        return changed
    return pick.choice(ODD)


def mutated(events: list[dict[str, Any]], pick: random.Random) -> list[dict[str, Any]]:
    """`events` with one random mutation: a value changed, two events swapped, one dropped or
    duplicated, or an event's type or version changed."""
    events = copy.deepcopy(events)
    kind = pick.choice(["value", "value", "value", "value", "swap", "drop", "duplicate", "envelope"])
    if kind == "value":
        event = pick.choice(events)
        strings = [text for e in events[:50] for text in json.dumps(e["payload"]).split('"')[1::2]]
        *parent, last = pick.choice(_paths(event["payload"])[1:] or [("payload",)])
        holder = functools.reduce(lambda value, key: value[key], parent, event["payload"]) if last != "payload" else event
        holder[last] = _changed(holder[last], pick, strings)
    elif kind == "swap":
        first = pick.randrange(len(events))
        second = min(len(events) - 1, first + pick.choice([1, 1, 2, 3, 10]))
        for field in ("type", "payload"):
            events[first][field], events[second][field] = events[second][field], events[first][field]
    elif kind in ("drop", "duplicate"):
        at = pick.randrange(len(events))
        if kind == "drop":
            del events[at]
        else:
            events.insert(at, copy.deepcopy(events[at]))
        for version, event in enumerate(events, start=1):
            event["version"] = version
    else:
        event = pick.choice(events)
        field = pick.choice(["type", "schema_version", "version"])
        event[field] = pick.choice([pick.choice(events)["type"], 2, 0, None, event[field]])
    return events


def reads(client: FlaskClient, game_id: str, pick: random.Random) -> None:
    """Every kind of read of the game answers 2xx: the game, its log page by page, the export,
    and past states (the first, the last and a sample between, each fold from its snapshot)."""
    game = client.get(f"/v1/games/{game_id}")
    assert game.status_code == 200, game.json
    version = game.json["version"]
    for at in {0, 1, version, version - 1, *pick.sample(range(version + 1), min(version + 1, 8))}:
        answer = client.get(f"/v1/games/{game_id}/states/{at}")
        assert answer.status_code == 200, (at, answer.json)
    after = 0
    while after is not None:
        page = client.get(f"/v1/games/{game_id}/events?after={after}&limit=200")
        assert page.status_code == 200, page.json
        after = page.json["next"]
    assert client.get(f"/v1/games/{game_id}/export").status_code == 200
    assert client.get(f"/v1/games/{game_id}/legal-commands").status_code == 401  # no seat holds a token


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_mutated_export_is_refused_or_imports_to_a_game_every_read_of_which_answers(name: str, chunk: int) -> None:
    client = create_app(unlimited(), client=fakeredis.FakeRedis()).test_client()
    pick = random.Random(f"{name}:{chunk}")
    outcomes: dict[int, int] = {}
    for _ in range(MUTATIONS // CHUNKS):
        header, events = pick.choice(exports(name))
        body = joined(header, mutated(list(events), pick))
        answer = client.post("/v1/games/import", data=body, headers={"Content-Type": "application/x-ndjson"})
        assert answer.status_code == 201 or 400 <= answer.status_code < 500, answer.json
        outcomes[answer.status_code] = outcomes.get(answer.status_code, 0) + 1
        if answer.status_code == 201:
            reads(client, answer.json["id"], pick)
    assert outcomes.get(422, 0) > 0  # the mutations do reach the checks
