"""The leaderboard and the player page in a real browser: rated games between two AI levels,
played by the server's workers, put both on TAKI's leaderboard; its link opens an AI level's page
(by the keyboard), whose chart's points are the rating history the API gives, and whose
head-to-head lists the other level with their games counted, and to a signed-in viewer their own
record against the level first. At 1280 and 375 px."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, register

pytestmark = [pytest.mark.redis, pytest.mark.http]
GAMES = 3


def rated_games(api: Client) -> list[dict[str, object]]:
    """GAMES rated TAKI games between the random and the greedy AI, played to the end by the workers;
    the greedy level's rating history once it counts each of them that counts (a game may end before
    each seat moved twice), and at least one."""
    before, played = len(history(api)), []
    for number in range(GAMES):
        levels = ["random", "greedy"][::1 if number % 2 else -1]
        answer = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "bots": [
            {"seat": seat, "level": level} for seat, level in enumerate(levels)]})
        assert answer.json()["rated"]
        played.append(answer.json()["id"])
    until = time.monotonic() + 60
    while any(api.call("GET", f"/v1/games/{game_id}").json()["status"] != "finished" for game_id in played):
        assert time.monotonic() < until
        time.sleep(0.2)
    points, settled = history(api), time.monotonic() + 2
    while time.monotonic() < settled or len(points) == before:  # the keeper records each finished game once
        assert time.monotonic() < until, points
        time.sleep(0.2)
        if len(latest := history(api)) != len(points):
            points, settled = latest, time.monotonic() + 2
    return points


def history(api: Client) -> list[dict[str, object]]:
    games = api.call("GET", "/v1/players/ai:greedy/ratings").json()["games"]
    return next((each["history"] for each in games if each["game"] == "taki"), [])


def test_the_player_page_charts_the_history_the_api_gives(page: Page, server: str, api: Client, tmp_path: Path) -> None:
    points = rated_games(api)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server}/ratings/taki")
    link = page.get_by_role("link", name="AI (greedy)").first
    expect(link).to_be_visible()
    page.screenshot(path=str(tmp_path / "leaderboard-1280.png"), full_page=True)
    link.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="AI (greedy)", level=1)).to_be_visible()
    chart = page.locator("section.career", has=page.get_by_role("heading", name="TAKI")).locator("svg.chart")
    expect(chart.locator("circle")).to_have_count(len(points))
    drawn = chart.locator("circle").evaluate_all("(circles) => circles.map((c) => [c.dataset.gameId, Number(c.dataset.rating)])")
    assert drawn == [[point["game_id"], point["rating"]] for point in points]
    expect(page.get_by_role("link", name="TAKI,").first).to_have_attribute("href", f"/games/{points[-1]['game_id']}/replay")
    met = page.locator("ul.opponents li", has=page.get_by_role("link", name="AI (random)"))
    expect(met).to_contain_text(re.compile(r": \d+ together, ahead \d+, behind \d+, tied \d+"))
    page.screenshot(path=str(tmp_path / "player-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "player-375.png")
    page.goto(f"{server}/ratings/taki")
    expect(page.get_by_role("link", name="AI (greedy)").first).to_be_visible()
    fits(page, tmp_path / "leaderboard-375.png")
    register(page, server, "cy")
    page.goto(f"{server}/players/ai:greedy")
    expect(page.get_by_role("heading", name="You against AI (greedy)")).to_be_visible()
    expect(page.get_by_text("No rated game together yet.")).to_be_visible()
    fits(page, tmp_path / "player-signed-in-375.png")


def test_a_rated_game_says_so_on_its_table(page: Page, server: str, api: Client) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "rated": True}).json()["id"]
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator(".game-head .badge.rated")).to_have_text("Rated")
    unrated = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    page.goto(f"{server}/games/{unrated}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(unrated)
    expect(page.locator(".game-head .badge.rated")).to_be_hidden()
