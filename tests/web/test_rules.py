"""Each game's rules are a page of Meeple: the create form links to it, each option to the section
its description cites, and the table has a "Rules" link; the page reads at a phone's width. Seats
are numbered from 1 wherever people read them: the create form's first seat and the table's seats."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_an_option_links_to_the_section_it_cites(page: Page, server: str, tmp_path: Path) -> None:
    page.goto(f"{server}/")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Game").select_option("bahama_taxi")
    form.locator("summary").filter(has_text="options").click()
    cited = form.locator("[data-field='options.cabs_per_player']").get_by_role("link", name="§11.8")
    expect(cited).to_have_attribute("href", "/rules/bahama_taxi#s11.8")
    cited.click()
    expect(page).to_have_url(f"{server}/rules/bahama_taxi#s11.8")
    section = page.locator("[id='s11.8']")
    expect(section).to_have_text(re.compile(r"^11\.8 Two cabs"))
    expect(section).to_be_in_viewport()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(tmp_path / "rules-1280.png"))
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "rules-375.png")
    page.locator("[id='s11.8']").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "rules-375-section.png"))


def test_the_form_and_the_table_number_seats_from_1(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    page.goto(f"{server}/")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Game").select_option("taki")
    form.locator("summary").filter(has_text="options").click()
    first = form.get_by_label("First seat")
    expect(first).to_have_value("1")
    expect(form.locator("[data-field='options.first_seat'] .hint")).to_contain_text("(1 to 10); default 1.")
    expect(form.get_by_role("link", name="The rules of TAKI")).to_have_attribute("href", "/rules/taki")
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "form-375.png")
    first.fill("2")
    form.get_by_label("Take a seat myself").check()
    form.get_by_label("Your name").fill("ann")
    form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    assert api.call("GET", f"/v1/games/{game_id}").json()["options"]["first_seat"] == 1  # the API counts from 0
    expect(page.get_by_role("list", name="Seats").get_by_role("listitem")).to_have_text([re.compile(r"^Seat 1: ann"), re.compile(r"^Seat 2: free")])
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page).to_have_url(f"{server}/rules/taki")
    expect(page.get_by_role("heading", level=1)).to_contain_text("TAKI")
    page.screenshot(path=str(tmp_path / "rules-top-1024.png"))
