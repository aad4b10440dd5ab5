"""A finished table's copies in the browser: its seats offer a rematch, which the invited player
finds in the inbox as one and takes a seat in, and the new game starts; its log downloads, and
dropped on the home page it plays back move by move; a fork names the game and the move it comes
from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.service.test_streams import move_ends
from tests.web.conftest import PHONE
from tests.web.pages import finished_taki, fits, register, settled, signed_in
from tests.web.test_two_players import pages as browsers  # a page each for ann, bo (and a spectator)

pytestmark = [pytest.mark.redis, pytest.mark.http]
pages = browsers

WIDE = {"width": 1280, "height": 800}


def test_a_rematch_from_the_finished_table_starts_a_new_game(
        pages: dict[str, Page], api: Client, server: str, tmp_path: Path) -> None:
    ann, bo = pages["ann"], pages["bo"]
    register(ann, server, "ann")
    register(bo, server, "bo")
    game_id = finished_taki(api, ("ann", "bo"), (signed_in(ann)["token"], signed_in(bo)["token"]))
    ann.goto(f"{server}/games/{game_id}")
    after = ann.get_by_role("region", name="After the game")
    expect(after.get_by_role("link", name="Replay this game, move by move")).to_have_attribute(
        "href", f"/games/{game_id}/replay")
    for size, name in ((WIDE, "finished-1280.png"), (PHONE, "finished-375.png")):
        ann.set_viewport_size(size)
        ann.screenshot(path=str(tmp_path / name), full_page=True)
    fits(ann, tmp_path / "finished-375.png")
    after.get_by_role("button", name="Offer a rematch").click()
    expect(ann).to_have_url(re.compile(rf"^{re.escape(server)}/games/(?!{game_id}$)[\w-]+$"))
    rematch_id = ann.url.rsplit("/", 1)[1]
    expect(ann.locator(".origin")).to_have_text(f"Rematch of {game_id}")
    ann.get_by_role("button", name="Take seat 2").click()  # the seats moved on by one: ann's is the second
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("ann (you)")

    bo.goto(f"{server}/")
    invited = bo.get_by_role("list", name="Your games").get_by_role("listitem").filter(has_text=rematch_id)
    expect(invited).to_contain_text("Invited to seat 1 by ann")
    expect(invited.locator(".rematch-of")).to_have_text(f"Rematch of {game_id}")
    bo.goto(f"{server}/games/{game_id}")  # the finished table shows the rematch offered
    expect(bo.get_by_role("region", name="After the game")).to_contain_text(f"A rematch is offered: {rematch_id}")
    bo.get_by_role("region", name="After the game").get_by_role("link", name=rematch_id).click()
    bo.get_by_role("button", name="Take seat 1").click()
    expect(bo.locator(".headline")).to_have_text(re.compile(r"^(Your turn|Waiting for ann)$"))
    assert api.call("GET", f"/v1/games/{rematch_id}").json()["status"] == "active"
    expect(ann.locator(".headline")).to_have_text(re.compile(r"^(Your turn|Waiting for bo)$"), timeout=15_000)


def test_the_downloaded_log_plays_back_move_by_move(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = finished_taki(api)
    events = api.all_events(game_id)
    ends = move_ends(events)
    page.goto(f"{server}/games/{game_id}")
    link = page.get_by_role("region", name="After the game").get_by_role("link", name="Download the log")
    expect(link).to_have_attribute("download", f"taki-{game_id}.jsonl")
    with page.expect_download() as download:
        link.click()
    log = tmp_path / download.value.suggested_filename
    download.value.save_as(log)
    assert log.read_bytes() == api.call("GET", f"/v1/games/{game_id}/export").content

    page.goto(f"{server}/")
    page.get_by_role("region", name="Replay a log file").get_by_label("Log file").set_input_files(log)
    expect(page).to_have_url(re.compile(rf"^{re.escape(server)}/games/[\w-]+/replay\?version=\d+$"))
    expect(page.get_by_text(f"Imported from a log file of game {game_id}.")).to_be_visible()  # not "as one move"
    page.get_by_role("button", name="First").click()
    settled(page, 0)
    for number, end in enumerate(ends[:4], start=1):
        page.get_by_role("button", name="Next move").click()
        settled(page, end)
        expect(page.get_by_text(f"Version {end} of {ends[-1]} · move {number} of {len(ends)}")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile(r"^Move 4, by (ann|bob)$"))).to_be_visible()


def test_a_fork_names_the_game_and_the_move_it_comes_from(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = finished_taki(api)
    ends = move_ends(api.all_events(game_id))
    fork_id = api.call("POST", f"/v1/games/{game_id}/fork", json={"version": ends[5]}).json()["id"]
    page.goto(f"{server}/games/{fork_id}")
    origin = page.locator(".origin")
    expect(origin).to_have_text(f"Forked from {game_id} at move 6")
    expect(origin.get_by_role("link", name=game_id)).to_have_attribute("href", f"/games/{game_id}")
    expect(origin.get_by_role("link", name="move 6")).to_have_attribute("href", f"/games/{game_id}/replay?version={ends[5]}")
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "fork-375.png")
    origin.get_by_role("link", name="move 6").click()
    settled(page, ends[5])
    expect(page.get_by_text(f"move 6 of {len(ends)}")).to_be_visible()
