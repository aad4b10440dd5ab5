"""Tournaments in the browser: a player creates one with the form (the chosen game's options among its fields), another declines one invitation
(in the list of tournaments, and in the inbox, where it arrives live, or by blocking its sender) and follows another to its page, signs up there and follows its standings live as its AI entrants play it to the end, then opens a player page from the
standings, each rated table marked so; the list shows the open tournaments a page at a time (More adds the next) and, apart,
those that ended; a page whose stream is down reads the tournament that ended meanwhile; a tournament's page
shows its time control and its house rules; the pages fit a phone and work from the keyboard."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.integration.clients import Client
from tests.web.conftest import DESKTOP, PHONE
from tests.web.pages import browsers, fits, register, signed_in

LATER = 30_000  # the start waits for the workers' next sweep (every 10 s), the rounds for the AIs' games
PAGE = 20  # tournaments the list shows at first, and each More adds
DAY = 86_400_000
SIGN_UP = 45_000  # how long bo has to sign up in the browser before the tournament starts, on a loaded machine too


def test_the_creation_form_makes_a_tournament_and_refuses_at_the_field(page: Page, server: str, api: Client, tmp_path: Path) -> None:
    register(page, server, "ann")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Create a tournament").click()
    form = page.get_by_role("form", name="New tournament")
    form.get_by_label("Name", exact=True).fill("Friday cup")
    form.get_by_text("TAKI rules").click()  # the first game's options, under their summary
    expect(form.get_by_label("Last card penalty")).to_have_value("4")
    form.get_by_label("Game").select_option("djambi")
    expect(form.get_by_label("Last card penalty")).to_have_count(0)  # the options follow the game chosen
    form.get_by_text("Djambi rules").click()
    form.get_by_label("Encirclement").select_option("enclosure")
    page.screenshot(path=str(tmp_path / "form-1024.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "form-375.png")
    page.set_viewport_size(DESKTOP)
    form.get_by_label("Seats at each table").fill("4")
    form.get_by_label("Format").select_option("swiss")
    form.get_by_label("Rounds").fill("3")
    form.get_by_role("button", name="Create").click()
    expect(form.get_by_label("Sign-up closes and round 1 starts")).to_have_attribute("aria-invalid", "true")
    form.get_by_label("Sign-up closes and round 1 starts").fill(time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 7200)))
    form.get_by_label("Seats at each table").focus()
    page.keyboard.press("Enter")  # submits from the keyboard
    expect(page.get_by_role("heading", name="Friday cup")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Swiss of Djambi, 4 seats a table .* signing up"))).to_be_visible()
    expect(page.get_by_text("Time control: 1 day per move")).to_be_visible()
    expect(page.get_by_text("House rules: 1 option differs from the standard game")).to_be_visible()
    tournament = api.call("GET", f"/v1/tournaments/{page.url.rsplit('/', 1)[1]}").json()
    assert tournament["options"]["encirclement"] == "enclosure" and tournament["options"]["self_kill"] is True
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("table", name="Standings")).to_contain_text("ann")
    page.get_by_label("AI level").select_option("random")
    page.get_by_role("button", name="Enter an AI").click()
    expect(page.get_by_role("table", name="Standings")).to_contain_text("random AI 2")
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "creator-375.png")
    page.set_viewport_size(DESKTOP)
    page.once("dialog", lambda dialog: dialog.dismiss())  # asked first: dismissed, nothing happens
    page.get_by_role("button", name="Withdraw the AI").click()
    expect(page.get_by_role("table", name="Standings")).to_contain_text("random AI 2")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Withdraw the AI").click()
    expect(page.get_by_role("table", name="Standings")).not_to_contain_text("random AI 2")
    page.screenshot(path=str(tmp_path / "tournament-1280.png"), full_page=True)
    page.get_by_role("link", name="All tournaments").click()
    expect(page.get_by_role("link", name="Friday cup")).to_be_visible()


def test_the_list_shows_the_open_tournaments_a_page_at_a_time_and_those_that_ended_apart(
        page: Page, server: str, api: Client, tmp_path: Path) -> None:
    page.route(re.compile(r"/v1/tournaments\?stage=ended"), lambda route: route.fulfill(json={"tournaments": [], "next": None}))
    page.goto(f"{server}/tournaments")
    expect(page.get_by_role("region", name="Ended")).to_contain_text("None has ended yet.")
    page.unroute(re.compile(r"/v1/tournaments\?stage=ended"))
    ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()
    now = int(time.time() * 1000)
    body = {"game": "taki", "seats": 2, "format": "swiss", "rounds": 2, "turn_deadline": {"seconds": 86400, "policy": "forfeit"}}
    gone = api.call("POST", "/v1/tournaments", ann["token"], json=body | {"name": "Gone cup", "starts": now + 1_000}).json()
    for number in range(PAGE + 1):  # the latest starts of all (the others' start within hours): a page and one more
        api.call("POST", "/v1/tournaments", ann["token"], json=body | {"name": f"Far cup {number}", "starts": now + 80 * DAY - number})
    page.goto(f"{server}/tournaments")
    opened = page.get_by_role("region", name="Open")
    expect(opened.get_by_role("listitem").nth(PAGE - 1)).to_contain_text(f"Far cup {PAGE - 1}")
    expect(opened.get_by_role("link", name=f"Far cup {PAGE}")).to_have_count(0)
    opened.get_by_role("button", name="More").focus()
    page.keyboard.press("Enter")  # the next page, appended; the last (fewer than two pages are open), so More leaves
    expect(opened.get_by_role("listitem").nth(PAGE)).to_contain_text(f"Far cup {PAGE}")
    expect(opened.get_by_role("listitem").first).to_contain_text("Far cup 0")
    expect(opened.get_by_role("button", name="More")).to_be_hidden()
    expect(opened.get_by_role("link", name=f"Far cup {PAGE}")).to_be_focused()
    deadline = time.monotonic() + LATER / 1000
    while api.call("GET", f"/v1/tournaments/{gone['id']}").json()["stage"] != "cancelled":  # nobody signed up
        assert time.monotonic() < deadline
        time.sleep(0.5)
    page.reload()
    expect(page.get_by_role("region", name="Ended").get_by_role("link", name="Gone cup")).to_be_visible()
    expect(opened.get_by_role("listitem").first).to_contain_text("Far cup 0")
    expect(opened.get_by_role("link", name="Gone cup")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "list-1024.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "list-375.png")


def test_a_player_signs_up_and_follows_the_standings_live_then_opens_a_player_page(
        chromium: Browser, server: str, api: Client, tmp_path: Path) -> None:
    with browsers(chromium, tmp_path, ("ann", "bo"), DESKTOP) as pages:
        register(pages["ann"], server, "ann")
        ann, bo = signed_in(pages["ann"]), pages["bo"]
        bo.set_viewport_size(PHONE)
        register(bo, server, "bo")
        body = {"name": "Quick cup", "game": "taki", "seats": 2, "format": "round_robin", "starts": int(time.time() * 1000) + SIGN_UP,
                "turn_deadline": {"seconds": 3, "policy": "forfeit"}}
        invited = {"invited": [signed_in(bo)["id"]], "unlisted": True}
        tournament = api.call("POST", "/v1/tournaments", ann["token"], json=body | invited).json()
        for level in ("greedy", "random", "greedy"):  # greedy against random counts for ratings; greedy against greedy not
            api.call("POST", f"/v1/tournaments/{tournament['id']}/entrants", ann["token"], json={"level": level})
        api.call("POST", "/v1/tournaments", ann["token"], json=body | invited | {"name": "Other cup"})
        bo.get_by_role("link", name="Tournaments").click()
        bo.get_by_role("button", name="Decline Other cup").click()  # an invitation declined leaves the list
        expect(bo.get_by_role("link", name="Other cup")).to_have_count(0)
        expect(bo.get_by_role("listitem").filter(has_text="Quick cup")).to_contain_text("you are invited")
        fits(bo, tmp_path / "list-375.png")
        bo.get_by_role("link", name="Quick cup").click()
        bo.get_by_role("button", name="Sign up").focus()
        bo.keyboard.press("Enter")
        standings = bo.get_by_role("table", name="Standings")
        expect(standings.get_by_role("row")).to_have_count(5)  # the heading, three AIs and bo
        fits(bo, tmp_path / "signed-up-375.png")
        expect(bo.get_by_role("heading", name="Round 1")).to_be_visible(timeout=SIGN_UP + LATER)  # paired by the workers, drawn live
        expect(bo.get_by_text(re.compile(r"·\s*finished\b"))).to_be_visible(timeout=3 * LATER)
        expect(standings).to_contain_text("withdrawn after round")  # bo never moved: out of time, withdrawn
        fits(bo, tmp_path / "finished-375.png")
        final = api.call("GET", f"/v1/tournaments/{tournament['id']}").json()
        shown = [row.inner_text().split("\t")[1] for row in standings.get_by_role("row").all()[1:]]
        assert [name.split(" (")[0] for name in shown] == [row["name"] for row in final["standings"]]
        assert [table for each in final["paired"] for table in each["tables"] if table["places"] is None] == []
        levels = {entrant["id"]: entrant["level"] for entrant in final["entrants"]}
        rated = [[table["rated"] for table in each["tables"]] for each in final["paired"]]
        # bo against an AI counts, as do two AI levels; one AI level against itself does not
        assert rated == [[len({levels[entrant] or entrant for entrant in table["entrants"]}) == 2 for table in each["tables"]]
                         for each in final["paired"]]
        for number, tables in enumerate(rated, 1):
            shown = bo.get_by_role("region", name=f"Round {number}").get_by_role("listitem")
            for index, counts in enumerate(tables):
                expect(shown.nth(index).locator(".badge.rated")).to_have_count(int(counts))
        expect(bo.locator(".round .badge.rated").first).to_have_text("Rated")
        bo.set_viewport_size(DESKTOP)
        bo.screenshot(path=str(tmp_path / "finished-1280.png"), full_page=True)
        leader = final["standings"][0]
        standings.get_by_role("link", name=leader["name"]).click()
        identity = f"ai:{levels[leader['entrant']]}"  # an AI entrant is rated as its level
        expect(bo).to_have_url(re.compile(rf"/players/{identity.replace(':', '(:|%3A)')}$"))
        chart = bo.locator("section.career", has=bo.get_by_role("heading", name="TAKI")).locator("svg.chart circle")
        for _ in range(3):  # the chart is the player's history as the API gives it (the keeper may count a last game late)
            history = next((each["history"] for each in api.call("GET", f"/v1/players/{identity}/ratings").json()["games"]
                            if each["game"] == "taki"), [])
            expect(chart).to_have_count(len(history))
            drawn = chart.evaluate_all("(circles) => circles.map((c) => [c.dataset.gameId, Number(c.dataset.rating)])")
            if drawn == [[point["game_id"], point["rating"]] for point in history]:
                break
            bo.reload()
        assert drawn == [[point["game_id"], point["rating"]] for point in history]


def test_an_invited_player_finds_the_invitation_in_the_inbox_live_and_declines_it_there(
        chromium: Browser, server: str, api: Client, tmp_path: Path) -> None:
    with browsers(chromium, tmp_path, ("bo",), DESKTOP) as pages:
        bo = pages["bo"]
        register(bo, server, "bo")
        games = bo.get_by_role("list", name="Your games")
        expect(games).to_contain_text("No games yet")  # drawn before the invitation: what comes next comes on the stream
        ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()
        body = {"name": "Inbox cup", "game": "taki", "seats": 2, "format": "swiss", "rounds": 2, "invited": [signed_in(bo)["id"]],
                "starts": int(time.time() * 1000) + 3_600_000, "turn_deadline": {"seconds": 86400, "policy": "forfeit"}}
        tournament = api.call("POST", "/v1/tournaments", ann["token"], json=body).json()
        invitation = games.get_by_role("listitem").filter(has_text="Inbox cup")
        expect(invitation).to_contain_text("Invited to a tournament by ann")
        expect(invitation.get_by_role("link", name="Inbox cup")).to_have_attribute("href", f"/tournaments/{tournament['id']}")
        bo.screenshot(path=str(tmp_path / "inbox-invitation-1280.png"), full_page=True)
        bo.set_viewport_size(PHONE)
        fits(bo, tmp_path / "inbox-invitation-375.png")
        invitation.get_by_role("button", name="Decline the invitation to tournament Inbox cup").focus()
        bo.keyboard.press("Enter")
        expect(invitation).to_have_count(0)
        expect(games).to_contain_text("No games yet")
        assert api.call("GET", "/v1/players/me/inbox", signed_in(bo)["token"]).json()["tournaments"] == []
        cy = api.call("POST", "/v1/players", json={"name": "cy"}).json()
        api.call("POST", "/v1/tournaments", cy["token"], json=body | {"name": "Pest cup"})
        pest = games.get_by_role("listitem").filter(has_text="Pest cup")
        pest.get_by_role("button", name="Block cy").click()  # blocking the sender declines the invitation too
        pest.get_by_role("button", name="Yes, block cy").click()
        expect(games).to_contain_text("No games yet")
        assert api.call("GET", "/v1/players/me/blocks", signed_in(bo)["token"]).json()["blocks"][0]["player"] == cy["id"]


def test_the_page_reads_a_tournament_that_ended_while_its_stream_was_down(
        chromium: Browser, server: str, api: Client, tmp_path: Path) -> None:
    with browsers(chromium, tmp_path, ("ann",), DESKTOP) as pages:
        page = pages["ann"]
        register(page, server, "ann")
        body = {"name": "Empty cup", "game": "taki", "seats": 2, "format": "swiss", "rounds": 2,
                "starts": int(time.time() * 1000) + 2_000, "turn_deadline": {"seconds": 86400, "policy": "forfeit"}}
        tournament = api.call("POST", "/v1/tournaments", signed_in(page)["token"], json=body).json()
        page.route(re.compile(r"/stream$"), lambda route: route.fulfill(status=204))  # as a stream reconnecting after the end
        page.goto(f"{server}/tournaments/{tournament['id']}")
        expect(page.get_by_text(re.compile(r"·\s*signing up\s*·"))).to_be_visible()
        expect(page.get_by_text(re.compile(r"·\s*cancelled\s*·"))).to_be_visible(timeout=LATER)  # nobody signed up


def test_a_tournaments_page_shows_its_time_control_and_house_rules(page: Page, server: str, api: Client, tmp_path: Path) -> None:
    register(page, server, "ann")
    body = {"name": "House cup", "game": "taki", "seats": 2, "format": "round_robin", "starts": int(time.time() * 1000) + 3_600_000,
            "options": {"first_seat": 1, "last_card_rule": "off"},
            "turn_deadline": {"seconds": 172800, "policy": "forfeit", "weekends": True, "vacation_days": 3}}
    tournament = api.call("POST", "/v1/tournaments", signed_in(page)["token"], json=body).json()
    page.goto(f"{server}/tournaments/{tournament['id']}")
    expect(page.get_by_text("Time control: 2 days per move, weekends off, vacation adds up to 3 days")).to_be_visible()
    rules = page.locator(".house-rules")
    rules.get_by_text("House rules: 2 options differ from the standard game").focus()
    page.keyboard.press("Enter")  # opened from the keyboard
    expect(rules.locator("[data-option=first_seat]")).to_have_text("the seat that plays first (§3, step 4): 2")  # counted from 1
    expect(rules.locator("[data-option=last_card_rule]")).to_contain_text(": off")
    page.screenshot(path=str(tmp_path / "house-rules-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "house-rules-375.png")
