"""A person plays Djambi in the browser: creates a game against three AIs from the lobby form and
plays it to the end by clicking squares, a kill with the corpse's placement and a move through the
maze among the moves; a three-seat game shows its hostage army and is played by keyboard; a
spectator sees the board and an AI's move arrive live."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import await_turn, headline, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

MAX_TURNS = 150
COLUMNS = "ABCDEFGHI"


def xy(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1])


def through_the_maze(command: dict[str, Any]) -> bool:
    """The move enters E5, or passes over it on its straight line."""
    if command["to"] == "E5":
        return True
    (x0, y0), (x1, y1) = xy(command["piece"]), xy(command["to"])
    steps = max(abs(x1 - x0), abs(y1 - y0))
    sx, sy = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
    return any((x0 + sx * i, y0 + sy * i) == (4, 5) for i in range(1, steps))


def kills(view: dict[str, Any], command: dict[str, Any], me: str, kind: str | None = None) -> bool:
    """The command's destination (or report) holds a living piece of another army (of `kind`), and
    its piece is one that kills by moving there (militant, chief, assassin) or a reporter."""
    at = {piece["square"]: piece for piece in view["table"]["pieces"] if piece["alive"]}
    mover = at[command["piece"]]
    victim = at.get(command["report"]) if command.get("report") else at.get(command["to"]) if mover["kind"] != "diplomat" else None
    return victim is not None and victim["army"] != me and (kind is None or victim["kind"] == kind)


def choose(view: dict[str, Any], legal: list[dict[str, Any]], done: dict[str, bool], rng: random.Random) -> dict[str, Any]:
    """What the player plays: through the maze first, then a kill whose corpse it places (an enemy's
    if it can, else one of its own militants), then chiefs' killings, other kills, anything."""
    me = view["table"]["players"][view["you"]]
    plays = [command for command in legal if command["type"] == "djambi.play"]
    placed_kills = [command for command in plays if "place" in command and "exit" not in command
                    and _kind(view, command["piece"]) in ("militant", "chief")]
    wanted: list[list[dict[str, Any]]] = []
    if not done["maze"]:
        wanted.append([command for command in plays if through_the_maze(command) and _kind(view, command["piece"]) == "chief"])
        wanted.append([command for command in plays if through_the_maze(command) and len(command) == 3])
    if not done["kill"]:
        wanted.append([command for command in placed_kills if kills(view, command, me)])
        wanted.append([command for command in placed_kills if _kind(view, command["to"]) == "militant"])
    wanted.append([command for command in plays if kills(view, command, me, "chief")])
    wanted.append([command for command in plays if kills(view, command, me)])
    wanted.append(plays)
    for choices in wanted:
        if choices:
            return rng.choice(choices)
    return legal[0]


def _kind(view: dict[str, Any], square: str) -> str | None:
    return next((p["kind"] for p in view["table"]["pieces"] if p["square"] == square and p["alive"]), None)


def play_by_clicks(page: Page, command: dict[str, Any], keyboard: bool = False) -> None:
    """Compose `command` on the board as a person does: its piece, its destination, then each
    follow-up the page asks for (a field it does not ask is one the listed commands agree on)."""
    board = page.get_by_role("group", name=re.compile("^Board"))

    def press(name: str | re.Pattern[str]) -> None:
        button = board.get_by_role("button", name=name, exact=isinstance(name, str))
        if keyboard:
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()

    press(re.compile(f" at {command['piece']}$"))
    press(re.compile(f"^Move to {command['to']}\\b"))
    asked = {"exit": f"^Leave the maze to {command.get('exit')}\\b", "place": f"^Put the .* on {command.get('place')}$",
             "report": f"^Kill the .* at {command.get('report')}$"}
    for field, name in asked.items():
        if field in command and board.get_by_role("button", name=re.compile(name)).count():
            press(re.compile(name))
    none = page.get_by_role("group", name="Your move").get_by_role("button", name="Kill no one")
    if "report" not in command and none.count():
        none.click()


