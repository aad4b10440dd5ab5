"""The leaderboard and the player page in a real browser: rated games between two AI levels,
played by the server's workers, put both on TAKI's leaderboard; its link opens an AI level's page
(by the keyboard), whose chart's points are the rating history the API gives, and whose
head-to-head lists the other level with their games counted, and to a signed-in viewer their own
record against the level first; on a server giving each history's latest three points only, the chart
says it shows the latest of them, each drawn where its rating reads. Head to head that fails to load says why once, whatever the
tries, and offers to try again. At 1280 and 375 px."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.integration.clients import Client
from tests.integration.conftest import serving
from tests.web.conftest import PHONE, SETTINGS
from tests.web.pages import fits, register

pytestmark = [pytest.mark.redis, pytest.mark.http]
GAMES = 3
POINTS = 3  # the latest points of a history the server gives: fewer than the games that count (four at least are played to count)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `meeple serve` of this module's own, giving each rating history's latest POINTS points."""
    with serving(tmp_path_factory.mktemp("serve"), {**SETTINGS, "MEEPLE_RATING_HISTORY_POINTS": str(POINTS)}) as url:
        yield url


def rated_games(api: Client) -> list[dict[str, object]]:
    """The greedy level's rating history once at least POINTS + 1 more rated TAKI games between the
    random and the greedy AI count (a game may end before each seat moved twice, and count for
    nothing): GAMES at a time, played to the end by the workers."""
    before = total(api)
    for _ in range(5):
        played(api)
        if total(api) >= before + POINTS + 1:
            return history(api)
    raise AssertionError(f"fewer than {POINTS + 1} of {5 * GAMES} rated games counted")


def played(api: Client) -> None:
    """Play GAMES rated TAKI games between the random and the greedy AI, and wait for the keeper to count those that count."""
    before, played = total(api), []
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
    counted, settled = total(api), time.monotonic() + 2
    while time.monotonic() < settled:  # the keeper records each finished game once
        time.sleep(0.2)
        if (latest := total(api)) != counted:
            counted, settled = latest, time.monotonic() + 2
        assert time.monotonic() < until or counted > before, counted


def taki(api: Client) -> dict[str, Any]:
    """The greedy level's TAKI career, as the API gives it (empty before its first rated game)."""
    games = api.call("GET", "/v1/players/ai:greedy/ratings").json()["games"]
    return next((each for each in games if each["game"] == "taki"), {"history": [], "history_total": 0})


def history(api: Client) -> list[dict[str, object]]:
    return list(taki(api)["history"])


def total(api: Client) -> int:
    return int(taki(api)["history_total"])


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
    for _ in range(3):  # the keeper may count a late game between the API's read and the page's: read both again
        expect(chart.locator("circle")).to_have_count(len(points))
        drawn = chart.locator("circle").evaluate_all(
            "(circles) => circles.map((c) => [c.dataset.gameId, Number(c.dataset.rating), c.cx.baseVal.value, c.cy.baseVal.value])")
        if [game_id for game_id, _, _, _ in drawn] == [point["game_id"] for point in points]:
            break
        points, _ = history(api), page.reload()
    assert [[game_id, rating] for game_id, rating, _, _ in drawn] == [[point["game_id"], point["rating"]] for point in points]
    counted = page.get_by_text(re.compile(rf"^Latest {POINTS} of \d+ rated games"))
    expect(counted).to_be_visible()  # of those counted when the page read them (the keeper may count one more since)
    assert POINTS < int(re.findall(r"\d+", counted.inner_text())[1]) <= total(api)
    # drawn where they read: oldest first from the left, a higher rating higher up (SVG's y grows downwards)
    assert [x for _, _, x, _ in drawn] == sorted({x for _, _, x, _ in drawn})
    for (_, rating, _, y), (_, other, _, other_y) in itertools.combinations(drawn, 2):
        assert (rating > other) == (y < other_y) and (rating == other) == (y == other_y), drawn
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


def test_head_to_head_that_fails_to_load_says_why_once_and_offers_to_try_again(page: Page, server: str, api: Client,
                                                                               tmp_path: Path) -> None:
    if not total(api):
        rated_games(api)
    failures = [2]

    def unavailable(route: Route) -> None:
        if failures[0]:
            failures[0] -= 1
            route.fulfill(status=503, content_type="application/problem+json",
                          body=json.dumps({"title": "Unavailable", "status": 503, "detail": "The store is away for now."}))
        else:
            route.continue_()

    page.route(re.compile(r".*/v1/players/ai(:|%3A)greedy/opponents\?.*"), unavailable)
    page.goto(f"{server}/players/ai:greedy")
    again, why = page.get_by_role("button", name="Try again"), page.get_by_text("The store is away for now.")
    expect(again).to_be_visible()
    again.click()
    expect(why).to_have_count(1)  # the second failure's notice in the first's place
    page.screenshot(path=str(tmp_path / "head-to-head-failed-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "head-to-head-failed-375.png")
    again.focus()
    page.keyboard.press("Enter")
    expect(page.locator("ul.opponents li", has=page.get_by_role("link", name="AI (random)"))).to_be_visible()
    expect(why).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("Try again|More"))).to_have_count(0)  # one opponent: no next page
