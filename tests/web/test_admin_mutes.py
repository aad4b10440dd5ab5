"""The admin's page mutes the writer of a reported table message who took their seat as a guest (no player to
mute by name): the guest's seat then writes nothing in that game. In a real browser, at 1280 and 375 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE, SETTINGS
from tests.web.pages import fits

pytestmark = [pytest.mark.redis, pytest.mark.http]

ADMIN = SETTINGS["MEEPLE_ADMIN_TOKEN"]


def test_the_admin_mutes_a_guest_who_wrote_a_reported_message(page: Page, api: Client, server: str,
                                                                 tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()["token"]
    api.call("POST", f"/v1/games/{game_id}/join", ann, json={"name": "ann"})
    guest = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "zed"}).json()["token"]
    rude = api.call("POST", f"/v1/games/{game_id}/chat/table", guest, json={"text": "You clown"}).json()
    api.call("POST", f"/v1/games/{game_id}/chat/table/messages/{rude['id']}/reports", ann, json={"reason": "Insults"})

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server}/admin")
    page.get_by_label("Admin token").fill(ADMIN)
    page.get_by_role("button", name="Sign in as admin").click()
    report = page.get_by_role("list", name="Reported messages").get_by_role("listitem").filter(has_text="You clown")
    mute = report.get_by_role("button", name="Mute zed for a day")
    page.screenshot(path=str(tmp_path / "admin-guest-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "admin-guest-375.png")
    mute.focus()
    with page.expect_response(lambda answer: answer.request.method == "PUT" and answer.url.endswith("/mute")) as muted:
        page.keyboard.press("Enter")  # the button works from the keyboard
    assert muted.value.status == 200
    expect(report.get_by_role("button", name="Hide message")).to_be_enabled()  # the queue read again, the report still open

    refused = api.call("POST", f"/v1/games/{game_id}/chat/table", guest, json={"text": "You clown again"})
    assert (refused.status_code, refused.json()["code"]) == (403, "muted")
    assert api.call("POST", f"/v1/games/{game_id}/chat/table", ann, json={"text": "Thank you"}).status_code == 201
