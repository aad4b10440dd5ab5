"""A fork's table credits the opening it copied to the players of the original game, and says the
opening was played there; the fork's own moves are its own seats'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.service.test_streams import move_ends
from tests.web.conftest import PHONE
from tests.web.pages import finished_taki, fits

pytestmark = [pytest.mark.redis, pytest.mark.http]

PLAYED = re.compile(r"\b(ann|bob) (played|drew)\b")


def test_a_forks_history_credits_the_original_players(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = finished_taki(api, ("ann", "bob"))
    ends = move_ends(api.all_events(game_id))
    fork_id = api.call("POST", f"/v1/games/{game_id}/fork", json={"version": ends[5]}).json()["id"]
    tokens = [api.call("POST", f"/v1/games/{fork_id}/join", json={"name": name}).json()["token"] for name in ("cy", "dee")]
    fork = api.call("GET", f"/v1/games/{fork_id}").json()
    assert fork["forked_from"]["names"] == ["ann", "bob"]
    seat = fork["to_move"][0]
    command = api.call("GET", f"/v1/games/{fork_id}/legal-commands", tokens[seat]).json()["commands"][0]
    api.call("POST", f"/v1/games/{fork_id}/commands", tokens[seat], json=command)  # the fork's own first move

    page.goto(f"{server}/games/{fork_id}")
    moves = page.get_by_role("list", name="Recent moves").locator("li.move")
    copied = moves.filter(has_text="Played in the original game")  # one move, or a move for each the original made
    expect(copied.first).to_be_visible()
    opening = " ".join(copied.all_text_contents())
    assert PLAYED.search(opening), opening  # the original's players, by name
    assert not re.search(r"\b(cy|dee)\b", opening), opening  # never the fork's seats
    expect(moves.first).to_contain_text(re.compile(r"\b(cy|dee)\b"))  # the fork's own move, by its own seat
    for size, name in (({"width": 1280, "height": 800}, "fork-history-1280.png"), (PHONE, "fork-history-375.png")):
        page.set_viewport_size(size)
        page.screenshot(path=str(tmp_path / name), full_page=True)
    fits(page, tmp_path / "fork-history-375.png")
