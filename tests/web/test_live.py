"""A seat's page follows its game through a dropped stream: it asks a new ticket and resumes
after the last event it has, so the opponent's next move still appears without a reload."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.integration.conftest import serving
from tests.integration.test_browser import cut_connections
from tests.web.conftest import SETTINGS

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_the_table_resumes_its_stream_after_a_drop(page: Page, tmp_path: Path) -> None:
    with serving(tmp_path, SETTINGS) as server, requests.Session() as http:
        api = Client(http, server)
        game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
        token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "hal"}).json()["token"]
        page.goto(f"{server}/games/{game_id}")
        page.get_by_label("Your name").fill("ida")
        page.get_by_role("button", name="Take seat 2").click()  # the last seat: the game starts, hal first
        expect(page.locator(".headline")).to_have_text("Waiting for hal")
        live = page.get_by_role("status").filter(has_text="Live")
        deadline = time.monotonic() + 10
        while tickets(tmp_path) < 1:  # the seat's ticket: its page has left the spectator's stream
            assert time.monotonic() < deadline
            time.sleep(0.05)
        expect(live).to_be_visible()  # the seat's own stream
        assert tickets(tmp_path) == 1

        http.close()
        assert cut_connections(int(server.rsplit(":", 1)[1])) >= 1
        expect(page.get_by_role("status").filter(has_text="Reconnecting")).to_be_visible()
        expect(live).to_be_visible(timeout=20_000)  # a new ticket, the stream again after the last version
        api.call("POST", f"/v1/games/{game_id}/commands", token, json={"type": "taki.draw"})
        expect(page.get_by_role("list", name="Recent moves")).to_contain_text("hal drew a card")
        expect(page.locator(".headline")).to_have_text("Your turn")
    assert tickets(tmp_path) == 2


def tickets(data: Path) -> int:
    """How many stream tickets the server has given, by its log."""
    return (data / "serve.log").read_text().count('"path": "/v1/stream-tickets", "status": 201')
