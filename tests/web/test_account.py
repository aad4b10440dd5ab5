"""The player's vacation and webhooks under the inbox: a vacation taken and ended, a webhook's
refusal shown at its field, its secret shown once, and a real delivery attempt in the log."""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.integration.conftest import serving
from tests.web.conftest import DESKTOP, PHONE, SETTINGS
from tests.web.pages import fits, refused_at, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]


class Receiver(BaseHTTPRequestHandler):
    """A webhook receiver that answers 204 to every POST and keeps it."""

    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def receiver() -> Iterator[str]:
    Receiver.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose webhooks may reach this machine, as one run for a local receiver would."""
    with serving(tmp_path_factory.mktemp("serve-open"), SETTINGS | {"MEEPLE_WEBHOOK_PRIVATE": "allow"}) as url:
        yield url


def test_a_player_goes_on_vacation_and_comes_back(page: Page, api: Client, server: str) -> None:
    register(page, server, "hal")
    token = signed_in(page)["token"]
    settings = page.get_by_role("region", name="Vacation and webhooks")
    settings.get_by_text("Vacation: not away · 30 vacation days left").click()
    expect(settings.get_by_role("status").first).to_have_text("You are not on vacation. 30 vacation days left this year.")

    settings.get_by_label("Away until").fill("2020-01-01T12:00")
    settings.get_by_role("button", name="Go on vacation").click()
    until = settings.get_by_label("Away until")
    expect(until).to_have_accessible_description(re.compile("Out of range"))
    expect(until).to_have_attribute("aria-invalid", "true")
    expect(settings.get_by_role("alert")).to_have_text("A vacation ends within a year from now.")

    back = int(time.time() + 3 * 86400) // 60 * 60  # in three days, to the minute, as the input reads it
    settings.get_by_label("Away until").fill(time.strftime("%Y-%m-%dT%H:%M", time.localtime(back)))
    settings.get_by_role("button", name="Go on vacation").click()
    expect(settings.get_by_role("status").first).to_contain_text("You are on vacation until")
    expect(settings.get_by_role("status").first).to_contain_text("27 vacation days left this year.")  # three begun
    expect(settings.get_by_text("Vacation: away until")).to_be_visible()
    expect(until).not_to_have_attribute("aria-invalid", "true")
    assert api.call("GET", "/v1/players/me", token).json()["vacation_until"] == back * 1000

    page.reload()  # the server's word, not the page's memory
    settings.get_by_text("Vacation: away until").click()
    settings.get_by_role("button", name="End vacation now").click()
    expect(settings.get_by_role("status").first).to_have_text("You are not on vacation. 29 vacation days left this year.")
    expect(settings.get_by_role("button", name="End vacation now")).to_be_hidden()
    assert api.call("GET", "/v1/players/me", token).json()["vacation_until"] is None


def test_a_webhook_is_refused_added_with_its_secret_shown_once_and_removed(
    page: Page, api: Client, server: str, tmp_path: Path
) -> None:
    register(page, server, "ida")
    token = signed_in(page)["token"]
    settings = page.get_by_role("region", name="Vacation and webhooks")
    settings.get_by_text("Webhooks: none").click()
    expect(settings.get_by_role("list", name="Latest deliveries")).to_have_text("No delivery attempts yet.")

    settings.get_by_label("Webhook URL").fill("http://192.168.0.9/hook")
    settings.get_by_role("button", name="Add webhook").click()
    url = settings.get_by_label("Webhook URL")
    refused_at(url, "must reach a public address.*names 192.168.0.9")

    url.fill("https://example.com/meeple-hook")
    url.press("Enter")  # the keyboard submits the form
    shown = settings.get_by_role("region", name=re.compile("^Signing secret for"))
    expect(shown).to_contain_text("it will not be shown again")
    expect(shown).to_contain_text("Meeple-Signature")
    secret = shown.locator("code.secret-value").inner_text()
    assert re.fullmatch("[0-9a-f]{64}", secret)
    hooks = settings.get_by_role("list", name="Your webhooks")
    expect(hooks).to_contain_text("https://example.com/meeple-hook")
    expect(url).not_to_have_attribute("aria-invalid", "true")
    expect(settings.get_by_text("Webhooks: 1")).to_be_visible()
    listed = api.call("GET", "/v1/players/me/webhooks", token).json()["webhooks"]
    assert [hook["url"] for hook in listed] == ["https://example.com/meeple-hook"]

    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "phone.png")  # the secret, the list and the log at a phone's width
    page.set_viewport_size(DESKTOP)

    page.reload()
    settings.get_by_text("Webhooks: 1").click()
    expect(hooks).to_contain_text("https://example.com/meeple-hook")
    assert secret not in page.content()  # shown once, never again
    hooks.get_by_role("button", name="Remove webhook https://example.com/meeple-hook").click()
    expect(hooks).to_have_text("No webhooks yet.")
    expect(settings.get_by_text("Webhooks: none")).to_be_visible()
    assert api.call("GET", "/v1/players/me/webhooks", token).json()["webhooks"] == []


def test_a_delivery_attempt_shows_in_the_log(page: Page, open_server: str, receiver: str) -> None:
    register(page, open_server, "jo")
    me = signed_in(page)
    settings = page.get_by_role("region", name="Vacation and webhooks")
    settings.get_by_text("Webhooks: none").click()
    settings.get_by_label("Webhook URL").fill(f"{receiver}/hook")
    settings.get_by_role("button", name="Add webhook").click()
    secret = settings.get_by_role("region", name=re.compile("^Signing secret for")).locator("code.secret-value").inner_text()
    settings.get_by_role("button", name="I have copied it").click()
    expect(settings.get_by_label("Webhook URL")).to_be_focused()

    with requests.Session() as http:  # a game whose first move is jo's: the turn is notified
        api = Client(http, open_server)
        game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
        api.call("POST", f"/v1/games/{game_id}/join", me["token"], json={"name": "jo", "seat": 0})
        api.call("POST", f"/v1/games/{game_id}/join", json={"name": "kit", "seat": 1})

    log = settings.get_by_role("list", name="Latest deliveries")
    deadline = time.monotonic() + 30
    while "Delivered" not in log.inner_text() and time.monotonic() < deadline:
        settings.get_by_role("button", name="Refresh").click()
        expect(log).to_have_attribute("aria-busy", "false")
        time.sleep(0.5)
    attempt = log.get_by_role("listitem").first
    expect(attempt).to_contain_text("Your turn")
    expect(attempt).to_contain_text(f"game {game_id}")
    expect(attempt).to_contain_text(f"to {receiver}/hook")
    expect(attempt).to_contain_text("✓ Delivered: answered HTTP 204")

    headers, body = Receiver.received[0]  # signed with the secret the page showed, as it says
    fields = dict(part.split("=", 1) for part in headers["Meeple-Signature"].split(","))
    assert hmac.new(secret.encode(), f"{fields['t']}.".encode() + body, hashlib.sha256).hexdigest() == fields["v1"]
