"""A table tells what happened from the game's log, whenever it is opened: the moves since the
seat's own last one first, each naming who made it and why (an AI seat, a deadline), the whole
history below, read page by page, and the list always at the version of the table beside it."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import finished_taki, fits, headline

pytestmark = [pytest.mark.redis, pytest.mark.http]

WIDE = {"width": 1280, "height": 800}


def take_seat(page: Page, server: str, game_id: str, name: str, seat: int) -> None:
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name=f"Take seat {seat + 1}").click()


def draw_for_the_seat_to_move(api: Client, game_id: str, tokens: dict[int, str]) -> str:
    """The seat to move draws, through the API; its name."""
    game = api.call("GET", f"/v1/games/{game_id}").json()
    seat = game["to_move"][0]
    assert api.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json={"type": "taki.draw"}).status_code == 201
    return str(game["seats"][seat]["name"])


def test_a_player_back_at_the_table_sees_the_three_moves_made_since_theirs(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 4}).json()["id"]
    tokens = {seat: api.call("POST", f"/v1/games/{game_id}/join", json={"name": name, "seat": seat}).json()["token"]
              for seat, name in ((1, "ann"), (2, "cy"), (3, "di"))}
    take_seat(page, server, game_id, "bo", 0)
    expect(page.locator(".headline")).to_have_text(re.compile(r"^(Your turn|Waiting for (ann|cy|di))$"))
    while headline(page) != "Your turn":  # whoever the deal puts first before bo
        draw_for_the_seat_to_move(api, game_id, tokens)
    page.get_by_role("region", name="Actions").get_by_role("button", name="Draw").click()
    expect(page.locator(".headline")).not_to_have_text("Your turn")
    moved = [draw_for_the_seat_to_move(api, game_id, tokens) for _ in range(3)]
    assert sorted(moved) == ["ann", "cy", "di"]

    page.reload()
    assert headline(page) == "Your turn"
    since = page.get_by_role("list", name="Since your last move").get_by_role("listitem")
    expect(since).to_have_count(3)
    for item, name in zip(since.all(), reversed(moved), strict=True):  # the newest first
        expect(item).to_contain_text(f"{name} drew a card")
    expect(page.get_by_role("list", name="Earlier").get_by_role("listitem").first).to_contain_text("bo drew a card")
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(tmp_path / "since.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "since-phone.png")


def test_the_ais_take_of_a_plus_2_is_listed_when_the_turn_comes_back(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    for _ in range(5):  # ann draws until she may play a +2 at the AI, whose answer may be to stack it
        game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 3, "options": {"last_card_rule": "off"},
                                                      "bots": [{"seat": 1, "level": "random"}]}).json()["id"]
        ann = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "ann", "seat": 0}).json()["token"]
        take_seat(page, server, game_id, "bo", 2)
        expect(page.locator(".headline")).to_have_text(re.compile(r"^(Your turn|Waiting for (ann|greedy bot))$"))
        bo = page.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
        if plus2_taken(page, api, game_id, ann, bo):
            page.screenshot(path=str(tmp_path / "plus2.png"), full_page=True)
            return
    raise AssertionError("in five games the AI never had to take ann's +2")


def plus2_taken(page: Page, api: Client, game_id: str, ann: str, bo: str) -> bool:
    """Play the game (bo draws, ann draws) until ann may play a +2 with the AI next, and play it:
    when bo's page says it is bo's turn, its newest move is the AI's answer and the AI's seat is
    marked as the last to move. Whether the AI took the stack."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        game = api.call("GET", f"/v1/games/{game_id}", ann).json()
        if game["status"] == "finished":
            return False
        if game["to_move"] != [0]:
            if game["to_move"] == [2]:
                api.call("POST", f"/v1/games/{game_id}/commands", bo, json={"type": "taki.draw"})
            time.sleep(0.05)
            continue
        legal = api.call("GET", f"/v1/games/{game_id}/legal-commands", ann).json()["commands"]
        plus2 = next((c for c in legal if ".plus2." in c.get("card", "")), None)
        if plus2 is None or game["table"]["direction"] != 1 or game["table"]["plus2_stack"]:
            api.call("POST", f"/v1/games/{game_id}/commands", ann, json={"type": "taki.draw"})
            continue
        expect(page.locator(".headline")).to_have_text("Waiting for ann")
        assert api.call("POST", f"/v1/games/{game_id}/commands", ann, json=plus2).status_code == 201
        expect(page.locator(".headline")).to_have_text("Your turn", timeout=20_000)
        newest = page.get_by_role("list", name="Since your last move").get_by_role("listitem").first
        expect(newest).to_contain_text(re.compile(r"^random bot \(AI\): "), timeout=1)  # drawn with the headline
        # the mark on the board follows within the same redraws (once, on CI, a moment after the list)
        expect(page.get_by_role("list", name="Seats").get_by_role("listitem").nth(1)).to_have_class(re.compile(r"\bmoved\b"))
        if "random bot took the +2 stack (2)" in newest.inner_text():
            return True
    raise AssertionError("the game went on too long")


def test_a_timeout_is_named_as_one(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={
        "game": "taki", "seats": 2, "turn_deadline": {"seconds": 2, "policy": "skip"}}).json()["id"]
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "ann", "seat": 0})
    take_seat(page, server, game_id, "bo", 1)
    expect(page.locator(".headline")).to_have_text(re.compile(r"^(Your turn|Waiting for ann)$"))
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("ann's time ran out: ann drew a card", timeout=30_000)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "timeout-phone.png")


def test_the_whole_history_is_read_page_by_page(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = finished_taki(api)
    page.goto(f"{server}/games/{game_id}")
    moves = page.get_by_role("list", name="Recent moves").get_by_role("listitem")
    expect(moves).to_have_count(10)
    expect(moves.first).to_contain_text("The game is over")
    more = page.get_by_role("button", name="Show earlier moves")
    more.focus()
    for shown in range(20, 1000, 10):  # by the keyboard, which stays on the control
        page.keyboard.press("Enter")
        expect(moves).not_to_have_count(shown - 10)  # the page read: the last may hold fewer than ten
        if not more.count():
            break
        expect(moves).to_have_count(shown)
        expect(more).to_be_focused()
    expect(moves.last).to_have_text(re.compile(r"^Setup: The game opens on "))
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(tmp_path / "history.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "history-phone.png")
