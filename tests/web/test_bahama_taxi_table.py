"""A person plays Bahama Taxi in the browser against the server's AI, only by clicking what the
table lights up or offers: a base game to its end, and the two-cab, dice and Contraband games for
ten turns and more; a spectator sees the city and an AI's drive arrive live."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domain.bahama_taxi.board import DISTANCE
from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import await_turn, headline, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

BOARDING = re.compile(r"^(Pick up|Collect|Let) ")
AREA = re.compile(r"(10|[2-9AKQJ])([♠♥♣♦])")
SUIT_LETTERS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


def seated_game(page: Page, api: Client, server: str, seats: int, **options: Any) -> str:
    """A game the page's new player sits at, seat 1, the others the greedy AI's; its table open."""
    register(page, server, "ann")
    me = signed_in(page)
    game_id = api.call("POST", "/v1/games", me["token"], json={
        "game": "bahama_taxi", "seats": seats, "options": options,
        "bots": [{"seat": seat, "level": "greedy"} for seat in range(1, seats)],
        "reserved": [{"seat": 0, "player": me["id"]}]}).json()["id"]
    api.call("POST", f"/v1/games/{game_id}/join", me["token"], json={"name": "ann", "seat": 0})
    page.goto(f"{server}/games/{game_id}")
    expect(page.get_by_role("group", name="The city")).to_be_visible()
    return str(game_id)


def area_of(words: str) -> str:
    """The area first named in `words`, as the server names it: "10♥" → "10H"."""
    rank, suit = AREA.search(words).groups()  # type: ignore[union-attr]
    return rank + SUIT_LETTERS[suit]


def nearest_to_a_citizen(page: Page, areas: Any) -> Any:
    """Of the lit areas, the one closest to where a citizen waits (the waiting list's origins)."""
    waiting = [area_of(trip.split(" → ")[0]) for trip in
               page.get_by_role("region", name="Waiting citizens").get_by_role("listitem").all_inner_texts()]
    lit = areas.all()
    return min(lit, key=lambda area: min((DISTANCE[area_of(area.get_attribute("aria-label") or "")][origin]
                                          for origin in waiting), default=0))


def click(page: Page, turn: int, seeking: bool) -> str:
    """One click as a hurried player makes it: take whoever may board, else a lit area of the map
    where someone waits or gets out, else another lit area — the one nearest a waiting citizen
    when `seeking`, else the next in turn (the first choice if it asks) — else the first action
    offered; what was clicked."""
    actions = page.get_by_role("region", name="Actions")
    boarding = actions.get_by_role("button", name=BOARDING)
    if boarding.count():
        chosen = boarding.first.inner_text()
        boarding.first.click()
        return chosen
    areas = page.get_by_role("group", name="The city").get_by_role("button")
    worth = page.get_by_role("group", name="The city").get_by_role("button", name=re.compile("waits|gets out here"))
    if areas.count():
        area = worth.first if worth.count() else nearest_to_a_citizen(page, areas) if seeking else areas.nth(turn % areas.count())
        chosen = area.get_attribute("aria-label") or ""
        area.click()
        chooser = page.get_by_role("group", name=re.compile("^Choose for "))
        if chooser.count():
            choice = chooser.get_by_role("button").first
            chosen += f": {choice.inner_text()}"
            choice.click()
        return chosen
    action = actions.get_by_role("button").first
    chosen = action.inner_text()
    action.click()
    return chosen


def play(page: Page, clicks: int | None = None, shots: Path | None = None, seeking: bool = False) -> list[str]:
    """Click while it is the player's turn, up to `clicks` (else to the end); what was clicked."""
    done: list[str] = []
    while await_turn(page) == "Your turn" and (clicks is None or len(done) < clicks):
        assert len(done) < 400, done[-20:]
        done.append(click(page, len(done), seeking))
        if shots and len(done) == 3:
            page.screenshot(path=str(shots / "playing.png"), full_page=True)
    return done


def test_a_base_game_is_played_to_the_end_by_clicking(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = seated_game(page, api, server, 3, max_rounds=12)
    expect(page.get_by_role("list", name="Seats")).to_contain_text("income 0")
    expect(page.get_by_role("region", name="Waiting citizens").get_by_role("listitem")).to_have_count(8)
    page.evaluate("window.notReloaded = true")
    clicks = play(page, shots=tmp_path, seeking=True)
    assert sum(1 for chosen in clicks if chosen.startswith("Drive to ")) >= 10, clicks
    expect(page.get_by_role("region", name="Result")).to_contain_text("Final ranking")
    assert any(BOARDING.match(chosen) for chosen in clicks), clicks
    assert page.evaluate("window.notReloaded") is True
    assert "greedy bot drove" in page.get_by_role("list", name="Recent moves").inner_text() or any(
        event["type"] == "game_ended" for event in api.all_events(game_id))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


def test_two_cabs_are_driven_for_ten_turns(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    seated_game(page, api, server, 2, cabs_per_player=2, two_cab_mode="both")
    expect(page.get_by_role("list", name="Seats")).to_contain_text("Cab 1b")
    clicks = play(page, 30, tmp_path)
    drives = [chosen for chosen in clicks if re.match(r"^(Drive cab 1[ab]|.*: Drive cab 1[ab])", chosen)]
    assert {"1a", "1b"} <= {re.search(r"cab (1[ab])", chosen).group(1) for chosen in drives}, clicks  # type: ignore[union-attr]
    assert len(drives) >= 10, clicks


def test_the_dice_game_is_stepped_for_ten_turns(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    seated_game(page, api, server, 2, dice=True, max_rounds=60)
    clicks = play(page, 40, tmp_path)
    assert sum(1 for chosen in clicks if chosen.startswith("Step to ")) >= 10, clicks
    assert "rolled" in page.get_by_role("list", name="Recent moves").inner_text()


def test_contraband_is_smuggled_and_policed_for_ten_turns(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    seated_game(page, api, server, 2, contraband=True)
    expect(page.get_by_role("group", name="The city").get_by_role("button", name=re.compile("^Police on 3"))).to_have_count(2)
    clicks = play(page, 30, tmp_path)
    assert clicks[0].startswith("Police on 3"), clicks
    assert any(chosen.startswith("Drive the police") for chosen in clicks), clicks
    assert sum(1 for chosen in clicks if chosen.startswith("Drive the ") or ": Drive the " in chosen) >= 10, clicks


def test_a_spectator_sees_the_city_and_an_ai_drive_live(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "bahama_taxi", "seats": 2, "bots": [{"seat": 1, "level": "greedy"}]}).json()["id"]
    token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo", "seat": 0}).json()["token"]
    page.goto(f"{server}/games/{game_id}")
    city = page.get_by_role("group", name="The city")
    expect(city).to_be_visible()
    assert headline(page) == "Waiting for bo"
    expect(city.get_by_role("button")).to_have_count(0)  # a spectator chooses nothing
    expect(page.get_by_role("region", name="Waiting citizens").get_by_role("listitem")).to_have_count(8)
    while api.call("GET", f"/v1/games/{game_id}").json()["to_move"] == [0]:  # bo's turn to its end (a drive may ask more)
        move = api.call("GET", f"/v1/games/{game_id}/legal-commands", token).json()["commands"][0]
        api.call("POST", f"/v1/games/{game_id}/commands", token, json=move)
    recent = page.get_by_role("list", name="Recent moves")
    expect(recent).to_contain_text(re.compile(r"bo drove \S+ → "))
    expect(recent).to_contain_text("greedy bot drove", timeout=20_000)
    page.screenshot(path=str(tmp_path / "desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
