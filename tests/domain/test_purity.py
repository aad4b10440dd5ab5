"""The domain keeps no clock and no global random: time reaches a search through the clock it
is handed, and chance reaches the rules through the `Rng` they are handed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import domain

DOMAIN = Path(domain.__file__).parent
SEEDED = {"Random", "SystemRandom"}  # the generators domain.core.rng wraps; nothing else of `random`


@pytest.mark.parametrize("path", sorted(DOMAIN.rglob("*.py")), ids=lambda path: str(path.relative_to(DOMAIN)))
def test_no_module_of_the_domain_reads_a_clock_or_the_global_random(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots = {node.module.split(".")[0]}
            assert "random" not in roots, "`from random import …` takes the global generator's functions"
        else:
            continue
        assert not roots & {"time", "datetime"}
        assert "random" not in roots or path == DOMAIN / "core" / "rng.py"
    used = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random"}
    assert used <= SEEDED, f"the global random's {', '.join(sorted(used - SEEDED))}"
