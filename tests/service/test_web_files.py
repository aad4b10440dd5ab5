"""The web client's files as the server ships them: small, each module's imports present, and a
policy on every one of them that nothing is loaded from another host."""

from __future__ import annotations

import re
from pathlib import Path

from service.web import STATIC
from tests.contract import ContractClient

BUDGET = 150_000  # bytes: the client's own JavaScript and CSS, uncompressed
IMPORT = re.compile(r"""^import\s[^;]*?from\s+"([^"]+)";""", re.MULTILINE | re.DOTALL)


def own_files() -> list[Path]:
    return sorted([*STATIC.rglob("*.js"), *STATIC.rglob("*.css")])


def test_the_clients_javascript_and_css_stay_under_150_kb() -> None:
    size = sum(path.stat().st_size for path in own_files())
    assert size < BUDGET, f"{size} bytes"


def test_every_module_imports_files_of_the_client_that_exist() -> None:
    for path in own_files():
        for imported in IMPORT.findall(path.read_text()):
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
