"""A person plays TAKI in the browser: registers, creates a game against the server's AI from the
lobby form, finds it in the inbox as their turn, and plays it to the end by clicking while the
AI's moves arrive live; a spectator follows a game from its address alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.web.pages import await_turn, play_a_turn, register

pytestmark = [pytest.mark.redis, pytest.mark.http]

MAX_TURNS = 300


def test_a_player_creates_a_game_against_two_ais_and_plays_it_to_the_end(page: Page, server: str, tmp_path: Path) -> None:
    register(page, server, "ann")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Game", exact=True).select_option("taki")
    form.get_by_label("Number of seats").fill("3")
    form.get_by_label("Seat 2", exact=True).select_option("greedy")
    form.get_by_label("Seat 3", exact=True).select_option("random")
    form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("list", name="Seats")).to_contain_text("greedy bot")

    page.goto(f"{server}/")  # the inbox: this game, where it is ann's turn, comes first
    first = page.get_by_role("list", name="Your games").get_by_role("listitem").first
    expect(first).to_contain_text(game_id)
    expect(first).to_contain_text("Your turn")
    page.screenshot(path=str(tmp_path / "inbox.png"), full_page=True)
    first.get_by_role("link").click()
    expect(page).to_have_url(f"{server}/games/{game_id}")
    expect(page).to_have_title(re.compile(r"^TAKI · (Your turn|Waiting for .*) · Meeple$"))
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()

    page.evaluate("window.notReloaded = true")
    clicks, ai_seen = [], False
    while await_turn(page) == "Your turn":
        assert len(clicks) < MAX_TURNS, clicks[-20:]
        clicks.append(play_a_turn(page))
        if len(clicks) == 1:
            page.screenshot(path=str(tmp_path / "playing.png"), full_page=True)
        ai_seen = ai_seen or "bot played" in page.get_by_role("list", name="Recent moves").inner_text()
    assert ai_seen, "no AI move was shown"
    assert page.evaluate("window.notReloaded") is True  # every move arrived without a reload
    expect(page.get_by_role("region", name="Result")).to_contain_text("Final ranking")
    assert not page.get_by_role("region", name="Actions").count()


def test_a_spectator_opens_a_game_by_its_address_and_follows_it(
        context: BrowserContext, page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "cy"})
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator(".headline")).to_have_text("Waiting for bo")
    seats = page.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("bo")
    expect(seats).to_contain_text("8 cards")
    expect(page.get_by_text(re.compile(r"^Draw pile: \d+$"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Top: "))).to_be_visible()
    expect(page.get_by_text(re.compile(r"Active colour: (red|blue|green|yellow) \([RBGY]\)"))).to_be_visible()
    assert not page.get_by_role("region", name="Your hand").count()
    assert not page.get_by_role("region", name="Actions").count()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()

    draw = {"type": "taki.draw"}
    api.call("POST", f"/v1/games/{game_id}/commands", token, json=draw)  # bo draws: the page shows it by itself
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("bo drew a card")
    expect(page.locator(".headline")).to_have_text("Waiting for cy")
    expect(seats.get_by_role("listitem").first).to_contain_text("9 cards")
