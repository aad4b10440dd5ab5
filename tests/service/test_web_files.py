"""The web client's files as the server ships them: small, each module's imports present and in
its layer, no function longer than a screen, and a policy on every one of them that nothing is
loaded from another host."""

from __future__ import annotations

from pathlib import Path

from service.web import STATIC
from tests.contract import ContractClient
from tests.service.javascript import functions, imports

BUDGET = 280_000  # bytes: the client's own JavaScript and CSS, uncompressed (about 80 KB gzipped)
LONGEST = 60  # lines a function of the client may span, its nested functions included
CLIENT = STATIC / "js"
# Each module's layer: a page (one per address) draws sections (parts a page is made of) with the
# shared modules (api, dom, games, tables, ...); main.js routes to the pages.
LAYERS = {"main.js": 3, "pages": 2, "sections": 1}


def own_files() -> list[Path]:
    return sorted([*STATIC.rglob("*.js"), *STATIC.rglob("*.css")])


def test_the_clients_javascript_and_css_stay_under_280_kb() -> None:
    size = sum(path.stat().st_size for path in own_files())
    assert size < BUDGET, f"{size} bytes"


def test_every_module_imports_files_of_the_client_that_exist() -> None:
    for path in own_files():
        for imported in imports(path.read_text()):
            assert imported.startswith("."), f"{path.name} imports {imported}"
            assert (path.parent / imported).resolve().is_file(), f"{path.name} imports {imported}"


def test_every_page_and_file_says_it_loads_nothing_from_elsewhere(api: ContractClient) -> None:
    client = api.client
    for url in ("/", "/games/abc", "/games/abc/replay", "/web/js/main.js", "/web/style.css"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"], url
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "<script" not in client.get("/").text.replace('<script type="module" src="/web/js/main.js"></script>', "")


def layer(path: Path) -> int:
    """0 for a shared module, 1 for a section, 2 for a page, 3 for main.js."""
    return LAYERS.get(path.relative_to(CLIENT).parts[0], 0)


def test_a_module_imports_only_modules_of_the_layers_below_it() -> None:
    modules = sorted(CLIENT.rglob("*.js"))
    assert {layer(path) for path in modules} == {0, 1, 2, 3}, "a layer has no module: LAYERS names a folder gone"
    for path in modules:
        for imported in imports(path.read_text()):
            other = (path.parent / imported).resolve()
            below = layer(other) < layer(path) or layer(other) == layer(path) == 0
            assert below, f"{path.relative_to(CLIENT)} imports {other.relative_to(CLIENT)}, of its own layer or above"


def test_no_function_of_the_client_runs_over_60_lines() -> None:
    too_long = [f"{path.relative_to(CLIENT)}:{function.first} {function.name} ({function.lines} lines)"
                for path in sorted(CLIENT.rglob("*.js")) for function in functions(path.read_text())
                if function.lines > LONGEST]
    assert not too_long, too_long
