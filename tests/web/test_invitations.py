"""Inviting people to a game from the browser: a seat for whoever gets its link, opened in another
browser that registers on the spot and takes the seat; a seat for a player named among those one has
played with, which reaches their inbox; a reserved seat naming whom it waits for; an open inbox that
drops an invitation once its seat is taken elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, register, signed_in
from tests.web.test_seat_link import browsers as two_browsers  # a page each in a browser profile of its own

pytestmark = [pytest.mark.redis, pytest.mark.http]
browsers = two_browsers

WIDE = {"width": 1280, "height": 800}


def shots(page: Page, tmp_path: Path, name: str) -> None:
    """The page saved at 1280 px and at 375 px, where it must fit."""
    page.set_viewport_size(WIDE)
    page.screenshot(path=str(tmp_path / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / f"{name}-375.png")


def create_from_form(page: Page, seat_two: str, name: str | None = None, sit: bool = True) -> None:
    """Create a two-seat TAKI game from the form, its second seat for `seat_two`, named `name`; the
    creator takes the first seat if `sit`."""
    form = page.get_by_role("form", name="New game")
    form.get_by_label("Game", exact=True).select_option("taki")
    form.get_by_label("Number of seats").fill("2")
    form.get_by_label("Seat 2", exact=True).select_option(label=seat_two)
    if name is not None:
        form.get_by_label("Player's name").fill(name)
    form.get_by_label("Take a seat myself").set_checked(sit)
    form.get_by_role("button", name="Create game").click()


def test_an_invitation_by_link_seats_the_invited_player(
        browsers: tuple[Page, Page], api: Client, server: str, tmp_path: Path) -> None:
    host, guest = browsers
    register(host, server, "ann")
    create_from_form(host, "Whoever I send a link")
    expect(host).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = host.url.rsplit("/", 1)[1]
    seats = host.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("Seat 1: ann (you)")
    expect(seats).to_contain_text("Seat 2: reserved for whoever has its link")
    url = seats.get_by_label("Its link: send it to whoever you invite").input_value()
    assert re.fullmatch(rf"{re.escape(server)}/games/{game_id}#invite=[\w-]{{43}}", url), url
    shots(host, tmp_path, "link-host")

    guest.goto(url)
    offer = guest.get_by_role("region", name="You are invited")
    expect(offer).to_be_visible()
    assert guest.evaluate("location.href") == f"{server}/games/{game_id}"  # the code leaves the address bar at once
    shots(guest, tmp_path, "link-guest")
    offer.get_by_label("Your player name").fill("bo")
    offer.get_by_role("button", name="Register and take the seat").click()
    expect(guest.get_by_role("navigation", name="Account")).to_contain_text("Signed in as bo")
    expect(guest.locator(".headline")).to_have_text(re.compile("^(Your turn|Waiting for ann)$"))  # the game began
    game = api.call("GET", f"/v1/games/{game_id}").json()
    assert [seat["name"] for seat in game["seats"]] == ["ann", "bo"] and game["status"] == "active"


def test_a_creator_who_holds_no_seat_reads_the_link_on_the_table(page: Page, server: str) -> None:
    register(page, server, "ann")
    create_from_form(page, "Whoever I send a link", sit=False)
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    seats = page.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("Seat 1: free")
    expect(seats.get_by_label("Its link: send it to whoever you invite")).to_have_value(re.compile(r"#invite=[\w-]{43}$"))


def test_a_used_link_is_refused_in_the_page(page: Page, api: Client, server: str) -> None:
    guest = page
    ann = api.call("POST", "/v1/players", json={"name": "ann"}).json()
    made = api.call("POST", "/v1/games", ann["token"], json={
        "game": "taki", "seats": 3, "reserved": [{"seat": 1, "link": True}, {"seat": 2, "link": True}]})
    game_id, code = made.json()["id"], made.json()["seats"][2]["invite_code"]
    dee = api.call("POST", "/v1/players", json={"name": "dee"}).json()
    api.call("POST", f"/v1/games/{game_id}/join", dee["token"], json={"name": "dee", "invite": code})
    register(guest, server, "eve")  # sent the same link: it seated dee, and opens no other seat
    guest.goto(f"{server}/games/{game_id}#invite={code}")
    guest.get_by_role("region", name="You are invited").get_by_role("button", name="Take the seat").click()
    expect(guest.get_by_role("alert")).to_contain_text("This invitation link opens no seat of this game")
    expect(guest.get_by_role("region", name="You are invited")).to_have_count(0)


def test_an_invitation_by_name_from_the_form_reaches_the_players_inbox(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    kim = api.call("POST", "/v1/players", json={"name": "kim"}).json()
    register(page, server, "jo")
    played = api.call("POST", "/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    for player in (signed_in(page), kim):  # jo and kim have played together: kim is jo's contact
        api.call("POST", f"/v1/games/{played}/join", player["token"], json={"name": player["name"]})
    page.reload()
    create_from_form(page, "A player I invite by name", "zed")
    expect(page.get_by_role("form", name="New game")).to_contain_text("No player you have played with is named 'zed'")
    expect(page.locator("#contact-names option")).to_have_attribute("value", "kim")  # offered as one types
    page.get_by_label("Player's name").scroll_into_view_if_needed()
    shots(page, tmp_path, "form-by-name")
    page.set_viewport_size(WIDE)
    page.get_by_label("Player's name").fill("kim")
    page.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("list", name="Seats")).to_contain_text("Seat 2: reserved for kim")
    assert api.call("GET", f"/v1/games/{game_id}").json()["rated"]  # jo's seat was kept for jo, kim's for kim
    inbox = api.call("GET", "/v1/players/me/inbox", kim["token"]).json()["games"]
    assert [(entry["invitation"], entry["invited_by"]["name"]) for entry in inbox if entry["game"]["id"] == game_id] == [(1, "jo")]
    page.goto(f"{server}/")
    listed = page.get_by_role("list", name="Games", exact=True).get_by_role("listitem").filter(has_text=game_id)
    expect(listed).to_contain_text("jo · reserved for kim")  # the lobby says whom the seat waits for
    shots(page, tmp_path, "lobby-reserved")


def test_an_open_inbox_drops_an_invitation_when_its_seat_is_taken(page: Page, api: Client, server: str) -> None:
    register(page, server, "fay")
    me = signed_in(page)
    games = page.get_by_role("list", name="Your games")
    expect(games).to_contain_text("No games yet")
    host = api.call("POST", "/v1/players", json={"name": "gil"}).json()["token"]
    made = [api.call("POST", "/v1/games", host, json={
        "game": "taki", "seats": 3, "reserved": [{"seat": 1, "player": me["id"]}]}).json()["id"] for _ in range(2)]
    taken, declined = (games.get_by_role("listitem").filter(has_text=game_id) for game_id in made)
    expect(taken).to_contain_text("Invited to seat 2 by gil")
    expect(declined).to_contain_text("Invited to seat 2 by gil")
    api.call("POST", f"/v1/games/{made[0]}/join", me["token"], json={"name": "fay"})  # on another device
    expect(taken).not_to_contain_text("Invited")
    expect(taken).to_contain_text("Waiting for players")
    api.call("DELETE", f"/v1/players/me/invitations/{made[1]}", me["token"])
    expect(declined).to_have_count(0)
