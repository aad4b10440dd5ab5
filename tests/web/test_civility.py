"""Messages between players and keeping it civil, in real browsers: two players write to each other
on the messages page; a blocked player's words leave the blocker's table and messages; a reported table
message reaches the admin's page and, hidden there, leaves both seats' open pages at once; an invitation's sender is
blocked from the inbox; a signed-in spectator's live table leaves out whom they block; a message reaches
the recipient's open conversation at once; a muted player is told until when; a message hidden while a seat's
stream is down leaves its page once the stream is back; a player is reported and blocked from a table's seats,
asked first, and offered both beside the players one has played with and in a conversation. At 1280 and 375 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from playwright.sync_api import Browser, Locator, Page, Request, expect

from tests.integration.clients import Client
from tests.integration.conftest import serving
from tests.integration.test_browser import cut_connections
from tests.web.conftest import PHONE, SETTINGS
from tests.web.pages import browsers, fits, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]

WIDE = {"width": 1280, "height": 900}


@pytest.fixture
def pages(chromium: Browser, tmp_path: Path) -> Iterator[dict[str, Page]]:
    """A page for each of ann, bo and the admin."""
    with browsers(chromium, tmp_path, ("ann", "bo", "admin"), WIDE) as opened:
        yield opened


def seated(pages: dict[str, Page], api: Client, server: str) -> str:
    """A TAKI game whose two seats ann and bo took on their pages, signed in; its id."""
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    for seat, name in enumerate(("ann", "bo")):
        page = pages[name]
        register(page, server, name)
        page.goto(f"{server}/games/{game_id}")
        page.get_by_role("button", name=f"Take seat {seat + 1}").click()
        expect(page.get_by_role("list", name="Seats")).to_contain_text(f"{name} (you)")
    for name in ("ann", "bo"):
        expect(pages[name].get_by_role("status").filter(has_text="Live")).to_be_visible()
    return str(game_id)


def table(page: Page) -> object:
    return page.get_by_role("log", name="Table messages")


def say(page: Page, text: str) -> None:
    page.get_by_label("Message to table").fill(text)
    page.get_by_label("Message to table").press("Enter")
    expect(table(page)).to_contain_text(text)


def test_players_write_to_each_other_and_a_blocked_players_words_leave_the_blocker(
        pages: dict[str, Page], api: Client, server: str, tmp_path: Path) -> None:
    ann, bo = pages["ann"], pages["bo"]
    game_id = seated(pages, api, server)
    ann_id = signed_in(ann)["id"]
    bo.goto(f"{server}/messages")
    bo.get_by_role("list", name="Players you have played with").get_by_role("link", name="ann").click()
    bo.get_by_label("Message to ann").fill("TAKI again <b>tomorrow</b>?")
    bo.get_by_label("Message to ann").press("Enter")
    expect(bo.get_by_role("log", name="Messages with ann")).to_contain_text("bo: TAKI again <b>tomorrow</b>?")
    ann.goto(f"{server}/messages")
    expect(ann.get_by_role("navigation", name="Account")).to_contain_text("Messages (1 unread)")
    expect(ann.get_by_role("list", name="Conversations")).to_contain_text("bo · 1 unread")
    ann.get_by_role("list", name="Conversations").get_by_role("link", name="bo").click()
    talk = ann.get_by_role("log", name="Messages with bo")
    expect(talk).to_contain_text("bo: TAKI again <b>tomorrow</b>?")  # drawn as text
    expect(ann.get_by_role("navigation", name="Account").get_by_role("link", name="Messages")).to_have_text("Messages")
    ann.get_by_label("Message to bo").fill("Yes, at 8")
    ann.get_by_role("button", name="Send").click()
    expect(talk).to_contain_text("ann: Yes, at 8")
    expect(bo.get_by_role("log", name="Messages with ann")).to_contain_text("ann: Yes, at 8")  # live
    ann.screenshot(path=str(tmp_path / "messages-1280.png"), full_page=True)

    for page in (ann, bo):
        page.goto(f"{server}/games/{game_id}")
        expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    say(bo, "from bo, before the block")
    expect(table(ann)).to_contain_text("from bo, before the block")
    table(ann).get_by_role("button", name="Block bo").click()
    table(ann).get_by_role("button", name="Yes, block bo").click()
    expect(table(ann)).not_to_contain_text("from bo")
    say(bo, "from bo, after the block")
    say(ann, "from ann")
    expect(table(ann)).not_to_contain_text("from bo")  # the stream, open since before the block, leaves it out
    ann.reload()
    expect(table(ann)).to_contain_text("from ann")
    expect(table(ann)).not_to_contain_text("from bo")
    expect(table(bo)).to_contain_text("from bo, after the block")  # the blocked player sees nothing change
    ann.goto(f"{server}/messages/{bo_id(bo)}")
    expect(ann.get_by_role("log", name="Messages with bo")).to_have_text("ann: Yes, at 8")
    bo.goto(f"{server}/messages/{ann_id}")
    expect(bo.get_by_role("log", name="Messages with ann")).to_contain_text("ann: Yes, at 8")
    bo.set_viewport_size(PHONE)
    fits(bo, tmp_path / "messages-375.png")


def bo_id(page: Page) -> str:
    return signed_in(page)["id"]


def admin_queue(admin: Page, server: str) -> Locator:
    """The admin's queue of reports, on their page signed in with the admin token."""
    admin.goto(f"{server}/admin")
    admin.get_by_label("Admin token").fill(SETTINGS["MEEPLE_ADMIN_TOKEN"])
    admin.get_by_role("button", name="Sign in as admin").click()
    return admin.get_by_role("list", name="Reported messages")


