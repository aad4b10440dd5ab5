"""Telling a player their turn has come when they are not looking: the tab's title counts the games
waiting on them, live, a game's tab says "Your turn", and a browser notification, asked for with a
button, says so while the page is in the background."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

# what the page calls `new Notification(...)` with, recorded; and a page the test hides at will
RECORD_AND_HIDE = """
window.notified = [];
const Shown = window.Notification;
window.Notification = class extends Shown {
  constructor(title, options) {
    super(title, options);
    window.notified.push({ title, body: options?.body ?? "" });
  }
};
window.hidden = false;
Object.defineProperty(document, "visibilityState", { get: () => (window.hidden ? "hidden" : "visible") });
Object.defineProperty(document, "hidden", { get: () => window.hidden });
"""


def game_with(api: Client, player: dict[str, str], first: bool) -> tuple[str, str]:
    """A started two-seat TAKI game of the player and an opponent, the player's turn first if
    `first`; its id and the opponent's seat token."""
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "options": {"first_seat": 0}}).json()["id"]

    def join(token: str | None, name: str) -> str:
        answer = api.call("POST", f"/v1/games/{game_id}/join", token, json={"name": name})
        assert answer.status_code == 201, answer.text
        return str(answer.json()["token"])

    if first:
        join(player["token"], player["name"])
        return game_id, join(None, "opponent")
    opponent = join(None, "opponent")
    join(player["token"], player["name"])
    return game_id, opponent


def hide(page: Page, hidden: bool) -> None:
    page.evaluate("(hidden) => { window.hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); }", hidden)


def test_the_title_counts_the_games_waiting_on_the_player_live(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    register(page, server, "kim")
    me = signed_in(page)
    mine, _ = game_with(api, me, first=True)
    theirs, opponent = game_with(api, me, first=False)
    page.reload()
    expect(page).to_have_title("(1) Your games · Meeple")
    api.call("POST", f"/v1/games/{theirs}/commands", opponent, json={"type": "taki.draw"})
    expect(page).to_have_title("(2) Your games · Meeple")  # through the inbox stream, without a reload
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(tmp_path / "inbox.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "inbox-phone.png")
    page.goto(f"{server}/games/{mine}")
    expect(page).to_have_title(f"Your turn · TAKI · {mine} · Meeple")


def test_a_notification_says_your_turn_once_asked_for_while_the_page_is_hidden(
    context: BrowserContext, page: Page, api: Client, server: str, tmp_path: Path
) -> None:
    context.add_init_script(RECORD_AND_HIDE)
    register(page, server, "lou")
    me = signed_in(page)
    ask = page.get_by_role("button", name="Notify me when it is my turn")  # offered, not asked on load
    expect(ask).to_be_visible()
    assert page.evaluate("Notification.permission") == "default"
    context.grant_permissions(["notifications"], origin=server)  # what the person answers when asked
    ask.click()
    expect(ask).to_have_count(0)
    expect(page.get_by_text("You are notified when it is your turn")).to_be_visible()
    page.screenshot(path=str(tmp_path / "asked.png"), full_page=True)
    first, opponent = game_with(api, me, first=False)
    expect(page.get_by_role("list", name="Your games")).to_contain_text(first)
    hide(page, True)
    api.call("POST", f"/v1/games/{first}/commands", opponent, json={"type": "taki.draw"})
    expect(page).to_have_title("(1) Your games · Meeple")
    assert page.evaluate("window.notified") == [{"title": "Meeple: your turn", "body": "A game waits on you."}]

    hide(page, False)  # a game that waits while the page is seen is not notified
    second, opponent = game_with(api, me, first=False)
    api.call("POST", f"/v1/games/{second}/commands", opponent, json={"type": "taki.draw"})
    expect(page).to_have_title("(2) Your games · Meeple")
    assert len(page.evaluate("window.notified")) == 1

    third, opponent = game_with(api, me, first=False)  # on a game's page, hidden
    page.goto(f"{server}/games/{third}")
    expect(page).to_have_title(f"Waiting for opponent · TAKI · {third} · Meeple")
    hide(page, True)
    api.call("POST", f"/v1/games/{third}/commands", opponent, json={"type": "taki.draw"})
    expect(page).to_have_title(f"Your turn · TAKI · {third} · Meeple")
    assert page.evaluate("window.notified") == [{"title": "Meeple: your turn", "body": "A game waits on you."}]
    hide(page, False)
