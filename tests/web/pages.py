"""What a person does on the client's pages, and what the tests read of them, said once: register,
read the table, play a turn as the page offers it, check a page fits a phone, finish a game."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE

TURN_OR_END = re.compile(r"^(Your turn|You win!|Game over: .*)$")
ACTIONS = re.compile(r"^(Say “Last card!”|Close the TAKI run|End turn|Pass|Draw)$")


@contextmanager
def browsers(chromium: Browser, tmp_path: Path, names: tuple[str, ...], viewport: dict[str, int]) -> Iterator[dict[str, Page]]:
    """A page in a browser profile of its own for each of `names`, whose script errors and dialogs fail
    the test; each saves its last sight as `last-<name>.png`."""
    contexts = {name: chromium.new_context(viewport=viewport) for name in names}
    opened = {name: context.new_page() for name, context in contexts.items()}
    errors: list[str] = []
    for page in opened.values():
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
    yield opened
    for name, page in opened.items():
        page.screenshot(path=str(tmp_path / f"last-{name}.png"), full_page=True)
    for context in contexts.values():
        context.close()
    assert not errors, errors


def register(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/")
    form = page.get_by_role("form", name="New player")
    form.get_by_label("Your name").fill(name)
    form.get_by_role("button", name="Register").click()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text(f"Signed in as {name}")


def signed_in(page: Page) -> dict[str, str]:
    """The player this browser keeps: id, name, token."""
    return page.evaluate("JSON.parse(localStorage.getItem('meeple.player'))")  # type: ignore[no-any-return]


def refused_at(field: Locator, reason: str) -> None:
    """The server's refusal shows at `field`: its description says `reason` (a pattern), it is
    marked invalid, and the keyboard is taken to it."""
    expect(field).to_have_accessible_description(re.compile(reason))
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()


def headline(page: Page) -> str:
    """Whose move it is, as the table says it, once the page has read the game's latest state."""
    expect(page.locator("#table")).to_have_attribute("aria-busy", "false")
    return page.locator(".headline").inner_text()


def await_turn(page: Page) -> str:
    """The headline once it is the player's turn or the game is over, the table settled (the AI
    thinks meanwhile)."""
    while not TURN_OR_END.match(line := headline(page)):
        expect(page.locator(".headline")).to_have_text(TURN_OR_END, timeout=20_000)
    return line


def play_a_turn(page: Page, keyboard: bool = False) -> str:
    """Play as a hurried player would, with the mouse or the keyboard: a playable card (taking the
    first colour when asked), else the first action listed; what was chosen."""
    hand = page.get_by_role("region", name="Your hand")
    playable = hand.get_by_role("button", name=re.compile("^Play "))
    if playable.count():
        card = playable.first
        chosen = card.get_attribute("aria-label") or ""
        press(page, card, keyboard)
        chooser = page.get_by_role("group", name=re.compile("^Choose how to play"))
        if chooser.count():  # several listed plays of the card: the page asks which, in place
            choices = chooser.get_by_role("button")
            if keyboard:
                expect(choices.first).to_be_focused()  # the keyboard is taken on to the choices
            choice = choices.first
            chosen += f": {choice.inner_text()}"
            press(page, choice, keyboard)
        return chosen
    action = page.get_by_role("region", name="Actions").get_by_role("button", name=ACTIONS).first
    chosen = action.inner_text()
    press(page, action, keyboard)
    return chosen


def press(page: Page, button: Locator, keyboard: bool) -> None:
    if keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()


def play_a_batch(page: Page) -> str | None:
    """Play two or more cards at once if the hand offers a batch: the first cards the page marks as
    able to follow (a wild card in the first colour offered), then the first way it offers to play
    them; what was played, or None (the batch given up) if no second card may follow."""
    hand = page.get_by_role("region", name="Your hand")
    start = hand.get_by_role("button", name="Play several cards at once…")
    if not start.count():
        return None
    start.click()
    composer = hand.get_by_role("group", name="Several cards at once")
    for _ in range(2):
        expect(composer).to_have_attribute("aria-busy", "false")
        following = hand.get_by_role("button", name=re.compile("^Add "))
        if not following.count():
            composer.get_by_role("button", name="Cancel").click()
            return None
        following.first.click()
        tints = composer.get_by_role("group", name=re.compile("^Colour for "))
        if tints.count():  # a wild card asks its colour in place
            tints.get_by_role("button").first.click()
    expect(composer).to_have_attribute("aria-busy", "false")
    play = composer.get_by_role("button", name=re.compile("^Play these")).first
    chosen = f"{composer.locator('p').first.inner_text()}: {play.inner_text()}"
    play.click()
    return chosen


OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const outside = [...document.querySelectorAll("body *")].filter((element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
  });
  return {width, scroll: document.documentElement.scrollWidth,
          outside: outside.slice(0, 8).map((e) => `${e.tagName}.${e.className.baseVal ?? e.className}`)};
}"""


def fits(page: Page, shot: Path) -> None:
    """The page, saved as `shot`, is as wide as the phone's screen and nothing reaches past its edges (a part
    being drawn again as the page's stream tells it something may reach past them for a moment: that passes)."""
    page.screenshot(path=str(shot), full_page=True)
    settled = time.monotonic() + 2
    while True:
        found = page.evaluate(OVERFLOWING)
        if (found["width"] == PHONE["width"] and found["scroll"] <= found["width"] and not found["outside"]) or \
                time.monotonic() > settled:
            break
        page.wait_for_timeout(100)
    assert found["width"] == PHONE["width"] and found["scroll"] <= found["width"] and not found["outside"], found


MAX_MOVES = 2000  # a game of finished_taki not over by then fails


def finished_taki(api: Client, names: tuple[str, ...] = ("ann", "bob"), players: tuple[str, ...] = ()) -> str:
    """A TAKI game its seats played to the end through the API, each its first listed play, else
    its first listed command (without the last-card rule, which makes games long); the seats taken
    with the `players`' tokens, if given (the seats are then theirs)."""
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": len(names),
                                                  "options": {"last_card_rule": "off"}}).json()["id"]
    holders = players or (None,) * len(names)
    tokens = [api.call("POST", f"/v1/games/{game_id}/join", holder, json={"name": name}).json()["token"]
              for name, holder in zip(names, holders, strict=True)]
    for _ in range(MAX_MOVES):
        game = api.call("GET", f"/v1/games/{game_id}").json()
        if game["status"] == "finished":
            return str(game_id)
        seat = game["to_move"][0]
        legal = api.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()["commands"]
        command = next((c for c in legal if c["type"] == "taki.play"), legal[0])
        assert api.call("POST", f"/v1/games/{game_id}/commands", tokens[seat], json=command).status_code == 201
    raise AssertionError(f"the game did not end in {MAX_MOVES} moves")


def settled(page: Page, version: int) -> None:
    """The table drawn at `version`, and the address saying so."""
    expect(page.locator("#table")).to_have_attribute("data-version", str(version))
    expect(page.locator("#table")).to_have_attribute("aria-busy", "false")
    expect(page).to_have_url(re.compile(rf"[?&]version={version}(&|$)"))