def test_a_reported_message_reaches_the_admin_and_hidden_there_leaves_both_seats(
        pages: dict[str, Page], api: Client, server: str, tmp_path: Path) -> None:
    ann, bo, admin = pages["ann"], pages["bo"], pages["admin"]
    seated(pages, api, server)
    say(bo, "You fool")
    say(bo, "Good luck")
    expect(table(ann)).to_contain_text("Good luck")
    rude = table(ann).get_by_role("listitem").filter(has_text="You fool")
    rude.get_by_role("button", name="Report").click()
    ann.get_by_label("Why report this message?").fill("Insults")
    ann.get_by_role("button", name="Send report").click()
    expect(rude).to_contain_text("Reported to the admin.")

    queue = admin_queue(admin, server)
    report = queue.get_by_role("listitem").filter(has_text="You fool")
    expect(report).to_contain_text("Reported: Insults")
    expect(report).to_contain_text("bo wrote, in a game, table:")
    expect(report.locator("p bdi").first).to_have_text("bo")  # a name set apart from the sentence's direction
    expect(report.get_by_role("button", name="Mute bo for a day").locator("bdi")).to_have_text("bo")
    admin.screenshot(path=str(tmp_path / "admin-1280.png"), full_page=True)
    admin.set_viewport_size(PHONE)
    fits(admin, tmp_path / "admin-375.png")
    report.get_by_role("button", name="Hide message").click()
    expect(report).to_have_count(0)  # decided (other tests' reports may wait in the same server's queue)

    for seat in (ann, bo):  # the open pages, live
        expect(table(seat)).not_to_contain_text("You fool")
        expect(table(seat)).to_contain_text("Good luck")
    for seat in (ann, bo):
        seat.reload()
        expect(table(seat)).to_contain_text("Good luck")
        expect(table(seat)).not_to_contain_text("You fool")


