"""A seat taken without registering moves to another browser by its link: the token travels in the
address's fragment, the other browser keeps it and plays the seat."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import DESKTOP, PHONE
from tests.web.pages import fits, play_a_turn

pytestmark = [pytest.mark.redis, pytest.mark.http]


@pytest.fixture
def browsers(chromium: Browser, tmp_path: Path) -> Iterator[tuple[Page, Page]]:
    """Two pages, each in a browser profile of its own; each saves its last sight."""
    contexts = [chromium.new_context(viewport=DESKTOP) for _ in range(2)]
    opened = [context.new_page() for context in contexts]
    errors: list[str] = []
    for page in opened:
        page.on("pageerror", lambda error: errors.append(str(error)))
    yield opened[0], opened[1]
    for index, page in enumerate(opened):
        page.screenshot(path=str(tmp_path / f"last-{index}.png"), full_page=True)
    for context in contexts:
        context.close()
    assert not errors, errors


def ann_against_bo(page: Page, api: Client, server: str) -> tuple[str, str]:
    """A two-seat TAKI game whose seat 1 `page` took as ann, without registering, and bo the other; its id and bo's token."""
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("ann")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann (you)")
    return game_id, api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]


def test_an_anonymous_seat_opens_in_another_browser_by_its_link(
        browsers: tuple[Page, Page], api: Client, server: str, tmp_path: Path) -> None:
    first, second = browsers
    game_id, bo = ann_against_bo(first, api, server)
    expect(first.locator(".headline")).to_have_text(re.compile("^(Your turn|Waiting for bo)$"))  # the game has begun

    link = first.get_by_label("Link to this seat")
    expect(link).to_be_hidden()  # shown on request only
    first.get_by_text("Use this seat on another device").click()
    expect(first.get_by_text("Whoever has this link plays this seat")).to_be_visible()
    token = first.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
    url = link.input_value()
    assert url == f"{server}/games/{game_id}#seat={token}"
    first.set_viewport_size({"width": 1280, "height": 800})
    first.screenshot(path=str(tmp_path / "seat-link-1280.png"), full_page=True)
    first.set_viewport_size(PHONE)
    fits(first, tmp_path / "seat-link-375.png")

    second.goto(url)
    expect(second.get_by_role("list", name="Seats")).to_contain_text("ann (you)")
    assert second.evaluate("location.hash") == ""  # the token leaves the address bar at once
    assert second.evaluate("location.href") == f"{server}/games/{game_id}"
    if api.call("GET", f"/v1/games/{game_id}").json()["to_move"] == [1]:
        command = api.call("GET", f"/v1/games/{game_id}/legal-commands", bo).json()["commands"][0]
        assert api.call("POST", f"/v1/games/{game_id}/commands", bo, json=command).status_code == 201
    expect(second.locator(".headline")).to_have_text("Your turn")
    before = api.call("GET", f"/v1/games/{game_id}").json()["version"]
    play_a_turn(second)
    deadline = time.monotonic() + 10
    while api.call("GET", f"/v1/games/{game_id}").json()["version"] == before:
        assert time.monotonic() < deadline, "the move was not sent"
        time.sleep(0.05)


def test_a_new_link_makes_the_old_one_play_no_more(browsers: tuple[Page, Page], api: Client, server: str,
                                                    tmp_path: Path) -> None:
    first, second = browsers
    game_id, _ = ann_against_bo(first, api, server)
    first.get_by_text("Use this seat on another device").click()
    old = first.get_by_label("Link to this seat").input_value()
    second.goto(old)  # the link shared by mistake
    expect(second.get_by_role("list", name="Seats")).to_contain_text("ann (you)")
    stale = old.rsplit("#seat=", 1)[1]

    first.get_by_role("button", name="Make a new link").click()
    expect(first.get_by_label("Link to this seat")).not_to_have_value(old)  # shown at once, where the old one was
    new = first.get_by_label("Link to this seat").input_value()
    assert new.rsplit("#seat=", 1)[1] == first.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
    assert api.call("GET", f"/v1/games/{game_id}", stale).status_code == 401
    expect(first.get_by_role("list", name="Seats")).to_contain_text("ann (you)")  # the page plays on with the new one
    first.set_viewport_size({"width": 1280, "height": 800})
    first.screenshot(path=str(tmp_path / "new-link-1280.png"), full_page=True)
    first.set_viewport_size(PHONE)
    fits(first, tmp_path / "new-link-375.png")
