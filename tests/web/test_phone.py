"""At a phone's width (375 or 390 px) every page fits: nothing reaches past the right edge, so
nothing needs a sideways scroll, not even a name of 44 letters with no break point. An address
that names no game says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import OVERFLOWING, await_turn, finished_taki, fits, register, settled

pytestmark = [pytest.mark.redis, pytest.mark.http]

def test_every_page_fits_a_phone(context: BrowserContext, page: Page, api: Client, server: str, tmp_path: Path) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/")
    expect(page.get_by_role("form", name="New game")).to_be_visible()
    fits(page, tmp_path / "home.png")

    register(page, server, "gil")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Number of seats").fill("4")
    form.get_by_label("Seat 2", exact=True).select_option("search")  # with its budget fields
    form.get_by_label("Give each move a deadline").check()
    form.get_by_label("When the time is up").select_option("auto")
    expect(form.get_by_label("Budget: iterations").first).to_be_visible()
    fits(page, tmp_path / "form.png")

    form.get_by_label("Seat 2", exact=True).select_option("greedy")
    form.get_by_label("Seat 3", exact=True).select_option("greedy")
    form.get_by_label("Seat 4", exact=True).select_option("random")
    form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    await_turn(page)
    expect(page.get_by_role("region", name="Your hand").get_by_role("list").get_by_role("button")).to_have_count(8)
    fits(page, tmp_path / "table.png")

    page.goto(f"{server}/")
    expect(page.get_by_role("list", name="Your games").get_by_role("listitem")).to_have_count(1)
    fits(page, tmp_path / "inbox.png")


def test_a_replay_fits_a_phone(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = finished_taki(api)
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/games/{game_id}/replay?seat=0")
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    fits(page, tmp_path / "replay.png")
    page.get_by_role("button", name="Last").click()
    settled(page, api.call("GET", f"/v1/games/{game_id}").json()["version"])
    expect(page.get_by_role("region", name="Result")).to_be_visible()
    fits(page, tmp_path / "replay-end.png")


WIDE = {"width": 390, "height": 844}  # a common phone
LONG_NAMES = ("Wolfeschlegelsteinhausenbergerdorffvoraltere", "Hubert" * 7 + "Bl")  # 44 letters, no break point


def no_sideways_scroll(page: Page, shot: Path) -> None:
    """The page, saved as `shot`, is no wider than the phone's screen."""
    page.screenshot(path=str(shot), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDE["width"], page.evaluate(OVERFLOWING)


def test_long_unbroken_names_fit_a_phone(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    assert {len(name) for name in LONG_NAMES} == {44}
    playing = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    token = [api.call("POST", f"/v1/games/{playing}/join", json={"name": name}).json()["token"] for name in LONG_NAMES][0]
    finished = finished_taki(api, LONG_NAMES)
    page.set_viewport_size(WIDE)

    page.goto(f"{server}/games/{playing}")
    expect(page.locator(".headline")).to_contain_text(LONG_NAMES[0])
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    move = api.call("GET", f"/v1/games/{playing}/legal-commands", token).json()["commands"][0]
    api.call("POST", f"/v1/games/{playing}/commands", token, json=move)
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text(LONG_NAMES[0])
    no_sideways_scroll(page, tmp_path / "table.png")

    page.goto(f"{server}/games/{finished}")
    expect(page.get_by_role("region", name="Result")).to_be_visible()
    no_sideways_scroll(page, tmp_path / "result.png")

    page.goto(f"{server}/games/{finished}/replay?seat=0")
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    page.get_by_role("button", name="Last").click()
    settled(page, api.call("GET", f"/v1/games/{finished}").json()["version"])
    expect(page.get_by_role("region", name="Result")).to_be_visible()
    no_sideways_scroll(page, tmp_path / "replay.png")


@pytest.mark.parametrize("path", ["/games/%E0%A4%A", "/games/%E0%A4%A/replay"])
def test_a_malformed_address_says_it_is_not_a_game(page: Page, server: str, path: str, tmp_path: Path) -> None:
    page.goto(f"{server}{path}")
    expect(page.get_by_role("heading", name="Not a game")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("This address names no game")
    page.screenshot(path=str(tmp_path / "not-a-game.png"))
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.get_by_role("form", name="New game")).to_be_visible()
