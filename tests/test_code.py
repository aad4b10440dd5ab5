"""The code itself: `mypy --strict` passes on domain/ and events/, and ruff finds nothing
(both configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mypy import api

ROOT = Path(__file__).parents[1]


def test_domain_and_events_type_check_strictly() -> None:
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, report + errors


def test_ruff_finds_nothing() -> None:
    checked = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
