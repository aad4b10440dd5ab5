"""Durations as people say them: the create form takes a number of days, hours or minutes and sends
seconds; the table and the inbox show the time left, and the inbox and the lobby the time each move
may take, in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE
from tests.web.pages import fits, register

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_a_game_with_two_days_per_move_is_sent_in_seconds_and_shown_in_days(page: Page, server: str, tmp_path: Path) -> None:
    register(page, server, "pat")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Seat 2", exact=True).select_option("greedy")
    form.get_by_label("Give each move a deadline").check()
    expect(form.get_by_label("Time for each move", exact=True)).to_have_value("1")  # a day, unless changed
    expect(form.get_by_label("Time for each move: unit")).to_have_value("days")
    form.get_by_label("Time for each move", exact=True).fill("2")
    form.get_by_label("Lobby time", exact=True).fill("3")
    form.get_by_label("Lobby time: unit").select_option("hours")
    page.set_viewport_size({"width": 1280, "height": 800})
    form.screenshot(path=str(tmp_path / "form.png"))
    with page.expect_request(lambda request: request.method == "POST" and request.url.endswith("/v1/games")) as sent:
        form.get_by_role("button", name="Create game").click()
    body = sent.value.post_data_json
    assert body["turn_deadline"]["seconds"] == 172800 and body["lobby_seconds"] == 10800

    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
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
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Give each move a deadline").check()
    form.get_by_label("Time for each move", exact=True).fill("90")
    form.get_by_label("Time for each move: unit").select_option("minutes")
    form.get_by_label("Lobby time", exact=True).fill("1.5")
    form.get_by_label("Lobby time: unit").select_option("hours")
    with page.expect_request(lambda request: request.method == "POST" and request.url.endswith("/v1/games")) as sent:
        form.get_by_role("button", name="Create game").click()
    body = sent.value.post_data_json
    assert body["turn_deadline"]["seconds"] == 5400 and body["lobby_seconds"] == 5400
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{server}/")  # the lobby, where a group looks for a game at its pace
    listed = page.get_by_role("list", name="Games").get_by_role("listitem").filter(has_text=game_id)
    expect(listed).to_contain_text("1 hour 30 minutes per move")
