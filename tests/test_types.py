"""`mypy --strict` passes on domain/ and events/ (configured in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from mypy import api


def test_domain_and_events_type_check_strictly() -> None:
    root = Path(__file__).parents[1]
    report, errors, status = api.run(["--config-file", str(root / "pyproject.toml"), "--cache-dir", str(root / ".mypy_cache")])
    assert status == 0, report + errors
