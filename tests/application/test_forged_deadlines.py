"""A deadline's move in a log with a time control: genuine once its seat's clock, worked out from
the log as the live game's, had run out; refused by the import and by `meeple verify`, naming the
event, when it came before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from application import copies
from application.errors import Invalid
from tests.application.test_forged_logs import runs, verified
from tests.logs import entries, genuine_export, joined

MOVE = 10_000  # ms between the moves of the game
CONTROLS = {  # each as a header's `clock` gives it: 60 s for each move, or a simple clock of 60 s a turn
    "per_move": {"seconds": 60, "policy": "skip", "clock": "per_move"},
    "simple": {"seconds": 60, "policy": "skip", "clock": "simple"},
}


def timed_log(control: dict[str, Any], late: int) -> tuple[bytes, int]:
    """A finished TAKI game with `control`, a move every MOVE ms, one of seat 1's moves in the midst
    of play applied by its deadline `late` ms after its 60 s ran out; the log and that move's first event."""
    header, events = entries(genuine_export("taki", 2, 1, {}))
    opening = json.loads(header)
    opening["clock"] = {"control": control, "time_zones": {}, "vacations": {}}
    moved = next(run[0]["version"] for run in runs(events)[10:] if run[0]["actor"] == "seat:1" and _begins_turn(events, run))
    at = 0
    for run in runs(events):
        at += 60_000 + late if run[0]["version"] == moved else MOVE
        for event in run:
            event["time"], event["actor"] = at, "deadline:1" if run[0]["version"] == moved else event["actor"]
    return joined(json.dumps(opening), events), moved


def _begins_turn(events: list[dict[str, Any]], run: list[dict[str, Any]]) -> bool:
    """Whether the run before `run` is seat 0's: seat 1's clock began with it."""
    before = [event for event in events if event["version"] < run[0]["version"]]
    return before[-1]["actor"] == "seat:0"


@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_deadline_applied_once_the_clock_ran_out_imports_and_verifies(control: dict[str, Any], tmp_path: Path) -> None:
    for late in (0, 5_000):  # at the moment the clock runs out, or a deadline job's moments later
        body, _ = timed_log(control, late)
        assert copies.checked_log(body, max_events=10_000).clock is not None
        status, printed = verified(tmp_path, body)
        assert status == 0 and "its seat's time had run out" in printed, printed


@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_deadline_applied_before_the_clock_ran_out_is_refused_naming_its_event(control: dict[str, Any],
                                                                                  tmp_path: Path) -> None:
    body, version = timed_log(control, -1)  # a millisecond early
    with pytest.raises(Invalid, match="before its time ran out") as refused:
        copies.checked_log(body, max_events=10_000)
    assert refused.value.extra["event"] == version and f"Event {version} (" in refused.value.detail
    status, printed = verified(tmp_path, body)
    assert status == 1 and f"version {version} (" in printed and "before its time ran out" in printed, printed