def test_an_invitation_offers_to_block_its_sender(page: Page, api: Client, server: str) -> None:
    register(page, server, "ann")
    gil = api.call("POST", "/v1/players", json={"name": "gil"}).json()
    game_id = api.call("POST", "/v1/games", gil["token"], json={
        "game": "taki", "seats": 2, "reserved": [{"seat": 1, "player": signed_in(page)["id"]}]}).json()["id"]
    games = page.get_by_role("list", name="Your games")
    invitation = games.get_by_role("listitem").filter(has_text=game_id)
    expect(invitation).to_contain_text("Invited to seat 2 by gil")
    invitation.get_by_role("button", name="Block gil").click()
    # another invitation arriving redraws the inbox: the question asked stays open
    hal = api.call("POST", "/v1/players", json={"name": "hal"}).json()
    other = api.call("POST", "/v1/games", hal["token"], json={
        "game": "taki", "seats": 2, "reserved": [{"seat": 1, "player": signed_in(page)["id"]}]}).json()["id"]
    expect(games.get_by_role("listitem").filter(has_text=other)).to_contain_text("Invited to seat 2 by hal")
    invitation.get_by_role("button", name="Yes, block gil").click()
    expect(invitation).to_have_count(0)  # declined as well
    expect(games.get_by_role("listitem").filter(has_text=other).get_by_role("button", name="Block hal")).to_be_visible()
    blocks = api.call("GET", "/v1/players/me/blocks", signed_in(page)["token"]).json()["blocks"]
    assert [block["name"] for block in blocks] == ["gil"]


def test_a_signed_in_spectator_watches_with_their_blocks(chromium: Browser, api: Client, server: str, tmp_path: Path) -> None:
    with browsers(chromium, tmp_path, ("ann", "bo", "cy"), WIDE) as opened:
        cy = opened["cy"]
        game_id = seated(opened, api, server)
        register(cy, server, "cy")
        cy.goto(f"{server}/games/{game_id}")
        expect(cy.get_by_role("status").filter(has_text="Live")).to_be_visible()
        say(opened["bo"], "from bo, before the block")
        expect(table(cy)).to_contain_text("from bo, before the block")
        table(cy).get_by_role("button", name="Block bo").click()
        table(cy).get_by_role("button", name="Yes, block bo").click()
        expect(table(cy)).not_to_contain_text("from bo")
        say(opened["bo"], "from bo, after the block")
        say(opened["ann"], "from ann")
        expect(table(cy)).to_contain_text("from ann")  # live, on the stream opened as cy
        expect(table(cy)).not_to_contain_text("from bo")
        cy.reload()  # the room read again, page by page, as cy
        expect(table(cy)).to_contain_text("from ann")
        expect(table(cy)).not_to_contain_text("from bo")
        cy.set_viewport_size(PHONE)
        fits(cy, tmp_path / "spectator-375.png")


def test_a_message_reaches_the_open_conversation_at_once(chromium: Browser, tmp_path: Path) -> None:
    """On a server whose streams beat once a minute, so that no heartbeat brings the message."""
    (tmp_path / "slow").mkdir()
    with serving(tmp_path / "slow", SETTINGS | {"MEEPLE_STREAM_HEARTBEAT_MS": "60000"}) as slow, \
            requests.Session() as http, browsers(chromium, tmp_path, ("ann",), WIDE) as opened:
        ann = opened["ann"]
        register(ann, slow, "ann")
        api = Client(http, slow)
        bo = api.call("POST", "/v1/players", json={"name": "bo"}).json()
        reads: list[str] = []

        def read_again(request: Request) -> bool:
            """Whether the page reads the conversation a second time: the inbox stream's first message came."""
            if request.method == "GET" and f"/conversations/{bo['id']}" in request.url:
                reads.append(request.url)
            return len(reads) == 2

        with ann.expect_request(read_again):
            ann.goto(f"{slow}/messages/{bo['id']}")
        talk = ann.get_by_role("log", name="Messages with bo")
        expect(ann.get_by_label("Message to bo")).to_be_visible()
        api.call("POST", f"/v1/players/me/conversations/{signed_in(ann)['id']}", bo["token"], json={"text": "TAKI at 8?"})
        expect(talk).to_contain_text("bo: TAKI at 8?")  # within expect's 10 s, not the minute's heartbeat


