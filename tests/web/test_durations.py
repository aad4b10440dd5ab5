"""Durations as people say them: the create form takes a number of days, hours or minutes and sends
seconds; the table and the inbox show the time left, and the inbox and the lobby the time each move
may take, in words."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.web.conftest import PHONE
from tests.web.pages import fits, register

pytestmark = [pytest.mark.redis, pytest.mark.http]


def create(page: Page, form: Locator, move: tuple[str, str], lobby: tuple[str, str]) -> tuple[dict[str, Any], str]:
    """Create the game the form holds, each move given `move` (a number and a unit) and the lobby
    `lobby`: the body the form sent, and the new game's id."""
    form.get_by_label("Give each move a deadline").check()
    for label, (count, unit) in (("Time for each move", move), ("Lobby time", lobby)):
        form.get_by_label(label, exact=True).fill(count)
        form.get_by_label(f"{label}: unit").select_option(unit)
    with page.expect_request(lambda request: request.method == "POST" and request.url.endswith("/v1/games")) as sent:
        form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    return sent.value.post_data_json, page.url.rsplit("/", 1)[1]


def test_a_game_with_two_days_per_move_is_sent_in_seconds_and_shown_in_days(page: Page, server: str, tmp_path: Path) -> None:
    register(page, server, "pat")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Seat 2", exact=True).select_option("greedy")
    expect(form.get_by_label("Time for each move", exact=True)).to_have_value("1")  # a day, unless changed
    expect(form.get_by_label("Time for each move: unit")).to_have_value("days")
    page.set_viewport_size({"width": 1280, "height": 800})
    form.screenshot(path=str(tmp_path / "form.png"))
    body, game_id = create(page, form, ("2", "days"), ("3", "hours"))
    assert body["turn_deadline"]["seconds"] == 172800 and body["lobby_seconds"] == 10800

    expect(page.locator("#table").locator("time.deadline")).to_have_text("2 days left")  # pat's turn, counting down
    page.screenshot(path=str(tmp_path / "table.png"), full_page=True)

    page.goto(f"{server}/")
    entry = page.get_by_role("list", name="Your games").get_by_role("listitem").filter(has_text=game_id)
    expect(entry.locator("time.deadline")).to_have_text("2 days left")
    expect(entry).to_contain_text("2 days per move")
    page.screenshot(path=str(tmp_path / "inbox.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "inbox-phone.png")


def test_a_duration_in_hours_and_minutes_is_sent_in_seconds(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    body, game_id = create(page, page.get_by_role("form", name="New game"), ("90", "minutes"), ("1.5", "hours"))
    assert body["turn_deadline"]["seconds"] == 5400 and body["lobby_seconds"] == 5400
    page.goto(f"{server}/")  # the lobby, where a group looks for a game at its pace
    listed = page.get_by_role("list", name="Games").get_by_role("listitem").filter(has_text=game_id)
    expect(listed).to_contain_text("1 hour 30 minutes per move")
