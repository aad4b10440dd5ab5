"""Forged logs: genuine exports of every game (with variants) with events swapped, moved,
duplicated or dropped, runs repeated, payloads traded, versions renumbered so there is no gap.
Each is refused naming an event, by the import and by `meeple verify` alike, or is itself a game
the rules produce: deciding its commands again, here, gives its events."""

from __future__ import annotations

import argparse
import contextlib
import copy
import functools
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from application import copies
from application.errors import Invalid
from cli.main import verify
from domain import GAMES
from domain.core.rng import ReplayingRng
from tests.logs import GENUINE, entries, genuine_export, joined

MUTATIONS = 1000  # per game, shared among CHUNKS tests so that `pytest -n` spreads them over the cores
CHUNKS = 4
KINDS = ("swap", "move", "duplicate", "drop", "repeat_run", "trade_payloads", "swap_runs")


@functools.cache
def exports(name: str) -> tuple[tuple[str, tuple[dict[str, Any], ...]], ...]:
    """The genuine exports of `name` the forgeries are made of: every variant the suite exports."""
    return tuple((header, tuple(events)) for header, events in
                 (entries(genuine_export(name, seats, seed, options)) for seats, seed, options in GENUINE[name]))


def runs(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The lines by the command that caused them, in order."""
    found: list[list[dict[str, Any]]] = []
    for event in events:
        if found and found[-1][-1]["command_id"] == event["command_id"]:
            found[-1].append(event)
        else:
            found.append([event])
    return found


@st.composite
def forgeries(draw: st.DrawFn, name: str) -> tuple[str, list[dict[str, Any]], str]:
    """A genuine export of `name` with one mutation of the forger's kinds, versions renumbered: (header, lines, kind)."""
    header, genuine = draw(st.sampled_from(exports(name)))
    events, kind = copy.deepcopy(list(genuine)), draw(st.sampled_from(KINDS))
    at = draw(st.integers(0, len(events) - 1))
    to = draw(st.integers(0, len(events) - 1))
    if kind == "swap":
        events[at], events[to] = events[to], events[at]
    elif kind == "move":
        events.insert(to, events.pop(at))
    elif kind == "duplicate":
        events.insert(to, copy.deepcopy(events[at]))
    elif kind == "drop":
        del events[at]
    elif kind == "repeat_run":
        length = draw(st.integers(1, 8))
        events[to:to] = copy.deepcopy(events[at:at + length])
    elif kind == "trade_payloads":
        events[at]["payload"], events[to]["payload"] = events[to]["payload"], events[at]["payload"]
    else:
        moves = runs(events)
        first, second = sorted((at % len(moves), to % len(moves)))
        moves[first], moves[second] = moves[second], moves[first]
        events = [event for move in moves for event in move]
    for version, event in enumerate(events, start=1):
        event["version"] = version
    return header, events, kind


def produced_by_the_rules(header: str, events: list[dict[str, Any]]) -> tuple[bool, bool]:
    """Whether deciding each run's command again, on the state the runs before it leave, with the
    chance its events record, gives its lines' events exactly; and whether the game ends with the last."""
    opening = json.loads(header)
    game, seats = GAMES[opening["game"]], opening["seats"]
    options = game.parse_options(opening["options"], seats)
    state = game.initial(options, seats)
    for number, run in enumerate(runs(events)):
        try:
            recorded = [game.events.decode(e["type"], e["schema_version"], e["payload"]) for e in run]
            rng = ReplayingRng([drawn for event in recorded for drawn in game.chance(event)])
            cause = run[0].get("command")
            if number == 0:
                decided = game.setup(options, seats, rng) if cause == "setup" else ()
            elif cause == "redeal":
                decided = game.redeal(state, rng)
            else:
                decided = game.decide(state, game.commands.decode(cause["type"], cause["schema_version"], cause["payload"]), rng)
        except Exception:  # noqa: BLE001 - whatever the rules refuse, they do not produce
            return False, False
        written = [game.events.encode(event) for event in decided]
        if json.loads(json.dumps(written)) != [[e["type"], e["schema_version"], e["payload"]] for e in run]:
            return False, False
        for event in recorded:
            state = game.evolve(state, event)
    return True, game.status(state).finished


def verified(tmp: Path, body: bytes) -> tuple[int, str]:
    """`meeple verify` on a log: its exit status and what it printed."""
    path = tmp / "forged.jsonl"
    path.write_bytes(body)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            verify(argparse.Namespace(file=str(path)))
        except SystemExit as exit:
            return 1 if exit.code else 0, printed.getvalue() + ("" if isinstance(exit.code, int) else str(exit.code))
    return 0, printed.getvalue()


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_forged_log_is_refused_naming_an_event_or_is_a_game_the_rules_produce(
        name: str, chunk: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("forged")

    @seed(chunk)
    @settings(max_examples=MUTATIONS // CHUNKS, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(forgery=forgeries(name))
    def check(forgery: tuple[str, list[dict[str, Any]], str]) -> None:
        header, events, kind = forgery
        body = joined(header, events)
        produced, finished = produced_by_the_rules(header, events)
        status, printed = verified(tmp, body)
        try:
            copies.checked_log(body, max_events=10_000)
        except Invalid as refused:
            if "event" not in refused.extra:  # a game the rules produce, cut at the end of a move before its end
                assert produced and not finished and refused.detail.startswith("Only the log of a finished game"), kind
                return
            assert refused.code == "invalid_log" and 1 <= refused.extra["event"] <= len(events), (kind, refused.detail)
            assert status == 1, (kind, refused.detail, printed)
            return
        assert produced and finished, kind  # accepted: the rules produce it
        assert status == 0 and "every command, decided again" in printed, printed

    check()


def test_every_genuine_export_of_the_suite_imports_and_verifies_with_every_command_decided_again(tmp_path: Path) -> None:
    for name in GENUINE:
        for header, events in exports(name):
            body = joined(header, list(events))
            assert copies.checked_log(body, max_events=10_000).checked() == "redecided"
            status, printed = verified(tmp_path, body)
            assert status == 0 and f"{len(events)} events, {len(runs(list(events)))} commands" in printed, printed


@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_log_of_the_previous_format_imports_and_verifies_checked_the_old_way(name: str, tmp_path: Path) -> None:
    seats, seed, options = GENUINE[name][0]
    lines = genuine_export(name, seats, seed, options, old=True)
    assert json.loads(lines[0])["format_version"] == 1 and "command" not in json.loads(lines[1])
    assert copies.checked_log("\n".join(lines).encode(), max_events=10_000).checked() == "events"
    status, printed = verified(tmp_path, "\n".join(lines).encode())
    assert status == 0 and "verified the old way" in printed and "none was decided again" in printed, printed
