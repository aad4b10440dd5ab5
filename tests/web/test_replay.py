"""A finished game played back in the browser: the slider and the steps show each version's table
as the API gives it, for a spectator or any seat, with the move written out; the address keeps the
version and the seat; a fork opens the new game; a log file from an export plays back, and a
refused one shows the server's detail; Djambi on its own board, a game with no table yet in words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.service.test_streams import move_ends
from tests.web.pages import finished_taki, settled

pytestmark = [pytest.mark.redis, pytest.mark.http]

NUMBER_CARD = re.compile(r"^(red|blue|green|yellow)\.(\d)\.\d$")


@pytest.fixture(scope="module")
def finished(server: str) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """One finished TAKI game of ann and bob, and its whole log, for the module's tests to read."""
    with requests.Session() as http:
        api = Client(http, server)
        game_id = finished_taki(api)
        yield game_id, api.all_events(game_id)


def test_the_slider_and_the_steps_show_each_versions_table_and_move(
        page: Page, api: Client, server: str, finished: tuple[str, list[dict[str, Any]]]) -> None:
    game_id, events = finished
    last = events[-1]["version"]
    played = next(e for e in events[10:] if e["type"] == "card_played" and e["payload"]["seat"] == 0
                  and NUMBER_CARD.match(e["payload"]["card"]))
    version = played["version"]
    color, number = NUMBER_CARD.match(played["payload"]["card"]).groups()  # type: ignore[union-attr]

    page.goto(f"{server}/games/{game_id}/replay")
    expect(page).to_have_title(f"Replay · TAKI · {game_id} · Meeple")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Replay · TAKI · {game_id}")
    slider = page.get_by_role("slider", name="Version")
    expect(slider).to_have_attribute("max", str(last))
    slider.fill(str(version))
    settled(page, version)
    expect(page.get_by_text(f"Version {version} of {last}")).to_be_visible()
    spectator = api.call("GET", f"/v1/games/{game_id}/states/{version}").json()["table"]
    expect(page.get_by_text(re.compile(r"^Draw pile: \d+$"))).to_have_text(f"Draw pile: {spectator['draw_pile_size']}")
    seats = page.get_by_role("list", name="Seats").get_by_role("listitem")
    for seat, size in enumerate(spectator["hand_sizes"]):
        expect(seats.nth(seat)).to_contain_text(f"{size} card")
    assert spectator["discard"][-1] == played["payload"]["card"]
    expect(page.get_by_text(re.compile(r"^Top: "))).to_have_text(f"Top: {color} {number}")
    assert not page.get_by_role("region", name="Your hand").count()  # a spectator sees no hand
    words = page.get_by_role("list", name="This move")
    expect(words.locator("[aria-current=step]")).to_have_text(f"ann played {color} {number}")

    page.get_by_label("Seen by").select_option(label="seat 1 (ann)")
    settled(page, version)
    expect(page).to_have_url(re.compile(r"[?&]seat=0(&|$)"))
    seen = api.call("GET", f"/v1/games/{game_id}/states/{version}?seat=0").json()["table"]
    hand = page.get_by_role("region", name="Your hand")
    expect(hand.locator("[data-key^='card:']")).to_have_count(len(seen["hand"]))
    assert [key.removeprefix("card:") for key in hand.locator("[data-key^='card:']").evaluate_all(
        "cards => cards.map((card) => card.dataset.key)")] == seen["hand"]
    expect(page.locator("#table").get_by_role("button")).to_have_count(0)  # read-only: nothing there acts

    page.get_by_role("button", name="Previous event").click()
    settled(page, version - 1)
    expect(slider).to_have_value(str(version - 1))
    page.get_by_role("button", name="Next event").click()
    settled(page, version)
    ends = move_ends(events)
    page.get_by_role("button", name="Next move").click()
    settled(page, end := next(end for end in ends if end > version))
    page.get_by_role("button", name="Previous move").click()
    settled(page, max(earlier for earlier in ends if earlier < end))
    page.get_by_role("button", name="Last").click()
    settled(page, last)
    expect(page.locator(".headline")).to_have_text(re.compile(r"^Game over: (ann|bob) won$"))
    page.get_by_role("button", name="First").click()
    settled(page, 0)


def test_the_keys_step_and_the_address_keeps_the_version_and_the_seat(
        page: Page, server: str, finished: tuple[str, list[dict[str, Any]]]) -> None:
    game_id, events = finished
    ends = move_ends(events)
    page.goto(f"{server}/games/{game_id}/replay?version=12&seat=1")
    settled(page, 12)
    expect(page.get_by_role("slider", name="Version")).to_have_value("12")
    expect(page.get_by_label("Seen by")).to_have_value("1")
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    page.get_by_role("button", name="Next event").focus()  # not an input: the arrow keys step
    page.keyboard.press("ArrowRight")
    settled(page, 13)
    page.keyboard.press("ArrowLeft")
    settled(page, 12)
    page.keyboard.press("Shift+ArrowRight")
    settled(page, next(end for end in ends if end > 12))
    expect(page).to_have_url(re.compile(r"[?&]seat=1(&|$)"))

    page.keyboard.press("Shift+Tab")  # every control is a tab stop, in order
    expect(page.get_by_role("button", name="Previous event")).to_be_focused()
    page.get_by_label("Seen by").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Fork from here")).to_be_focused()


