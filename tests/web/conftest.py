"""The web client in a real headless Chromium against a real `meeple serve`: one server and one
browser for the session, a fresh browser context (its own localStorage) for each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.integration.conftest import serving

DESKTOP = {"width": 1024, "height": 800}
PHONE = {"width": 375, "height": 740}

expect.set_options(timeout=10_000)  # a busy machine (two cores, other tests) may take a while to settle a page

# an open stream notices its page has gone at its next heartbeat: soon, so that the server stops at once
SETTINGS = {"MEEPLE_STREAM_HEARTBEAT_MS": "1000", "MEEPLE_ADMIN_TOKEN": "admin-token-0123456789"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a `meeple serve` with its own embedded store, for the session's pages."""
    with serving(tmp_path_factory.mktemp("serve"), SETTINGS) as url:
        yield url


@pytest.fixture
def context(chromium: Browser) -> Iterator[BrowserContext]:
    """A browser profile of its own: nobody signed in, no seat tokens kept."""
    opened = chromium.new_context(viewport=DESKTOP)
    opened.set_default_timeout(10_000)
    yield opened
    opened.close()


@pytest.fixture
def page(context: BrowserContext, tmp_path: Path) -> Iterator[Page]:
    """A page whose script errors fail the test; its last sight is saved as `last.png` in the test's tmp dir."""
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.screenshot(path=str(tmp_path / "last.png"), full_page=True)
    assert not errors, errors


@pytest.fixture
def api(server: str) -> Iterator[Client]:
    with requests.Session() as http:
        yield Client(http, server)
