"""Events are forever: a log holding an event stored at an earlier schema version replays,
verifies, imports and exports on a server whose codec upcasts it. Djambi's `game_started` is
given, for these tests only, a version 2 whose version 1 named its `players` `colours`."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from cli import main as cli
from domain import GAMES
from domain.core.codec import to_primitive
from domain.djambi import DJAMBI
from events.envelope import Envelope
from events.errors import LogInvalid
from events.log_file import read_log
from service.app import create_app
from service.contract import spec
from service.schemas import responses
from tests.contract import ContractClient, contract
from tests.service.conftest import unlimited
from tests.service.test_export import play_to_end
from tests.service.test_games_api import seat_all


def players_were_colours(payload: dict[str, Any]) -> dict[str, Any]:
    payload["players"] = payload.pop("colours")
    return payload


DJAMBI_V2 = dataclasses.replace(DJAMBI, events=dataclasses.replace(
    DJAMBI.events, schema_versions={**DJAMBI.events.schema_versions, "game_started": 2},
    upcasters={**DJAMBI.events.upcasters, "game_started": {1: players_were_colours}}))


@pytest.fixture(autouse=True)
def djambi_v2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "djambi", DJAMBI_V2)


@pytest.fixture
def api(djambi_v2: None) -> ContractClient:
    """A server whose answers are checked against the document it would serve, `game_started` at version 2."""
    return ContractClient(create_app(unlimited(), client=fakeredis.FakeRedis()).test_client(), contract(spec.build()))


def as_stored_at_v1(line: str) -> str:
    """An event line as a server of version 1 of `game_started` wrote it."""
    entry = json.loads(line)
    if entry["type"] == "game_started":
        assert entry["schema_version"] == 2
        entry["schema_version"], entry["payload"] = 1, {"colours": entry["payload"]["players"], "hostage": entry["payload"]["hostage"]}
    return json.dumps(entry)


def exported_at_both_versions(api: ContractClient) -> tuple[str, list[str], list[str]]:
    """A finished Djambi game: its id, its export (every event current), and that export with
    `game_started` as version 1 wrote it."""
    game_id = api.post("/v1/games", json={"game": "djambi", "seats": 3}).json["id"]
    play_to_end(api, game_id, seat_all(api, game_id, 3), resign_after=6)
    lines = api.get(f"/v1/games/{game_id}/export").get_data(as_text=True).splitlines()
    return game_id, lines, [lines[0], *map(as_stored_at_v1, lines[1:])]


def events_of(lines: list[str]) -> list[tuple[int, str, int, Any]]:
    return [(e["version"], e["type"], e["schema_version"], e["payload"]) for e in map(json.loads, lines[1:])]


def test_a_log_with_an_event_at_an_older_version_replays_and_verifies(
        api: ContractClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, current, old = exported_at_both_versions(api)
    assert ("game_started", 1) in [(kind, version) for _, kind, version, _ in events_of(old)]
    assert read_log(old).events == read_log(current).events
    shown = []
    for name, lines in (("old", old), ("current", current)):
        (path := tmp_path / f"{name}.jsonl").write_text("\n".join(lines))
        cli.replay(argparse.Namespace(file=str(path), to=None, as_seat=0))
        cli.verify(argparse.Namespace(file=str(path)))
        shown.append(capsys.readouterr().out.replace(str(path), "game.jsonl"))
    assert shown[0] == shown[1] and "verified" in shown[0]


def test_a_log_with_an_event_at_an_older_version_imports_and_exports_as_stored(api: ContractClient) -> None:
    game_id, _, old = exported_at_both_versions(api)
    answer = api.post("/v1/games/import", data="\n".join(old).encode(), headers={"Content-Type": "application/x-ndjson"})
    assert answer.status_code == 201, answer.json
    copy = answer.json["id"]
    assert api.get(f"/v1/games/{copy}").json["table"] == api.get(f"/v1/games/{game_id}").json["table"]
    log = read_log(old)
    state = DJAMBI_V2.initial(DJAMBI_V2.parse_options(log.options, log.seats), log.seats)
    for version, event in enumerate(log.events, start=1):
        state = DJAMBI_V2.evolve(state, event)
        assert api.get(f"/v1/games/{copy}/states/{version}").json["table"] == to_primitive(DJAMBI_V2.view(state, None))
    # The API speaks the current version; the export is the stream as stored, never rewritten.
    listed = api.get(f"/v1/games/{copy}/events?limit=1000").json["events"]
    original = api.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
    assert [(e["type"], e["schema_version"], e["payload"]) for e in listed] == [
        (e["type"], e["schema_version"], e["payload"]) for e in original]
    exported = api.get(f"/v1/games/{copy}/export").get_data(as_text=True).splitlines()
    assert events_of(exported) == events_of(old)


def test_an_event_stored_at_an_older_version_is_shown_at_the_current_one_while_the_game_is_on() -> None:
    stored = Envelope("g", 1, "game_started", 1, {"colours": ["red", "blue", "yellow"], "hostage": "green"}, "c", "system", 0)
    shown = responses.event(stored, DJAMBI_V2, 0, finished=False)
    assert (shown["schema_version"], shown["payload"]) == (2, {"players": ["red", "blue", "yellow"], "hostage": "green"})
    assert stored.payload == {"colours": ["red", "blue", "yellow"], "hostage": "green"}


def test_a_log_from_a_newer_server_is_refused_by_one_without_its_version(
        api: ContractClient, monkeypatch: pytest.MonkeyPatch) -> None:
    _, current, _ = exported_at_both_versions(api)
    monkeypatch.setitem(GAMES, "djambi", DJAMBI)
    with pytest.raises(LogInvalid, match=r"Event 1 \(game_started\): no event 'game_started' at schema version 2"):
        read_log(current)