def test_fork_from_here_opens_the_new_game_where_a_move_ends(
        page: Page, api: Client, server: str, finished: tuple[str, list[dict[str, Any]]]) -> None:
    game_id, events = finished
    ends = move_ends(events)
    inside = next(e["version"] for e in events if e["version"] > ends[1] and e["version"] not in ends)
    page.goto(f"{server}/games/{game_id}/replay?version={inside}")
    settled(page, inside)
    expect(page.get_by_text(f"Version {inside} falls inside a move")).to_be_visible()
    assert not page.get_by_role("button", name="Fork from here").count()
    page.get_by_role("button", name="Last").click()
    settled(page, events[-1]["version"])
    expect(page.get_by_text("The game is over here")).to_be_visible()
    assert not page.get_by_role("button", name="Fork from here").count()

    end = next(end for end in ends if end > inside)
    page.goto(f"{server}/games/{game_id}/replay?version={inside}")
    settled(page, inside)
    page.get_by_role("button", name="Next move").click()
    settled(page, end)
    page.get_by_role("button", name="Fork from here").click()
    expect(page).to_have_url(re.compile(rf"^{re.escape(server)}/games/[\w-]+$"))
    fork_id = page.url.rsplit("/", 1)[1]
    assert fork_id != game_id
    names = [seat["name"] for seat in api.call("GET", f"/v1/games/{game_id}").json()["seats"]]
    assert api.call("GET", f"/v1/games/{fork_id}").json()["forked_from"] == {"game_id": game_id, "version": end, "names": names}
    expect(page.get_by_role("button", name="Take seat 1")).to_be_visible()


def test_a_log_file_plays_back_and_a_refused_one_shows_the_servers_detail(
        page: Page, api: Client, server: str, finished: tuple[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    game_id, events = finished
    broken = tmp_path / "broken.jsonl"
    broken.write_text("this is no log\n")
    page.goto(f"{server}/")
    section = page.get_by_role("region", name="Replay a log file")
    section.get_by_label("Log file").set_input_files(broken)
    expect(section.get_by_role("alert")).to_have_text("A line is not JSON (or is nested too deep).")

    log = tmp_path / f"{game_id}.jsonl"
    log.write_bytes(api.call("GET", f"/v1/games/{game_id}/export").content)
    section.get_by_label("Log file").set_input_files(log)
    expect(page).to_have_url(re.compile(rf"^{re.escape(server)}/games/[\w-]+/replay\?version=\d+$"))
    imported_id = page.url.split("/")[-2]
    assert imported_id != game_id
    assert api.call("GET", f"/v1/games/{imported_id}").json()["imported"] is True
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Replay · TAKI · {imported_id}")
    expect(page.get_by_text(f"Imported from a log file of game {game_id}")).to_be_visible()
    last = events[-1]["version"]
    expect(page.get_by_role("slider", name="Version")).to_have_attribute("max", str(last))
    page.get_by_role("button", name="Last").click()
    settled(page, last)
    final = api.call("GET", f"/v1/games/{game_id}").json()
    winner = final["seats"][final["result"]["ranking"][0][0]]["name"]
    expect(page.locator(".headline")).to_have_text(f"Game over: {winner} won")


def test_a_djambi_game_plays_back_on_its_board(page: Page, api: Client, server: str) -> None:
    game_id, tokens = api.new_game(3, "djambi")
    while (game := api.call("GET", f"/v1/games/{game_id}").json())["status"] == "active":
        seat = game["to_move"][0]
        api.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json={"type": "djambi.resign"})
    page.goto(f"{server}/games/{game_id}/replay?version=3")
    settled(page, 3)
    expect(page.get_by_role("list", name="This move").locator("[aria-current=step]")).to_have_text("p0 resigned")
    expect(page.get_by_role("group", name=re.compile("^Board"))).to_be_visible()
    expect(page.locator("#table").get_by_role("button")).to_have_count(0)  # read-only: no piece to move


def test_a_bahama_taxi_game_plays_back_on_its_map(page: Page, api: Client, server: str) -> None:
    game_id, tokens = api.new_game(2, "bahama_taxi", max_rounds=1)
    while (game := api.call("GET", f"/v1/games/{game_id}").json())["status"] == "active":
        seat = game["to_move"][0]
        command = api.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()["commands"][0]
        api.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=command)
    events = api.all_events(game_id)
    page.goto(f"{server}/games/{game_id}/replay")
    page.get_by_role("button", name="Last").click()
    settled(page, events[-1]["version"])
    expect(page.get_by_role("list", name="This move").locator("[aria-current=step]")).to_have_text("The game is over: round limit")
    expect(page.get_by_role("group", name="The city")).to_be_visible()
    expect(page.locator("#table").get_by_role("button")).to_have_count(0)  # read-only: no area to drive to
