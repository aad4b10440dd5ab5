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


def play_to_end(api: Client, game_id: str, tokens: list[str]) -> None:
    """The seats of a game play it to its end, each its first listed play, else its first listed command."""
    while (game := api.call("GET", f"/v1/games/{game_id}").json())["status"] == "active":
        seat = game["to_move"][0]
        legal = api.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()["commands"]
        api.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=next((c for c in legal if c["type"] == "taki.play"), legal[0]))


def test_a_fork_of_a_fork_credits_each_copied_move_to_the_game_it_was_played_in(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    first = finished_taki(api, ("ann", "bob"))
    copied = move_ends(api.all_events(first))[3]
    second = api.call("POST", f"/v1/games/{first}/fork", json={"version": copied}).json()["id"]
    play_to_end(api, second, [api.call("POST", f"/v1/games/{second}/join", json={"name": name}).json()["token"]
                              for name in ("cy", "dee")])
    own = [end for end in move_ends(api.all_events(second)) if end > copied]
    third = api.call("POST", f"/v1/games/{second}/fork", json={"version": own[3]}).json()["id"]
    for name in ("eve", "fay"):
        api.call("POST", f"/v1/games/{third}/join", json={"name": name})

    page.goto(f"{server}/games/{third}")
    moves = page.get_by_role("list", name="Recent moves").locator("li.move")
    earlier = moves.filter(has_text="Played in an earlier game")
    expect(earlier.first).to_be_visible()
    while (more := page.get_by_role("button", name="Show earlier moves")).count():
        more.click()
    expect(earlier).to_have_count(4)  # the first game's opening and its three moves
    first_game = " ".join(earlier.all_text_contents())
    assert re.search(r"\b(ann|bob) (played|drew)\b", first_game) and not re.search(r"\b(cy|dee|eve|fay)\b", first_game), first_game
    original = " ".join(moves.filter(has_text="Played in the original game").all_text_contents())
    assert re.search(r"\b(cy|dee) (played|drew)\b", original) and not re.search(r"\b(ann|bob|eve|fay)\b", original), original
    for size, name in (({"width": 1280, "height": 800}, "fork-of-fork-1280.png"), (PHONE, "fork-of-fork-375.png")):
        page.set_viewport_size(size)
        page.screenshot(path=str(tmp_path / name), full_page=True)
    fits(page, tmp_path / "fork-of-fork-375.png")
