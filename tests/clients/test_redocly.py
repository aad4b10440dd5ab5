"""The served spec passes Redocly's recommended rules with no error and no warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clients.conftest import node_tool

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_the_served_spec_passes_redocly_recommended_rules(spec: Path) -> None:
    done = node_tool("redocly", "lint", "--extends", "recommended", "--format", "json", spec, cwd=spec.parent, check=False)
    report = json.loads(done.stdout)
    problems = [f"{p['severity']} {p['ruleId']} at {p['location'][0]['pointer']}: {p['message']}" for p in report["problems"]]
    assert not problems, "\n".join(problems)
