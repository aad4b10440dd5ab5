"""Two people in two browsers play one TAKI game, each seeing the other's moves arrive without a
reload, while a third browser watches it from its address as a spectator."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import DESKTOP
from tests.web.pages import browsers, play_a_turn

pytestmark = [pytest.mark.redis, pytest.mark.http]

TURNS = 6  # moves played, by whoever is to move


@pytest.fixture
def pages(chromium: Browser, tmp_path: Path) -> Iterator[dict[str, Page]]:
    """A page for each of ann, bo and a spectator."""
    with browsers(chromium, tmp_path, ("ann", "bo", "spectator"), DESKTOP) as opened:
        yield opened


def test_two_people_play_each_seeing_the_others_moves_live_and_a_spectator_follows(
        pages: dict[str, Page], api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    for seat, name in enumerate(("ann", "bo")):
        page = pages[name]
        page.goto(f"{server}/games/{game_id}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name=f"Take seat {seat + 1}").click()
        expect(page.get_by_role("list", name="Seats")).to_contain_text(f"{name} (you)")
    spectator = pages["spectator"]
    spectator.goto(f"{server}/games/{game_id}")
    expect(spectator.get_by_text("You are watching.")).to_be_visible()
    for page in pages.values():
        expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
        page.evaluate("window.notReloaded = true")

    names = ("ann", "bo")
    for _ in range(TURNS):
        before = api.call("GET", f"/v1/games/{game_id}").json()
        name = names[before["to_move"][0]]
        expect(pages[name].locator(".headline")).to_have_text("Your turn")
        expect(pages[names[1 - names.index(name)]].locator(".headline")).to_have_text(f"Waiting for {name}")
        play_a_turn(pages[name])
        deadline = time.monotonic() + 10
        while (after := api.call("GET", f"/v1/games/{game_id}").json())["version"] == before["version"]:
            assert time.monotonic() < deadline, "the move was not sent"
            time.sleep(0.05)
        moved = api.call("GET", f"/v1/games/{game_id}/events?after={before['version']}").json()["events"]
        for watcher in (pages[names[1 - names.index(name)]], spectator):  # the move arrives by itself
            seats = watcher.get_by_role("list", name="Seats").get_by_role("listitem")
            for seat, size in enumerate(after["table"]["hand_sizes"]):
                expect(seats.nth(seat)).to_contain_text(f"{size} card")
            expect(watcher.get_by_role("list", name="Recent moves")).to_contain_text(said(name, moved))
        if after["status"] != "active":
            break
    for page in pages.values():
        assert page.evaluate("window.notReloaded") is True
    final = api.call("GET", f"/v1/games/{game_id}").json()
    expect(spectator.locator(".headline")).to_have_text(
        re.compile("^Waiting for (ann|bo)$") if final["status"] == "active" else re.compile("^Game over: "))


FIGURES = {"stop": "Stop", "plus2": "Plus 2", "change_direction": "Change direction", "plus": "Plus", "taki": "TAKI",
           "super_taki": "SuperTaki", "king": "King", "plus3": "Plus 3", "plus3_breaker": "Plus 3 breaker",
           "change_color": "Change colour"}


def said(name: str, events: list[dict[str, Any]]) -> str:
    """How the recent moves tell the first card played or drawn by the mover's command, else its first event."""
    for event in events:
        if event["type"] == "card_played":
            color, figure, _ = event["payload"]["card"].split(".")
            word = FIGURES.get(figure, figure)
            return f"{name} played {word if color == 'none' else f'{color} {word}'}"
        if event["type"] == "cards_drawn":
            count = len(event["payload"]["cards"])
            return f"{name} drew {'a card' if count == 1 else f'{count} cards'}"
    return name
