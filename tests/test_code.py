"""The code itself: `mypy --strict` passes on the whole package, ruff finds nothing (both
configured in pyproject.toml), each layer imports only the layers beneath it, the workers and
the HTTP service never import each other, the rules import nothing but the standard library
and cattrs, and each layer's own errors live in its errors module under one base."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from mypy import api

ROOT = Path(__file__).parents[1]
LAYERS = ("domain", "events", "players", "runtime", "application", "workers", "service", "cli")  # each may import only those before it
APART = ("workers", "service")  # side by side above the application: neither imports the other


def test_the_package_type_checks_strictly() -> None:
    report, errors, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, report + errors


def test_ruff_finds_nothing() -> None:
    checked = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def imported(path: Path, root: Path) -> Iterator[str]:
    """Every module the file imports, at its top, inside a function or only for type checking."""
    package = list(path.relative_to(root).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []  # a relative import's package
            if node.module:
                yield ".".join([*base, node.module])
            else:
                yield from (".".join([*base, alias.name]) for alias in node.names)


def forbidden(layer: str) -> set[str]:
    """The layers `layer` may not import: those above it, and its side-by-side neighbour."""
    return set(LAYERS[LAYERS.index(layer) + 1:]) | (set(APART) - {layer} if layer in APART else set())


def upward_imports(root: Path) -> list[str]:
    """Each import of a layer the importing module's own may not import, as `path imports module`."""
    return [
        f"{path.relative_to(root)} imports {module}"
        for layer in LAYERS
        for path in sorted((root / layer).rglob("*.py"))
        for module in imported(path, root)
        if module.split(".")[0] in forbidden(layer)
    ]


def test_each_layer_imports_only_the_layers_beneath_it() -> None:
    assert upward_imports(ROOT) == []


def test_the_rules_import_nothing_but_the_standard_library_and_cattrs() -> None:
    allowed = set(sys.stdlib_module_names) | {"domain", "cattrs"}
    outside = [f"{path.relative_to(ROOT)} imports {module}" for path in sorted((ROOT / "domain").rglob("*.py"))
               for module in imported(path, ROOT) if module.split(".")[0] not in allowed]
    assert outside == []


def test_an_upward_import_is_found_wherever_it_is_written(tmp_path: Path) -> None:
    for layer in LAYERS:
        (tmp_path / layer / "core").mkdir(parents=True)
    (tmp_path / "domain" / "core" / "rules.py").write_text("def later() -> None:\n    from events import keys\n")
    (tmp_path / "events" / "core" / "store.py").write_text("from ... import players\nfrom .. import store\n")
    (tmp_path / "runtime" / "core" / "config.py").write_text("import application.lobby\nimport players.accounts\n")
    (tmp_path / "workers" / "core" / "jobs.py").write_text("from service.core import app\nimport application.lobby\n")
    (tmp_path / "service" / "core" / "app.py").write_text("import workers.queues\nimport runtime.config\n")
    (tmp_path / "cli" / "core" / "main.py").write_text("import service.core.app\nimport workers.core.jobs\n")
    assert upward_imports(tmp_path) == [
        "domain/core/rules.py imports events", "events/core/store.py imports players", "runtime/core/config.py imports application.lobby",
        "workers/core/jobs.py imports service.core", "service/core/app.py imports workers.queues",
    ]


def test_each_layers_own_errors_live_in_its_errors_module_and_derive_from_one_base() -> None:
    from domain.core.errors import MeepleError

    misplaced = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if path.name == "__main__.py":
                continue
            module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
            for name, value in vars(module).items():
                if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.__name__:
                    home = "domain.core.errors" if layer == "domain" else f"{layer}.errors"
                    if module.__name__ != home or not issubclass(value, MeepleError):
                        misplaced.append(f"{module.__name__}.{name}")
    assert misplaced == []
