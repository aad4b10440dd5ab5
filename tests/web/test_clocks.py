"""Clocks on the page: the create form sets a Fischer clock in days, the table counts every
running clock down, shows the others' time and a player on vacation without saying until when,
and a player takes their device's time zone for their weekends."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Browser, Page, Route, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_the_create_form_sets_a_fischer_clock_in_days(page: Page, server: str, tmp_path: Path) -> None:
    register(page, server, "fay")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Seat 2", exact=True).select_option("greedy")
    form.get_by_label("Give each move a deadline").check()
    expect(form.get_by_label("Added after each turn", exact=True)).to_be_hidden()  # per move: no increment
    form.get_by_label("Clock", exact=True).select_option("fischer")
    for label, count in (("Time each seat starts with", "3"), ("Added after each turn", "1"), ("At most", "5")):
        form.get_by_label(label, exact=True).fill(count)
        expect(form.get_by_label(f"{label}: unit")).to_have_value("days")
    expect(form.get_by_label("Vacation days a player may add to each move")).to_be_hidden()  # a vacation stops the clock
    page.set_viewport_size({"width": 1280, "height": 900})
    form.screenshot(path=str(tmp_path / "form.png"))
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "form-phone.png")
    with page.expect_request(lambda request: request.method == "POST" and request.url.endswith("/v1/games")) as sent:
        form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    chosen = sent.value.post_data_json["turn_deadline"]
    assert (chosen["clock"], chosen["seconds"], chosen["increment"], chosen["maximum"]) == ("fischer", 259200, 86400, 432000)
    assert "vacation_days" not in chosen and chosen["weekends"] is False

    seats = page.locator("#table").get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(0).locator("time.clock")).to_have_text("3 days left")  # fay's turn: her clock runs
    expect(seats.nth(1).locator(".clock")).to_have_text("3 days")  # the AI's waits
    game_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{server}/")  # the inbox says the game's pace
    entry = page.get_by_role("list", name="Your games").get_by_role("listitem").filter(has_text=game_id)
    expect(entry).to_contain_text("3 days + 1 day a turn")


def test_the_table_counts_every_running_clock_down(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()
    control = {"clock": "fischer", "seconds": 120, "increment": 5, "maximum": 600, "policy": "skip"}
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 3, "turn_deadline": control}).json()["id"]
    api.call("POST", f"/v1/games/{game_id}/join", ann["token"], json={"name": "ann"})
    for name in ("bo", "cy"):
        api.call("POST", f"/v1/games/{game_id}/join", json={"name": name})
    api.call("PUT", "/v1/players/me/vacation", ann["token"], json={"until": int(time.time() * 1000) + 86_400_000})

    page.goto(f"{server}/games/{game_id}")  # as a spectator
    seats = page.locator("#table").get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(0).locator(".clock")).to_have_text(re.compile(r"^(2 minutes|1 minute \d+ seconds) left · on vacation$"))
    expect(seats.nth(0).locator("time")).to_have_count(0)  # no time to count to: when ann is back is hers
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(tmp_path / "vacation.png"), full_page=True)

    api.call("DELETE", "/v1/players/me/vacation", ann["token"])
    assert api.call("POST", f"/v1/games/{game_id}/commands", ann["token"], json={"type": "draw"}).status_code == 201
    running = seats.nth(1).locator("time.clock")
    expect(running).to_have_text(re.compile(r"^(2 minutes|1 minute \d+ seconds) left$"))
    first = running.inner_text()
    expect(running).not_to_have_text(first, timeout=5000)  # counting down, second by second
    expect(seats.nth(0).locator(".clock")).to_have_text(re.compile(r"^2 minutes( \d+ seconds)?$"))  # ann's, with her increment
    expect(seats.nth(2).locator(".clock")).to_have_text("2 minutes")  # cy's, untouched
    page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "table-phone.png")


def test_a_player_takes_the_time_zone_of_their_device_for_their_weekends(chromium: Browser, api: Client, server: str,
                                                                       tmp_path: Path) -> None:
    paris = chromium.new_context(viewport=PHONE, timezone_id="Europe/Paris")
    page = paris.new_page()
    try:
        register(page, server, "gil")
        settings = page.get_by_role("region", name="Vacation and webhooks")
        settings.get_by_text("Vacation: not away · 30 vacation days left").click()
        zone = settings.get_by_text("Clocks that stop on weekends stop on yours")
        expect(zone).to_have_text("Clocks that stop on weekends stop on yours, in UTC. Use Europe/Paris")
        zone.get_by_role("button", name="Use Europe/Paris").click()
        expect(zone).to_have_text("Clocks that stop on weekends stop on yours, in Europe/Paris.")
        fits(page, tmp_path / "vacation-phone.png")
        token = page.evaluate("JSON.parse(localStorage.getItem('meeple.player')).token")
        assert api.call("GET", "/v1/players/me", token).json()["time_zone"] == "Europe/Paris"
    finally:
        paris.close()


def test_a_table_open_hears_the_opponent_go_on_vacation_and_come_back(page: Page, api: Client, server: str,
                                                                       tmp_path: Path) -> None:
    game_id, ann, bo = table_of_ann_and_bo(page, api, server)
    seats = page.locator("#table").get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(0).locator("time.clock")).to_have_text(re.compile(r"^(3 days|2 days \d+ hours) left$"))  # ann's runs
    expect(page.locator(".live")).to_contain_text("Live")
    page.evaluate("window.stillTheSamePage = true")
    api.call("PUT", "/v1/players/me/vacation", ann["token"], json={"until": int(time.time() * 1000) + 4 * 86_400_000})
    expect(seats.nth(0).locator(".clock")).to_have_text(re.compile(r"^(3 days|2 days \d+ hours) left · on vacation$"))
    expect(seats.nth(0).locator("time")).to_have_count(0)  # nothing counts down, nor says when ann is back
    for width, height, name in ((1280, 800, "vacation.png"), (PHONE["width"], PHONE["height"], "vacation-phone.png")):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(tmp_path / name), full_page=True)
    api.call("DELETE", "/v1/players/me/vacation", ann["token"])
    expect(seats.nth(0).locator("time.clock")).to_have_text(re.compile(r"^(3 days|2 days \d+ hours) left$"))
    assert page.evaluate("window.stillTheSamePage") is True  # heard on the stream, not by reloading


def test_a_clock_message_heard_while_the_table_is_read_is_not_lost(page: Page, api: Client, server: str) -> None:
    game_id, ann, bo = table_of_ann_and_bo(page, api, server)
    expect(page.locator(".live")).to_contain_text("Live")
    held: list[tuple[Route, APIResponse]] = []
    view = re.compile(rf"/v1/games/{game_id}(\?.*)?$")  # the table's read, not its stream's nor its commands'
    page.route(view, lambda route: route.continue_() if held else held.append((route, route.fetch())))  # the first held
    api.call("POST", f"/v1/games/{game_id}/commands", ann["token"], json={"type": "taki.draw"})  # the page reads the table
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not read the table"
    api.call("PUT", "/v1/players/me/vacation", bo["token"], json={"until": int(time.time() * 1000) + 4 * 86_400_000})
    page.wait_for_timeout(1000)  # the stream's clock message comes while the read is under way
    route, answer = held[0]
    route.fulfill(response=answer)  # answered before bo went on vacation
    seats = page.locator("#table").get_by_role("list", name="Seats").get_by_role("listitem")
    expect(seats.nth(1).locator(".clock")).to_contain_text("on vacation")


def table_of_ann_and_bo(page: Page, api: Client, server: str) -> tuple[str, dict[str, Any], dict[str, str]]:
    """A TAKI game with a Fischer clock of days between ann (seat 0) and bo (seat 1), open on bo's page: its id, ann, bo."""
    register(page, server, "bo")
    bo = signed_in(page)
    ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()
    control = {"clock": "fischer", "seconds": 3 * 86400, "increment": 86400, "maximum": 5 * 86400, "policy": "skip"}
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": control}).json()["id"]
    for player in (ann, bo):
        api.call("POST", f"/v1/games/{game_id}/join", player["token"], json={"name": player["name"]})
    page.goto(f"{server}/games/{game_id}")
    return game_id, ann, bo
