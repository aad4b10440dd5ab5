"""Schemathesis drives a live `meeple serve` from the spec it serves: the spec's examples, its
boundaries, generated and malformed input for every operation, then chains of calls along the
spec's links (create a game → join it → play commands in it). No answer may be a 500 or break
the spec. `fuzz_hooks.py` gives it tokens and sensible requests; `schemathesis.toml` its
settings. MEEPLE_FUZZ_SEED and MEEPLE_FUZZ_EXAMPLES change the run."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

pytestmark = pytest.mark.http

HERE = Path(__file__).parent
STREAMS = ["streamGame", "streamInbox"]  # answers that never end; tested in test_streams.py


def test_no_request_breaks_the_server_or_the_spec(server: str, tmp_path: Path) -> None:
    log = tmp_path / "answers.log"
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(HERE / "schemathesis.toml"), "run",
         f"{server}/openapi.json", "--url", server, "--checks", "all",
         "--max-examples", os.environ.get("MEEPLE_FUZZ_EXAMPLES", "50"), "--seed", os.environ.get("MEEPLE_FUZZ_SEED", "1"),
         "--request-timeout", "10", "--no-color", *(arg for name in STREAMS for arg in ("--exclude-operation-id", name))],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,  # its cache goes there, not in the checkout
        env=os.environ | {"SCHEMATHESIS_HOOKS": "tests.integration.fuzz_hooks", "PYTHONPATH": str(HERE.parents[1]),
                          "MEEPLE_FUZZ_URL": server,
                          "MEEPLE_FUZZ_LOG": str(log)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    answered = Counter(log.read_text().splitlines())
    # the chains reached into games: seats were taken and commands accepted, not only refused
    assert answered["joinGame 201"] and answered["submitCommand 201"], answered
    assert not any(line.endswith(" 500") for line in answered)
