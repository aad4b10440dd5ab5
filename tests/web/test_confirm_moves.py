"""Confirming each move before sending: on by default in a game of a day or more per move, where a
move waits for "Send" (Cancel sends nothing); off by default in a game without deadlines, where a
click plays at once; switched at the table, and kept."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, headline, play_a_turn

pytestmark = [pytest.mark.redis, pytest.mark.http]

SETTING = "Confirm each move before sending"


def seated_at_my_turn(page: Page, api: Client, server: str, **settings: Any) -> str:
    """A TAKI game for two made with `settings`: seat 1 taken in `page` without registering, seat 2
    by bo through the API, who moves first if it is his turn; the game's id, at ann's turn."""
    game_id = str(api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, **settings}).json()["id"])
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("ann")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann (you)")
    bo = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]
    if api.call("GET", f"/v1/games/{game_id}").json()["to_move"] == [1]:
        command = api.call("GET", f"/v1/games/{game_id}/legal-commands", bo).json()["commands"][0]
        assert api.call("POST", f"/v1/games/{game_id}/commands", bo, json=command).status_code == 201
    expect(page.locator(".headline")).to_have_text("Your turn")
    return game_id


def version(api: Client, game_id: str) -> int:
    return int(api.call("GET", f"/v1/games/{game_id}").json()["version"])


def sent(api: Client, game_id: str, before: int) -> None:
    """The game moves on from `before` within a few seconds."""
    deadline = time.monotonic() + 10
    while version(api, game_id) == before:
        assert time.monotonic() < deadline, "the move was not sent"
        time.sleep(0.05)


def test_a_move_in_a_game_of_a_day_per_move_waits_for_send(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = seated_at_my_turn(page, api, server, turn_deadline={"seconds": 86400, "policy": "skip"})
    expect(page.get_by_label(SETTING)).to_be_checked()
    before = version(api, game_id)
    dialog = page.get_by_role("dialog", name="Send this move?")

    play_a_turn(page)
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Send")).to_be_focused()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(tmp_path / "confirm-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "confirm-375.png")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    play_a_turn(page, keyboard=True)
    page.keyboard.press("Escape")  # the keyboard cancels too
    expect(dialog).to_have_count(0)
    assert headline(page) == "Your turn" and version(api, game_id) == before  # nothing was sent

    play_a_turn(page)
    dialog.get_by_role("button", name="Send").click()
    expect(dialog).to_have_count(0)
    sent(api, game_id, before)


def test_a_click_plays_at_once_in_a_game_without_deadlines_until_the_setting_is_switched_on(
        page: Page, api: Client, server: str) -> None:
    game_id = seated_at_my_turn(page, api, server)
    setting = page.get_by_label(SETTING)
    expect(setting).not_to_be_checked()
    before = version(api, game_id)
    play_a_turn(page)
    sent(api, game_id, before)
    expect(page.get_by_role("dialog")).to_have_count(0)

    setting.check()
    page.reload()
    expect(page.get_by_label(SETTING)).to_be_checked()  # kept for this seat

