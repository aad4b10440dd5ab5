"""The chat at a TAKI table, in three browsers: each seat's message reaches the other seat's page
live; a spectator's reaches no seat's page while the game is on and both once it is over, and what is said
after the end arrives live too; a seat keeps
notes; random text of every kind is drawn as the very text written, at 1280 and 375 px; a game with its
chat off offers none."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.integration.clients import Client
from tests.service.test_chat_api import random_text
from tests.web.conftest import PHONE
from tests.web.pages import browsers, fits, register

pytestmark = [pytest.mark.redis, pytest.mark.http]

WIDE = {"width": 1280, "height": 900}


@pytest.fixture
def pages(chromium: Browser, tmp_path: Path) -> Iterator[dict[str, Page]]:
    """A page for each of ann, bo and cy (who watches)."""
    with browsers(chromium, tmp_path, ("ann", "bo", "cy"), WIDE) as opened:
        yield opened


HEARD = """window.heard = [];
window.sources = [];
window.EventSource = class extends window.EventSource {
  constructor(...args) {
    super(...args);
    window.sources.push(this);
    this.addEventListener("chat", (message) => window.heard.push(JSON.parse(message.data).text));
  }
};"""  # records each stream a page opens, and each chat message they bring


def log(page: Page, room: str) -> object:
    return page.get_by_role("log", name=f"{room} messages")


def test_the_seats_talk_live_and_the_spectators_room_opens_to_them_when_the_game_is_over(
        pages: dict[str, Page], api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    ann, bo, cy = pages["ann"], pages["bo"], pages["cy"]
    for seat, (name, page) in enumerate((("ann", ann), ("bo", bo))):
        page.add_init_script(HEARD)
        page.goto(f"{server}/games/{game_id}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name=f"Take seat {seat + 1}").click()
        expect(page.get_by_role("list", name="Seats")).to_contain_text(f"{name} (you)")
    register(cy, server, "cy")
    cy.goto(f"{server}/games/{game_id}")
    expect(cy.get_by_text("You are watching.")).to_be_visible()
    for page in pages.values():
        expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()

    ann.get_by_label("Message to table").fill("Sorry, travelling till Friday")
    ann.get_by_label("Message to table").press("Enter")  # the keyboard sends
    expect(log(bo, "Table")).to_contain_text("ann (seat 1): Sorry, travelling till Friday")
    expect(bo.locator(".chat > summary")).to_have_text("Chat · 1 unread")
    expect(log(bo, "Table").locator("li.unread")).to_have_count(1)
    expect(log(ann, "Table").locator("li.unread")).to_have_count(0)  # one's own words are read
    bo.get_by_label("Message to table").fill("No hurry, @ann")
    bo.get_by_role("button", name="Send").click()
    expect(log(bo, "Table").locator("li.unread")).to_have_count(0)  # turning to the chat reads it
    expect(log(ann, "Table")).to_contain_text("bo (seat 2): No hurry, @ann")
    expect(log(cy, "Table")).to_contain_text("No hurry, @ann")  # the spectator reads the table live

    cy.get_by_label("Message to spectators").fill("ann plays too slowly")
    cy.get_by_label("Message to spectators").press("Enter")
    expect(log(cy, "Spectators")).to_contain_text("cy: ann plays too slowly")
    ann.get_by_label("Message to table").fill("said after the spectator")
    ann.get_by_label("Message to table").press("Enter")
    for seat in (ann, bo):  # the table's message came after the spectator's; that one never does
        expect(log(seat, "Table")).to_contain_text("said after the spectator")
        expect(log(seat, "Spectators")).to_have_count(0)
        expect(seat.locator("main")).not_to_contain_text("too slowly")
        seat.wait_for_function("window.heard.includes('said after the spectator')")  # ann drew hers as she sent it
        assert "ann plays too slowly" not in seat.evaluate("window.heard")  # what the seat's streams brought, drawn or not
    ann.screenshot(path=str(tmp_path / "seat-1280.png"), full_page=True)
    cy.screenshot(path=str(tmp_path / "spectator-1280.png"), full_page=True)

    bo_token = bo.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
    assert api.call("POST", f"/v1/games/{game_id}/commands", bo_token, json={"type": "forfeit"}).status_code == 201
    for seat in (ann, bo):
        expect(log(seat, "Spectators")).to_contain_text("cy: ann plays too slowly")
    expect(cy.get_by_label("Message to spectators")).to_be_visible()
    cy.get_by_label("Message to spectators").fill("well played, both")
    cy.get_by_label("Message to spectators").press("Enter")
    bo.get_by_label("Message to table").fill("good game")
    bo.get_by_label("Message to table").press("Enter")
    for page in (ann, bo, cy):  # the finished table talks on, live
        expect(log(page, "Spectators")).to_contain_text("cy: well played, both")
        expect(log(page, "Table")).to_contain_text("bo (seat 2): good game")


def test_a_seat_keeps_notes_and_the_chat_fits_a_phone(chromium: Browser, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    quin = api.call("POST", "/v1/players", json={"name": "quin"}).json()["token"]  # holds seat 1 first, then leaves
    assert api.call("POST", f"/v1/games/{game_id}/join", quin, json={"name": "quin", "seat": 0}).status_code == 201
    assert api.call("POST", f"/v1/games/{game_id}/chat/table", quin, json={"text": "see you soon"}).status_code == 201
    assert api.call("PUT", f"/v1/games/{game_id}/seats/0/notes", quin, json={"text": "quin's plan"}).status_code == 200
    assert api.call("POST", f"/v1/games/{game_id}/leave", quin).status_code == 200
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("ann")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann (you)")  # before bo takes the other seat
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"})
    expect(page.locator(".headline")).not_to_have_text("Waiting for players")
    said_before = log(page, "Table").locator("li").filter(has_text="see you soon")  # quin's, not the new holder's
    expect(said_before.get_by_role("button", name="Report")).to_be_visible()
    page.get_by_text("My notes").click()
    expect(page.get_by_label("Only you read these notes")).to_have_value("")
    page.get_by_label("Only you read these notes").fill("Keep the +2 for bo's turn")
    page.get_by_role("button", name="Save notes").click()
    expect(page.get_by_role("status").filter(has_text="Notes saved.")).to_be_visible()
    page.get_by_label("Message to table").fill("x" * 300)
    page.get_by_label("Message to table").press("Enter")
    expect(log(page, "Table")).to_contain_text("x" * 300)
    page.get_by_label("Message to table").fill("😀" * 501)  # 1,002 UTF-16 units: counted as the server counts, 501
    expect(page.get_by_text("501 of 500 characters")).to_be_visible()
    page.get_by_label("Message to table").press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("at most 500 characters")
    fits(page, tmp_path / "over-375.png")
    page.get_by_label("Message to table").press("Backspace")  # one emoji off: 500, as many as a message holds
    page.get_by_role("button", name="Send").click()
    expect(log(page, "Table")).to_contain_text("😀" * 500)
    expect(page.get_by_text("of 500 characters")).to_be_hidden()
    page.reload()
    page.get_by_text("My notes").click()
    expect(page.get_by_label("Only you read these notes")).to_have_value("Keep the +2 for bo's turn")
    fits(page, tmp_path / "seat-375.png")
    context.close()


def test_a_thousand_random_strings_are_drawn_as_the_text_written(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "ann"}).json()["token"]
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"})
    chooser = random.Random(1000)
    strings = [random_text(chooser) for _ in range(1000)]
    sent = ["".join(strings[n:n + 10])[:500] for n in range(0, 1000, 10)]  # a hundred messages, as many as a minute takes
    for text in sent:
        assert api.call("POST", f"/v1/games/{game_id}/chat/table", token, json={"text": text}).status_code == 201
    page.set_viewport_size(WIDE)
    page.goto(f"{server}/games/{game_id}")  # as a spectator
    expect(log(page, "Table").get_by_role("listitem")).to_have_count(100)
    drawn = page.evaluate("""() => [...document.querySelectorAll('.chat-log li')].map((line) => ({
        text: line.querySelector('.chat-text').textContent,
        elements: [...line.querySelectorAll('*')].map((element) => element.className)}))""")
    assert [line["text"] for line in drawn] == sent
    assert all(line["elements"] == ["chat-name", "chat-text"] for line in drawn)  # no <script>, no <b>: text only
    page.screenshot(path=str(tmp_path / "random-1280.png"), full_page=True)


def test_a_game_with_its_chat_off_offers_no_chat(page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "chat": False}).json()["id"]
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/chat/" in request.url else None)
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("ann")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann (you)")  # before bo takes the other seat
    api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"})
    expect(page.locator(".headline")).not_to_have_text("Waiting for players")
    expect(page.get_by_label("Message to table")).to_have_count(0)
    expect(page.get_by_text("My notes")).to_have_count(0)
    assert asked == []  # the game's view says so: its chat is never asked for


def test_what_is_said_while_the_stream_is_down_reaches_the_page(page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    page.add_init_script(HEARD)
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("ann")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann (you)")
    bo = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "bo"}).json()["token"]
    expect(page.locator(".headline")).not_to_have_text("Waiting for players")
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    page.evaluate("window.sources.forEach((source) => { source.close(); source.onerror?.(new Event('error')); })")
    assert api.call("POST", f"/v1/games/{game_id}/chat/table", bo, json={"text": "said while you were away"}).status_code == 201
    expect(log(page, "Table")).to_contain_text("said while you were away")  # read again when the stream opens again
