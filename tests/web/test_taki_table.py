"""A person plays TAKI in the browser: registers, creates a game against the server's AI from the
lobby form, finds it in the inbox as their turn, and plays it to the end by clicking while the
AI's moves arrive live; a spectator follows a game from its address alone."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.web.pages import await_turn, play_a_batch, play_a_turn, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

MAX_TURNS = 300
CHANGE_COLOR = re.compile(r"^none\.change_color\.\d$")


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
    expect(page).to_have_title(re.compile(rf"^(Your turn|Waiting for .*) · TAKI · {re.escape(game_id)} · Meeple$"))
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()

    page.evaluate("window.notReloaded = true")
    clicks, ai_seen, batches = [], False, []
    while await_turn(page) == "Your turn":
        assert len(clicks) < MAX_TURNS, clicks[-20:]
        batch = None if batches else play_a_batch(page)  # one batch when the hand offers one (test_a_run_is_played_as_a_batch makes sure)
        if batch:
            batches.append(batch)
        clicks.append(batch or play_a_turn(page, keyboard=len(clicks) % 2 == 1))  # the mouse and the keyboard by turns
        if len(clicks) == 1:
            page.screenshot(path=str(tmp_path / "playing.png"), full_page=True)
        ai_seen = ai_seen or "bot played" in page.get_by_role("list", name="Recent moves").inner_text()
    assert ai_seen, "no AI move was shown"
    assert page.evaluate("window.notReloaded") is True  # every move arrived without a reload
    expect(page.get_by_role("region", name="Result")).to_contain_text("Final ranking")
    assert not page.get_by_role("region", name="Actions").count()


def test_a_card_that_needs_a_colour_asks_for_it_in_place(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    register(page, server, "jo")
    me = signed_in(page)
    game_id = _turn_with_a_change_color_card(api, me["id"], me["token"])
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator(".headline")).to_have_text("Your turn")
    version = api.call("GET", f"/v1/games/{game_id}", me["token"]).json()["version"]
    expect(page.locator("#table")).to_have_attribute("data-version", str(version))
    hand = page.get_by_role("region", name="Your hand")
    playable = hand.locator("button.card:enabled")
    playable.first.focus()  # the arrow keys go from one playable card to the next, round
    page.keyboard.press("ArrowRight")
    expect(playable.nth(1 % playable.count())).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(playable.first).to_be_focused()
    hand.get_by_role("button", name="Play Change colour").first.click()
    chooser = page.get_by_role("group", name="Choose how to play Change colour")
    expect(chooser.get_by_role("button", name=re.compile(r"^(Red|Blue|Green|Yellow)$"))).to_have_count(4)
    page.screenshot(path=str(tmp_path / "chooser.png"), full_page=True)
    chooser.get_by_role("button", name="Blue").click()
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("jo chose blue")
    seat = api.call("GET", f"/v1/games/{game_id}", me["token"]).json()["you"]
    chosen = [event["payload"]["color"] for event in api.all_events(game_id)
              if event["type"] == "color_chosen" and event["payload"]["seat"] == seat]
    assert chosen[-1] == "blue"  # jo's own choice: the AI may have moved on since, and chosen another


def test_a_run_is_played_as_a_batch(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    register(page, server, "jo")
    me = signed_in(page)
    game_id = _turn_where(api, me["id"], me["token"], _may_open_a_run)
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator(".headline")).to_have_text("Your turn")
    view = api.call("GET", f"/v1/games/{game_id}", me["token"]).json()
    expect(page.locator("#table")).to_have_attribute("data-version", str(view["version"]))
    legal = api.call("GET", f"/v1/games/{game_id}/legal-commands", me["token"]).json()["commands"]
    taki = next(command["card"] for command in legal if _opens_a_run(view, command))
    color = taki.split(".")[0]
    hand = page.get_by_role("region", name="Your hand")
    hand.get_by_role("button", name="Play several cards at once…").click()
    composer = hand.get_by_role("group", name="Several cards at once")
    expect(composer).to_have_attribute("aria-busy", "false")
    hand.locator(f'[data-key="card:{taki}"]').click()
    expect(composer).to_have_attribute("aria-busy", "false")
    following = hand.get_by_role("button", name=re.compile(f"^Add {color} (?!TAKI)"))  # a run may not close on a TAKI card
    expect(following.first).to_be_visible()
    following.first.click()
    expect(composer).to_have_attribute("aria-busy", "false")
    expect(composer).to_contain_text(f"Batch: {color} TAKI, then {color} ")
    page.screenshot(path=str(tmp_path / "batch.png"), full_page=True)
    composer.get_by_role("button", name="Play these 2 and close the run", exact=True).click()
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("jo opened a TAKI run")
    played = [event for event in api.all_events(game_id)
              if event["version"] > view["version"] and event["type"] == "card_played" and event["payload"]["seat"] == view["you"]]
    assert len(played) >= 2 and played[0]["command_id"] == played[1]["command_id"]  # both cards in one command
    assert all(event["command_id"] != played[0]["command_id"] for event in played[2:])
    assert played[0]["payload"]["card"] == taki and played[1]["payload"]["card"].startswith(f"{color}.")


TAKI = re.compile(r"^(red|blue|green|yellow)\.taki\.\d$")


def _may_open_a_run(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """The seat may play a coloured TAKI card and holds another card of its colour (not a TAKI card)."""
    return any(_opens_a_run(view, command) for command in legal)


def _opens_a_run(view: dict[str, Any], command: dict[str, Any]) -> bool:
    card = command.get("card", "")
    return bool(TAKI.match(card)) and any(
        other.startswith(card.split(".")[0] + ".") and not TAKI.match(other) for other in view["table"]["hand"])


def _turn_with_a_change_color_card(api: Client, player_id: str, token: str) -> str:
    return _turn_where(api, player_id, token, lambda view, legal: any(CHANGE_COLOR.match(c.get("card", "")) for c in legal))


def _turn_where(api: Client, player_id: str, token: str, wanted: Callable[[dict[str, Any], list[dict[str, Any]]], bool]) -> str:
    """A game where the player's turn is `wanted` (given its view and legal commands): a game of two
    AIs played to its end, forked at the first turn whose seat's is, that seat the player's."""
    for _ in range(6):
        origin = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "bots": [
            {"seat": 0, "level": "greedy"}, {"seat": 1, "level": "greedy"}]}).json()["id"]
        deadline = time.monotonic() + 90  # the AIs' worker runs at a lower priority than the browsers beside it
        while api.call("GET", f"/v1/games/{origin}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for event in api.all_events(origin):
            if event["type"] != "turn_started":
                continue
            seat = event["payload"]["seat"]
            forked = api.call("POST", f"/v1/games/{origin}/fork", token, json={
                "version": event["version"], "bots": [{"seat": 1 - seat, "level": "greedy"}],
                "reserved": [{"seat": seat, "player": player_id}]})
            if forked.status_code != 201:  # a turn may start inside a move (not_a_move_boundary)
                continue
            fork = forked.json()["id"]
            api.call("POST", f"/v1/games/{fork}/join", token, json={"name": "jo", "seat": seat})
            legal = api.call("GET", f"/v1/games/{fork}/legal-commands", token).json()["commands"]
            if wanted(api.call("GET", f"/v1/games/{fork}", token).json(), legal):
                return str(fork)
    raise AssertionError("six games of AIs never gave a seat the turn wanted")


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


def test_a_refused_command_shows_the_servers_detail(page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    page.route(re.compile(r"/v1/games/[^/]+/stream"), lambda route: route.fulfill(status=503))  # the page hears of no move
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("kim")
    page.get_by_role("button", name="Take seat 1").click()
    deadline = time.monotonic() + 10
    while api.call("GET", f"/v1/games/{game_id}").json()["seats"][0]["name"] != "kim":  # the page's join is in
        assert time.monotonic() < deadline
        time.sleep(0.05)
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "lou", "seat": 1})
    page.reload()
    expect(page.locator(".headline")).to_have_text("Your turn")
    token = page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
    api.call("POST", f"/v1/games/{game_id}/commands", token, json={"type": "taki.draw"})  # kim's seat moves elsewhere
    page.get_by_role("button", name="Draw").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile(r"version"))
    expect(page.locator(".headline")).to_have_text("Waiting for lou")  # and the table is read again
    page.unroute_all(behavior="ignoreErrors")
