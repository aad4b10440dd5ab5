"""The devices of the account page ask before they revoke a token: Cancel keeps it; and the only
token of a player with no confirmed address to sign in by is kept, the server's refusal shown."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE
from tests.web.pages import fits, register, signed_in

pytestmark = pytest.mark.http


def test_revoking_a_device_is_confirmed_and_the_last_one_is_kept(page: Page, server: str, tmp_path: Path) -> None:
    register(page, server, "una")
    devices = page.locator("#devices")
    devices.locator("summary").click()
    listed = devices.get_by_role("list", name="Your devices")
    expect(listed.get_by_role("listitem")).to_have_count(1)
    listed.get_by_role("button", name="Sign out here: revoke First device").click()
    question = page.get_by_role("dialog", name="Sign out here? This browser's token is revoked: to come back, sign in "
                                "by email or from another device.")
    expect(question.get_by_role("button", name="Sign out")).to_be_focused()
    page.screenshot(path=str(tmp_path / "ask-1280.png"), full_page=True)
    question.get_by_role("button", name="Sign out").click()
    expect(devices.get_by_role("alert")).to_contain_text("only token")
    assert signed_in(page) is not None  # still signed in: the token is kept
    token = signed_in(page)["token"]
    assert requests.get(f"{server}/v1/players/me", headers={"Authorization": f"Bearer {token}"}, timeout=10).ok

    requests.post(f"{server}/v1/players/me/tokens", json={"name": "Bot"}, timeout=10,
                  headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    page.reload()
    devices.locator("summary").click()
    expect(listed.get_by_role("listitem")).to_have_count(2)
    listed.get_by_role("button", name="Revoke Bot").click()
    question = page.get_by_role("dialog", name="Revoke Bot? That device is signed out at once.")
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "ask-375.png")
    page.keyboard.press("Escape")
    expect(question).to_have_count(0)
    expect(listed.get_by_role("listitem")).to_have_count(2)
    listed.get_by_role("button", name="Revoke Bot").click()
    question.get_by_role("button", name="Cancel").click()
    expect(listed.get_by_role("listitem")).to_have_count(2)
    listed.get_by_role("button", name="Revoke Bot").click()
    question.get_by_role("button", name="Revoke").click()
    expect(devices.get_by_role("status")).to_have_text("Revoked: Bot is signed out.")
    expect(listed.get_by_role("listitem")).to_have_count(1)
