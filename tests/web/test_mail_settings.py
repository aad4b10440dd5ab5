"""The player's mail settings under the inbox: an address refused at its field, then confirmed by the
link in the mail (written, with no SMTP server, as an .eml file under the data folder) opened in the
browser, what to receive chosen kind by kind, and a webhook made for a Discord channel."""

from __future__ import annotations

import email
import re
import time
from collections.abc import Iterator
from email.policy import default
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.integration.conftest import serving
from tests.web.conftest import PHONE, SETTINGS
from tests.web.pages import fits, refused_at, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

WIDE = {"width": 1280, "height": 800}
PUBLIC_URL = "https://play.example.org"


@pytest.fixture(scope="module")
def mailing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server with no SMTP server, its links starting with PUBLIC_URL; its URL and the folder its mail is written to."""
    data = tmp_path_factory.mktemp("serve-mail-settings")
    with serving(data, SETTINGS | {"MEEPLE_PUBLIC_URL": PUBLIC_URL}) as url:
        yield url, data / "var" / "mail"


def confirmation_link(folder: Path, address: str) -> str:
    """The confirmation link in the mail to `address`, once the workers have written it to `folder`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for path in folder.glob("*.eml") if folder.exists() else []:
            message = email.message_from_bytes(path.read_bytes(), policy=default)
            if message["To"] == address:
                found = re.search(r"\S+#confirm-mail=[\w-]+", message.get_body(("plain",)).get_content())  # type: ignore[union-attr]
                assert found
                return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} in {folder}")


def test_a_player_confirms_an_address_and_chooses_what_to_receive(
    page: Page, mailing: tuple[str, Path], tmp_path: Path
) -> None:
    server, folder = mailing
    page.set_viewport_size(WIDE)
    register(page, server, "mae")
    token = signed_in(page)["token"]
    settings = page.get_by_role("region", name="Vacation and webhooks")
    settings.get_by_text("Mail: none").click()
    expect(settings.get_by_text("No address: Meeple mails you nothing.")).to_be_visible()

    address = settings.get_by_label("Address", exact=True)
    address.fill("not an address")
    settings.get_by_role("button", name="Send confirmation link").click()
    refused_at(address, "An email address must have an @-sign.")
    address.fill("root@localhost")  # an address that points inside
    address.press("Enter")
    refused_at(address, "It should have a period.")
    address.fill("mae@example.org")
    address.press("Enter")
    expect(settings.get_by_text("mae@example.org is waiting for confirmation: open the link mailed to it.")).to_be_visible()
    expect(settings.get_by_text("A confirmation link is on its way to mae@example.org.")).to_be_visible()

    link = confirmation_link(folder, "mae@example.org")
    assert link.startswith(f"{PUBLIC_URL}/#confirm-mail=")
    page.goto("about:blank")  # the link opens the page anew, as from a mail program
    page.goto(link.replace(PUBLIC_URL, server))
    settings = page.get_by_role("region", name="Vacation and webhooks")
    expect(settings.get_by_text("Address confirmed: Meeple mails you there as you choose below.")).to_be_visible()
    expect(settings.get_by_text("Mail: mae@example.org")).to_be_visible()
    assert "confirm-mail" not in page.url  # the token is out of the address bar
    expect(settings.get_by_label("Your turn")).to_have_value("offline")
    address.fill("mae@elsewhere.org")  # a new address waits for its link; the confirmed one keeps its mail
    address.press("Enter")
    expect(page.locator("#mail > p[role=status]")).to_have_text(
        "Mail goes to mae@example.org. mae@elsewhere.org is waiting for confirmation: open the link mailed to it.")

    settings.get_by_label("Your turn").select_option(label="At once")
    expect(settings.get_by_text("Saved. Your turn: At once.")).to_be_visible()
    settings.get_by_label("A daily digest of the games waiting for me").select_option("on")
    expect(settings.get_by_text("Saved. A daily digest of the games waiting for me: Yes.")).to_be_visible()
    kinds = requests.get(f"{server}/v1/players/me/mail", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()["kinds"]
    assert kinds["your_turn"] == "on" and kinds["digest"] == "on" and kinds["reminder"] == "on"

    settings.get_by_text("Webhooks: none").click()
    settings.get_by_label("Webhook URL").fill("https://93.184.215.14/api/webhooks/1/x")
    settings.get_by_label("What to send").select_option(label="Discord channel")
    settings.get_by_role("button", name="Add webhook").click()
    expect(settings.get_by_text("Added: the channel will hear whose move it is, with the game's link.")).to_be_visible()
    expect(settings.get_by_role("list", name="Your webhooks")).to_contain_text("Discord channel, added")
    page.screenshot(path=str(tmp_path / "mail-1280.png"), full_page=True)

    page.set_viewport_size(PHONE)
    page.reload()
    page.get_by_role("region", name="Vacation and webhooks").get_by_text("Mail: mae@example.org").click()
    expect(page.get_by_label("Your turn")).to_have_value("on")
    expect(page.get_by_role("group", name="What to mail me")).to_be_visible()
    fits(page, tmp_path / "mail-375.png")


def test_with_nothing_set_mail_lands_in_the_data_folder_with_links_to_this_server(tmp_path: Path) -> None:
    """The README's first command: no SMTP server, no public URL; the links lead where `meeple serve` listens."""
    with serving(tmp_path, SETTINGS) as server:
        player = requests.post(f"{server}/v1/players", json={"name": "ned"}, timeout=10).json()
        asked = requests.put(f"{server}/v1/players/me/mail/address", json={"address": "ned@example.org"},
                             headers={"Authorization": f"Bearer {player['token']}"}, timeout=10)
        assert asked.status_code == 202
        link = confirmation_link(tmp_path / "var" / "mail", "ned@example.org")
    assert link.startswith(f"{server}/#confirm-mail=")