def test_a_muted_player_is_told_until_when(chromium: Browser, api: Client, server: str, tmp_path: Path) -> None:
    with browsers(chromium, tmp_path, ("ann",), WIDE) as opened:
        ann = opened["ann"]
        register(ann, server, "ann")
        bo = api.call("POST", "/v1/players", json={"name": "bo"}).json()
        until = api.call("PUT", f"/v1/admin/mutes/{signed_in(ann)['id']}", SETTINGS["MEEPLE_ADMIN_TOKEN"],
                         json={"minutes": 90}).json()["until"]
        ann.goto(f"{server}/messages/{bo['id']}")
        ann.get_by_label("Message to bo").fill("hello?")
        ann.get_by_label("Message to bo").press("Enter")
        at = datetime.fromtimestamp(until / 1000, UTC)
        expect(ann.get_by_role("alert")).to_contain_text(f"muted you until {at.day} {at:%B %Y, %H:%M} UTC")
        ann.set_viewport_size(PHONE)
        fits(ann, tmp_path / "muted-375.png")


def test_a_message_hidden_while_a_seats_stream_is_down_leaves_its_page_once_it_is_back(
        chromium: Browser, tmp_path: Path) -> None:
    """On a server of its own, whose connections the test cuts."""
    with serving(tmp_path, SETTINGS) as own, requests.Session() as http, \
            browsers(chromium, tmp_path, ("ann", "bo"), WIDE) as opened:
        api, ann = Client(http, own), opened["ann"]
        reads: list[tuple[str, str | None]] = []  # the reads of ann's table room and their tokens, from the page's start
        ann.on("request", lambda request: reads.append((request.url, request.headers.get("authorization")))
               if "/chat/table?" in request.url else None)
        game_id = seated(opened, api, own)
        say(opened["bo"], "You fool")
        say(opened["bo"], "Good luck")
        rude = table(ann).get_by_role("listitem").filter(has_text="You fool")
        message_id = rude.get_attribute("data-id")
        ann.route(re.compile(r"/v1/games/[^/]+/stream"), lambda route: route.fulfill(status=503))  # no stream again yet
        assert cut_connections(int(own.rsplit(":", 1)[1])) >= 1
        expect(ann.get_by_role("status").filter(has_text="Reconnecting")).to_be_visible()
        report = api.call("POST", f"/v1/games/{game_id}/chat/table/messages/{message_id}/reports", signed_in(ann)["token"],
                          json={"reason": "Insults"}).json()
        api.call("POST", f"/v1/admin/reports/{report['id']}/decision", SETTINGS["MEEPLE_ADMIN_TOKEN"], json={"hide": True})
        expect(table(opened["bo"])).not_to_contain_text("You fool")  # bo's stream, back, tells the hide
        expect(rude).to_be_visible()  # ann's page has not heard of it
        ann.unroute_all(behavior="ignoreErrors")
        expect(ann.get_by_role("status").filter(has_text="Live")).to_be_visible(timeout=20_000)
        expect(table(ann)).not_to_contain_text("You fool")
        expect(table(ann)).to_contain_text("Good luck")
        whole = [token for url, token in reads if "hides_after=" not in url]  # a first reading, from the room's start
        assert len(whole) == len(set(whole)), reads  # read from its start once for each reader (a spectator, then the seat)
        query = parse_qs(urlsplit(reads[-1][0]).query)  # reopened, it reads on from the last message it heard
        assert query["after"] == [table(ann).get_by_role("listitem").last.get_attribute("data-id")] and "hides_after" in query, reads
        ann.screenshot(path=str(tmp_path / "hidden-while-away-1280.png"), full_page=True)
        ann.set_viewport_size(PHONE)
        fits(ann, tmp_path / "hidden-while-away-375.png")


