"""A web page from another origin plays a seat in a real headless Chromium: it follows the seat's
stream with EventSource (through a stream ticket), sees the opponent's move arrive, and plays
its own with fetch. The server allows that origin only (MEEPLE_CORS_ORIGINS)."""

from __future__ import annotations

import functools
import os
import re
import signal
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil
import pytest
import requests
from playwright.sync_api import Browser, expect

from bench.server import free_port
from tests.integration.clients import Client
from tests.integration.conftest import serving

pytestmark = [pytest.mark.redis, pytest.mark.http]

PAGE = Path(__file__).parent / "browser"


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def page_origin() -> Iterator[str]:
    """The origin of a second local web server, which serves the page."""
    site = ThreadingHTTPServer(("127.0.0.1", free_port()), functools.partial(QuietHandler, directory=str(PAGE)))
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()
    site.server_close()


def cut_connections(port: int) -> int:
    """Kill each server process holding a connection to `port` (gunicorn starts another); how many."""
    holders = {c.pid for c in psutil.net_connections("tcp")
               if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == port and c.pid}
    for pid in holders:
        os.kill(pid, signal.SIGKILL)
    return len(holders)


def opponent_moves(client: Client, game_id: str, token: str) -> dict[str, Any]:
    """Seat 0 draws (or plays what it must) until it is seat 1's turn; the last event it appended."""
    while client.call("GET", f"/v1/games/{game_id}").json()["to_move"] == [0]:
        legal = client.call("GET", f"/v1/games/{game_id}/legal-commands", token).json()["commands"]
        moved = client.call("POST", f"/v1/games/{game_id}/commands", token,
                            json=next((c for c in legal if c["type"] == "taki.draw"), legal[0])).json()
    return moved["events"][-1]  # type: ignore[no-any-return]


def test_a_page_from_another_origin_follows_a_seat_and_plays_it(
        page_origin: str, chromium: Browser, tmp_path: Path) -> None:
    with serving(tmp_path, {"MEEPLE_CORS_ORIGINS": page_origin}, "--access-log") as api, requests.Session() as http:
        client = Client(http, api)
        game_id, tokens = client.new_game(2)  # seat 0 moves first; the page plays seat 1
        page = chromium.new_page()
        refused: list[str] = []
        page.on("console", lambda message: refused.append(message.text) if message.type == "error" else None)
        page.goto(f"{page_origin}/page.html")
        page.get_by_label("API").fill(api)
        page.get_by_label("Game").fill(game_id)
        page.get_by_label("Seat token").fill(tokens[1])
        page.get_by_role("button", name="Connect").click()
        events = page.get_by_role("list", name="Events")
        opened = client.call("GET", f"/v1/games/{game_id}").json()["version"]
        expect(events.get_by_role("listitem")).to_have_count(opened)  # the opening
        expect(page.get_by_role("status")).to_contain_text("Following the game")

        last = opponent_moves(client, game_id, tokens[0])
        expect(events.get_by_role("listitem").last).to_have_text(f"{last['version']} {last['type']} by seat:0")

        page.get_by_role("button", name="Play").click()
        expect(page.get_by_role("status")).to_have_text(re.compile(r"^Played taki\.\w+: the game is at version \d+\.$"))
        played = client.all_events(game_id)[last["version"]:]
        assert played and {event["actor"] for event in played} == {"seat:1"}  # the server took the page's move
        expect(events.get_by_role("listitem").last).to_have_text(re.compile(rf"^{played[-1]['version']} \w+ by seat:1$"))
        assert not refused, refused  # no request was refused for its origin, no ticket for its use

        # the stream drops: EventSource reconnects with the used ticket and is refused, so the page
        # gets a new ticket and resumes after the last event it has - none twice, none missed
        http.close()
        assert cut_connections(int(api.rsplit(":", 1)[1])) >= 1
        expect(page.get_by_role("status")).to_have_text(f"Following the game after version {played[-1]['version']}.",
                                                         timeout=20_000)
        opponent_moves(client, game_id, tokens[0])
        page.get_by_role("button", name="Play").click()
        expect(page.get_by_role("status")).to_have_text(re.compile(r"^Played taki\.\w+"))
        version = client.call("GET", f"/v1/games/{game_id}").json()["version"]
        expect(events.get_by_role("listitem")).to_have_count(version)
        texts = events.get_by_role("listitem").all_inner_texts()
        assert [int(text.split()[0]) for text in texts] == list(range(1, version + 1))
        assert any("401" in message for message in refused)  # the reconnect with the used ticket
        page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
        page.context.close()
    log = (tmp_path / "serve.log").read_text()
    assert f'"path": "/v1/games/{game_id}/stream", "status": 200' in log  # the request log names the stream...
    assert f'"GET /v1/games/{game_id}/events HTTP/1.1" 200' in log  # ... and the access log each path...
    assert "ticket=" not in log and "limit=" not in log  # ... without its query
    assert tokens[0] not in log and tokens[1] not in log
