"""Signing in anywhere: a second browser signs in through the link in the mail (written, with no
SMTP server, as an .eml file under the data folder), revokes the first browser's token from its
list of devices, and the first browser shows itself signed out as soon as it asks the server: the
seat it took in a game with that token plays no more."""

from __future__ import annotations

import email
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
import redis
import requests
from playwright.sync_api import Browser, Page, Route, expect

from players.mail import Mailboxes
from tests.integration.conftest import serving
from tests.web.conftest import PHONE, SETTINGS
from tests.web.pages import await_turn, fits, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

WIDE = {"width": 1280, "height": 800}
PUBLIC_URL = "https://meeple.example.org"


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory, real_redis_url: str) -> Iterator[tuple[str, Path]]:
    """A server on the session's store with no SMTP server, whose links start with PUBLIC_URL; its
    URL and its mail folder."""
    data = tmp_path_factory.mktemp("serve-mail")
    with redis.Redis.from_url(real_redis_url) as store:
        store.flushall()  # what earlier tests left, such as mail still to send, is not this server's
    with serving(data, SETTINGS | {"MEEPLE_PUBLIC_URL": PUBLIC_URL, "MEEPLE_REDIS_URL": real_redis_url}) as url:
        yield url, data / "var" / "mail"


def mailed(folder: Path, subject: str, to: str, seen: set[Path]) -> EmailMessage:
    """The first mail with `subject` to `to` written to `folder` and not in `seen`, once the workers write it."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
            message = email.message_from_bytes(path.read_bytes(), policy=default)
            if path not in seen and (message["Subject"], message["To"]) == (subject, to):
                seen.add(path)
                return message  # type: ignore[return-value]
        time.sleep(0.2)
    raise AssertionError(f"no mail {subject!r} in {folder}")


def link_in(message: EmailMessage, pattern: str) -> str:
    text = message.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    found = re.search(pattern, text)
    assert found, text
    return found.group(0)


def confirm_address(store_url: str, player_id: str, address: str) -> None:
    """Give the player `address`, confirmed, in the server's store."""
    with redis.Redis.from_url(store_url) as store:
        mailboxes = Mailboxes(store)
        token = mailboxes.ask_confirmation(player_id, address)
        assert token is not None and mailboxes.confirm(token) == player_id


def test_a_second_browser_signs_in_by_mail_and_revokes_the_first(
        chromium: Browser, page: Page, mailing: tuple[str, Path], real_redis_url: str, tmp_path: Path) -> None:
    server, folder = mailing
    seen: set[Path] = set()
    register(page, server, "ivy")
    confirm_address(real_redis_url, signed_in(page)["id"], "ivy@example.com")
    game_id = requests.post(f"{server}/v1/games", json={"game": "taki", "seats": 2}, timeout=10).json()["id"]
    page.goto(f"{server}/games/{game_id}")
    page.get_by_role("button", name="Take seat 1").click()
    page.wait_for_function("id => JSON.parse(localStorage.getItem('meeple.seats') || '{}')[id]?.seat === 0", arg=game_id)
    requests.post(f"{server}/v1/games/{game_id}/join", json={"name": "bo"}, timeout=10)
    assert await_turn(page) == "Your turn"
    started = requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()["version"]

    second = chromium.new_context(viewport=WIDE)
    other = second.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda error: errors.append(str(error)))
    other.goto(f"{server}/")
    form = other.get_by_role("form", name="Sign in by email")
    form.get_by_label("Your confirmed mail address").fill("ivy@example.com")
    form.get_by_role("button", name="Mail me a sign-in link").click()
    expect(form.get_by_role("status")).to_contain_text("a sign-in link is on its way")
    other.screenshot(path=str(tmp_path / "asked-1280.png"), full_page=True)

    message = mailed(folder, "Sign in to Meeple", "ivy@example.com", seen)
    link = link_in(message, r"\S+/sign-in#link=[A-Za-z0-9_-]+")
    assert link.startswith(f"{PUBLIC_URL}/sign-in#link=")
    other.goto(server + link.removeprefix(PUBLIC_URL))  # this server stands for the public URL
    expect(other).to_have_url(f"{server}/sign-in")  # the secret is out of the address bar at once
    other.get_by_label("Name this device").fill("Ivy's phone")
    other.screenshot(path=str(tmp_path / "sign-in-1280.png"), full_page=True)
    other.get_by_role("button", name="Sign in").click()
    expect(other.get_by_role("navigation", name="Account")).to_contain_text("Signed in as ivy")
    assert signed_in(other)["token"] != signed_in(page)["token"]

    devices = other.locator("#devices")
    devices.locator("summary").click()
    listed = devices.get_by_role("list", name="Your devices")
    expect(listed.get_by_role("listitem")).to_have_count(2)
    mine = listed.get_by_role("listitem").filter(has_text="Ivy's phone")
    expect(mine).to_contain_text("(this browser)")
    expect(mine.get_by_role("button", name="Sign out here: revoke Ivy's phone")).to_be_visible()
    other.screenshot(path=str(tmp_path / "devices-1280.png"), full_page=True)
    other.set_viewport_size(PHONE)
    fits(other, tmp_path / "devices-375.png")
    # the first browser's stream of its game, cut off by the revocation, is not opened again, and its
    # reads of the game (which the stream's end asks for) are held: its move is what asks the server
    page.route("**/v1/stream-tickets", lambda route: route.abort())
    held: list[Route] = []
    reads = re.compile(rf".*/v1/games/{game_id}([/?#].*)?")
    page.route(reads, lambda route: held.append(route) if route.request.method == "GET" else route.fallback())
    listed.get_by_role("button", name="Revoke First device").click()
    other.get_by_role("dialog", name="Revoke First device? That device is signed out at once.").get_by_role(
        "button", name="Revoke").click()
    expect(devices.get_by_role("status")).to_have_text("Revoked: First device is signed out.")
    expect(listed.get_by_role("listitem")).to_have_count(1)

    page.get_by_role("region", name="Actions").get_by_role("button", name="Draw").click()
    account = page.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name="Sign in")).to_be_visible()
    expect(account).not_to_contain_text("Signed in as")
    expect(page.get_by_role("alert")).to_have_text("You are signed out: this browser's token was revoked.")
    expect(page.get_by_role("region", name="Actions").get_by_role("button", name="Draw")).to_have_count(0)
    page.unroute(reads)
    for route in held:  # the reads held go on: the revoked token's are refused, the signed-out page's show the game
        route.fallback()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    kept, seats = page.evaluate("[localStorage.getItem('meeple.player'), JSON.parse(localStorage.getItem('meeple.seats'))]")
    assert kept is None and game_id not in (seats or {})
    assert requests.get(f"{server}/v1/games/{game_id}", timeout=10).json()["version"] == started  # no draw
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(tmp_path / "signed-out-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "signed-out-375.png")

    other.goto(server + link.removeprefix(PUBLIC_URL))  # the link signs in once
    other.get_by_role("button", name="Sign in").click()
    expect(other.get_by_role("alert")).to_contain_text("used already")
    expect(other.get_by_role("link", name="Ask for a new sign-in link")).to_be_visible()
    fits(other, tmp_path / "used-375.png")
    second.close()
    assert not errors, errors