def my_moves(api: Client, game_id: str, seat: int, after: int = 0) -> list[dict[str, Any]]:
    return [event["payload"] for event in api.all_events(game_id)
            if event["version"] > after and event["type"] == "action_taken" and event["payload"]["seat"] == seat]


def test_a_player_plays_a_four_seat_game_against_three_ais_to_the_end(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    register(page, server, "ann")
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Game", exact=True).select_option("djambi")
    form.get_by_label("Number of seats").fill("4")
    for seat in (2, 3, 4):
        form.get_by_label(f"Seat {seat}", exact=True).select_option("random")
    form.locator("summary").filter(has_text="Djambi rules").click()
    form.get_by_label("No progress limit").fill("40")  # a game whose AIs stop killing ends soon in a draw
    form.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    token = signed_in(page)["token"]
    expect(page).to_have_title(re.compile(rf"^(Your turn|Waiting for .*) · Djambi · {re.escape(game_id)} · Meeple$"))
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    board = page.get_by_role("group", name=re.compile("^Board"))
    expect(board.get_by_role("img", name="blue chief at I9")).to_be_visible()
    expect(board.get_by_role("button", name="red militant at C9")).to_be_visible()
    assert not board.get_by_role("button", name=re.compile("blue")).count()  # only the seat's own pieces are offered

    page.evaluate("window.notReloaded = true")
    rng = random.Random(game_id)
    done = {"maze": False, "kill": False}
    played: list[str] = []
    while await_turn(page) == "Your turn":
        assert len(played) < MAX_TURNS, played[-20:]
        view = api.call("GET", f"/v1/games/{game_id}", token).json()
        legal = api.call("GET", f"/v1/games/{game_id}/legal-commands", token).json()
        if legal["version"] != view["version"]:
            continue  # a move came between the two reads
        expect(page.locator("#table")).to_have_attribute("data-version", str(view["version"]))  # the page has drawn it too
        command = choose(view, legal["commands"], done, rng)
        if "place" in command and not done["kill"] and "exit" not in command:
            page.get_by_role("button", name=re.compile(f" at {command['piece']}$")).click()
            page.get_by_role("button", name=re.compile(f"^Move to {command['to']}\\b")).click()
            expect(page.get_by_role("group", name="Your move")).to_contain_text(f"{command['piece']}-{command['to']}: put the displaced piece where?")
            page.screenshot(path=str(tmp_path / "placing.png"), full_page=True)
            page.get_by_role("group", name="Your move").get_by_role("button", name="Back").click()  # going back keeps the piece
            expect(page.get_by_role("button", name=re.compile(f" at {command['piece']}$"))).to_have_attribute("aria-pressed", "true")
            page.get_by_role("group", name="Your move").get_by_role("button", name="Cancel").click()
        play_by_clicks(page, command)
        deadline = time.monotonic() + 20
        while not (mine := my_moves(api, game_id, view["you"], view["version"])):
            assert time.monotonic() < deadline, command
            time.sleep(0.05)
        played.append(mine[0]["move"])
        done["maze"] = done["maze"] or through_the_maze(command)
        done["kill"] = done["kill"] or ("place" in command and bool(mine[0]["kills"]) and "exit" not in command)
    assert page.evaluate("window.notReloaded") is True  # every move arrived without a reload
    assert done == {"maze": True, "kill": True}, played
    result = page.get_by_role("region", name="Result")
    expect(result).to_contain_text(re.compile("won|draw"))
    assert not page.get_by_role("group", name="Your move").count()
    final = api.call("GET", f"/v1/games/{game_id}").json()
    assert final["status"] == "finished"
    assert any(" place " in move for move in played) and played[0]  # the kill's corpse placed where the player chose
    page.screenshot(path=str(tmp_path / "end.png"), full_page=True)


def test_a_three_seat_game_shows_its_hostage_army_and_is_played_by_keyboard(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "djambi", "seats": 3, "bots": [
        {"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}]}).json()["id"]
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/games/{game_id}")
    page.get_by_label("Your name").fill("bea")
    page.get_by_role("button", name="Take seat 1").click()
    expect(page.locator(".headline")).to_have_text("Your turn")
    expect(page.get_by_role("list", name="Armies")).to_contain_text("green (G): hostage, nobody plays it")
    expect(page.get_by_role("list", name="Turn and power")).to_contain_text("green is the hostage army")
    board = page.get_by_role("group", name=re.compile("^Board"))
    expect(board.get_by_role("img", name="green chief (hostage) at A1")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the board fits a phone

    necromobile = board.get_by_role("button", name="red necromobile at C7")
    necromobile.focus()
    page.keyboard.press("Enter")
    expect(necromobile).to_have_attribute("aria-pressed", "true")
    first = board.get_by_role("button", name="Move to C4")  # the keyboard goes on to the first lit square
    expect(first).to_be_focused()
    page.keyboard.press("Tab")  # then on through the squares that are choices, in reading order
    expect(board.get_by_role("button", name="Move to F4")).to_be_focused()
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    page.keyboard.press("Escape")  # back to choosing a piece
    expect(necromobile).to_have_attribute("aria-pressed", "false")
    expect(necromobile).to_be_focused()
    page.keyboard.press("Enter")
    expect(board.get_by_role("button", name="Move to C4")).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("bea: C7-F4")

    assert await_turn(page) == "Your turn"
    page.get_by_role("button", name="Resign…").click()
    actions = page.get_by_role("region", name="Actions")
    expect(actions).to_contain_text("Resign for good?")
    actions.get_by_role("button", name="No").click()
    actions.get_by_role("button", name="Propose a draw").click()
    expect(page.get_by_role("list", name="Recent moves")).to_contain_text("bea offered a draw")
    page.get_by_role("button", name="Resign…").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.get_by_role("list", name="Seats").get_by_role("listitem").first).to_contain_text("out")
    # the two AIs play on at once, and their moves may push the line out of the recent moves
    resigned = {"seat": 0, "reason": "resigned", "by": None}
    deadline, log = time.monotonic() + 10, api.all_events(game_id)
    while resigned not in [e["payload"] for e in log if e["type"] == "player_eliminated"] and time.monotonic() < deadline:
        time.sleep(0.2)
        log = api.all_events(game_id)
    assert resigned in [e["payload"] for e in log if e["type"] == "player_eliminated"], [
        (e["version"], e["type"], e["payload"]) for e in log[-12:]]


def test_a_spectator_sees_the_board_and_an_ais_move_arrive_live(context: BrowserContext, page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "djambi", "seats": 4, "bots": [
        {"seat": 1, "level": "greedy"}, {"seat": 2, "level": "random"}, {"seat": 3, "level": "random"}]}).json()["id"]
    token = api.call("POST", f"/v1/games/{game_id}/join", json={"name": "cy"}).json()["token"]
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator(".headline")).to_have_text("Waiting for cy (red)")
    expect(page.get_by_text("You are watching.")).to_be_visible()
    board = page.get_by_role("group", name=re.compile("^Board"))
    expect(board.get_by_role("img")).to_have_count(36)
    assert not board.get_by_role("button").count()
    assert not page.get_by_role("group", name="Your move").count()
    assert not page.get_by_role("region", name="Actions").count()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()

    api.call("POST", f"/v1/games/{game_id}/commands", token, json={"type": "djambi.play", "piece": "C7", "to": "F4"})
    recent = page.get_by_role("list", name="Recent moves")
    expect(recent).to_contain_text("cy: C7-F4")
    expect(recent).to_contain_text(re.compile(r"greedy bot: [A-I]\d-[A-I]\d"))  # the AI's answer, as it came
    expect(board.get_by_role("img", name="red necromobile at F4")).to_be_visible()
    expect(page.locator(".headline")).to_have_text("Waiting for cy (red)")
    assert headline(page) == "Waiting for cy (red)"