def test_a_player_is_reported_and_blocked_from_the_seats_and_offered_both_on_the_messages_page(
        pages: dict[str, Page], api: Client, server: str, tmp_path: Path) -> None:
    ann, bo, admin = pages["ann"], pages["bo"], pages["admin"]
    game_id = seated(pages, api, server)
    say(bo, "hello from bo")
    expect(table(ann)).to_contain_text("hello from bo")
    expect(ann.locator("details.chat > summary")).to_have_text("Chat · 1 unread")
    seats = ann.get_by_role("list", name="Seats")
    expect(seats.get_by_role("listitem").filter(has_text="ann (you)").get_by_role("button")).to_have_count(0)
    theirs = seats.get_by_role("listitem").filter(has_text="bo")
    theirs.get_by_role("button", name="Report bo").click()
    ann.get_by_label("Why report bo?").fill("Stalls every game")
    token = ann.evaluate(f"JSON.parse(localStorage.getItem('meeple.seats'))['{game_id}'].token")
    api.call("POST", f"/v1/games/{game_id}/commands", token, json={"type": "taki.draw"})  # ann moves from elsewhere
    expect(ann.locator(".headline")).to_have_text("Waiting for bo")  # and her table is drawn again
    expect(ann.get_by_label("Why report bo?")).to_have_value("Stalls every game")  # the report she writes with it
    expect(ann.get_by_label("Why report bo?")).to_be_focused()
    ann.get_by_role("button", name="Send report").click()
    expect(theirs).to_contain_text("Reported to the admin.")

    theirs.get_by_role("button", name="Block bo").click()
    expect(theirs.get_by_role("group", name="Block bo?")).to_be_visible()
    ann.screenshot(path=str(tmp_path / "seats-1280.png"), full_page=True)
    theirs.get_by_role("button", name="Cancel").click()  # asked, and nothing done
    expect(table(ann)).to_contain_text("hello from bo")
    assert api.call("GET", "/v1/players/me/blocks", signed_in(ann)["token"]).json()["blocks"] == []
    theirs.get_by_role("button", name="Block bo").click()
    theirs.get_by_role("button", name="Yes, block bo").click()
    expect(theirs).to_contain_text("You block bo.")
    expect(table(ann)).not_to_contain_text("hello from bo")
    expect(ann.locator("details.chat > summary")).to_have_text("Chat")  # the unread line left, and its count
    assert [block["name"] for block in api.call("GET", "/v1/players/me/blocks", signed_in(ann)["token"]).json()["blocks"]] == ["bo"]

    queue = admin_queue(admin, server)
    report = queue.get_by_role("listitem").filter(has_text="Stalls every game")
    expect(report).to_contain_text("The player bo was reported.")
    expect(report.get_by_role("button", name="Hide message")).to_have_count(0)  # no message to hide
    admin.screenshot(path=str(tmp_path / "player-report-1280.png"), full_page=True)
    admin.set_viewport_size(PHONE)
    fits(admin, tmp_path / "player-report-375.png")
    report.get_by_role("button", name="Mute bo for a day").click()
    report.get_by_role("button", name="Dismiss").click()
    expect(report).to_have_count(0)
    say_refused = api.call("POST", f"/v1/players/me/conversations/{signed_in(ann)['id']}", signed_in(bo)["token"],
                           json={"text": "hi"})
    assert say_refused.status_code == 403  # muted

    bo.goto(f"{server}/messages")
    played = bo.get_by_role("list", name="Players you have played with").get_by_role("listitem").filter(has_text="ann")
    expect(played.get_by_role("button", name="Report ann")).to_be_visible()
    expect(played.get_by_role("button", name="Block ann")).to_be_visible()
    bo.set_viewport_size(PHONE)
    fits(bo, tmp_path / "played-with-375.png")
    bo.goto(f"{server}/messages/{signed_in(ann)['id']}")
    expect(bo.get_by_role("button", name="Report ann")).to_be_visible()
    expect(bo.get_by_role("button", name="Block ann")).to_be_visible()
    ann.set_viewport_size(PHONE)
    fits(ann, tmp_path / "seats-375.png")
