"""Every option of Djambi and Bahama Taxi shows at the table: a game made with the option set away
from its default opens at a seat's table, which names the option among its house rules and shows
what the option changes in the game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domain import GAMES
from domain.core.options import describe_options
from tests.integration.clients import Client

pytestmark = [pytest.mark.redis, pytest.mark.http]

Check = Callable[[Page, dict[str, Any]], None]  # the page at the seat's turn, and the seat's view then


def shows(text: str | re.Pattern[str]) -> Check:
    """The table shows `text` somewhere."""
    return lambda page, view: expect(page.locator("#table")).to_contain_text(text)


def offers(name: str) -> Check:
    """The table offers a control named so (an area of the map, a button)."""
    return lambda page, view: expect(page.locator("#table").get_by_role("button", name=re.compile(name)).first).to_be_visible()


def citizens_on_the_map(ends: int) -> Check:
    """Each waiting citizen is counted on the map at `ends` areas: its origin, and with the mirror board its destination too."""
    def check(page: Page, view: dict[str, Any]) -> None:
        counts = page.locator(".bt-map .bt-count").all_text_contents()
        assert sum(map(int, counts)) == ends * len(view["table"]["waiting"]), counts
    return check


def cabs(tags: list[str]) -> Check:
    """The map carries these pawns' tags."""
    def check(page: Page, view: dict[str, Any]) -> None:
        expect(page.locator(".bt-map .bt-pawn text")).to_have_text(tags)
    return check


def full_cabs(page: Page, view: dict[str, Any]) -> None:
    """Every cab starts with its three passengers aboard, each told with its trip."""
    seats = page.get_by_role("list", name="Seats").get_by_role("listitem")
    for cab in view["table"]["cabs"]:
        assert len(cab["passengers"]) == 3
        assert seats.nth(cab["seat"]).inner_text().count("→") == 3


# what a game made with the option looks like: (its seats, the option's value, what the table then shows;
# None where the option changes only which moves are legal, and the table offers just the listed ones)
DJAMBI: dict[str, tuple[int, Any, Check | None]] = {
    "self_kill": (4, False, None),
    "reporter_may_abstain": (4, False, None),
    "master_moves": (4, False, None),
    "diplomat_chief_into_maze": (4, False, None),
    "encirclement": (4, "maze_access", None),
    "necromobile_rescue": (4, "any_on_board", None),
    "no_progress_limit": (4, 30, shows(re.compile(r"Turns without a kill: \d+ of 30"))),
    "hostage_army": (3, "red", shows("red is the hostage army")),
}
TAXI: dict[str, tuple[int, Any, Check | None]] = {
    "movement": (2, "optional", offers("^Stay")),
    "passengers_from_god": (2, True, None),
    "mandatory_pickup": (2, True, None),
    "mirror_board": (2, True, citizens_on_the_map(2)),
    "unknown_destination": (2, True, shows(re.compile(r"→ \?"))),
    "double_pickup": (5, "together", None),
    "double_dropoff": (5, "separately", None),
    "cancelled_passenger": (5, "two_point_round_trip", None),
    "cabs_per_player": (2, 2, cabs(["1a", "1b", "2a", "2b"])),
    "two_cab_mode": (2, "both", cabs(["1a", "1b", "2a", "2b"])),
    "cab_transfer": (2, False, None),
    "contraband": (2, True, offers("^Police on")),
    "smuggler_runs_into_police": (2, False, offers("^Police on")),
    "dice": (2, True, shows(re.compile(r"Die \d, steps left \d"))),
    "hand_size": (2, 4, shows("Your hand (4)")),
    "setup": (2, "shift_change", full_cabs),
    "parity_burn": (2, False, None),
    "initial_citizens": (2, 5, citizens_on_the_map(1)),
    "second_passenger_threshold": (2, 2, None),
    "max_rounds": (2, 30, shows(re.compile(r"Round \d+ of 30\b"))),
}
CASES = [("djambi", name, *case) for name, case in DJAMBI.items()] + [("bahama_taxi", name, *case) for name, case in TAXI.items()]


def test_every_option_of_both_games_has_its_case() -> None:
    for game, cases in (("djambi", DJAMBI), ("bahama_taxi", TAXI)):
        assert list(cases) == [option["name"] for option in describe_options(GAMES[game].options_type)], game


@pytest.mark.parametrize(("game", "option", "seats", "value", "check"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_game_made_with_an_option_shows_it_at_the_table(
        page: Page, api: Client, server: str, tmp_path: Path, game: str, option: str, seats: int, value: Any, check: Check | None) -> None:
    options = {option: value} | ({"cabs_per_player": 2} if option == "two_cab_mode" else {}) \
        | ({"contraband": True} if option == "smuggler_runs_into_police" else {})
    created = api.call("POST", "/v1/games", json={"game": game, "seats": seats, "options": options,
                                                    "bots": [{"seat": seat, "level": "random"} for seat in range(1, seats)]})
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "ann", "seat": 0}).json()["token"]
    page.goto(f"{server}/")
    page.evaluate(f"localStorage.setItem('meeple.seats', {json.dumps(json.dumps({game_id: {'seat': 0, 'token': token}}))})")
    page.goto(f"{server}/games/{game_id}")
    expect(page.get_by_role("list", name="Seats")).to_contain_text("ann")
    expect(page.locator(".headline")).to_have_text("Your turn", timeout=20_000)  # the AIs before seat 0 have moved
    expect(page.locator("#table")).to_have_attribute("aria-busy", "false")
    rules = page.locator(".house-rules")
    rules.locator("summary").click()
    words = ("yes" if value else "no") if isinstance(value, bool) else str(value).replace("_", " ")
    expect(rules.locator(f'[data-option="{option}"]')).to_contain_text(f": {words}")
    if check:
        check(page, api.call("GET", f"/v1/games/{game_id}", token).json())
    page.screenshot(path=str(tmp_path / f"{game}-{option}.png"), full_page=True)
