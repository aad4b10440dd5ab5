"""The home page and the lobby: a player's token kept and forgotten, the create form's refusals
shown where they belong, its Rated choice kept by the game made, games listed by status (a rated one
marked so), and seats taken, given to an AI and left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.pages import fits, refused_at, register, signed_in

pytestmark = [pytest.mark.redis, pytest.mark.http]


def test_a_refused_game_shows_the_servers_error_next_to_the_field_it_names(page: Page, server: str) -> None:
    page.goto(f"{server}/")
    form = page.get_by_role("form", name="New game")
    form.get_by_text("TAKI rules").click()  # the rules' options open under their summary
    form.get_by_label("Last card penalty").fill("99")
    form.get_by_role("button", name="Create game").click()
    penalty = form.get_by_label("Last card penalty")
    refused_at(penalty, "must be between 0 and 20")
    expect(page).to_have_url(f"{server}/")  # nothing was created
    expect(form.get_by_role("option", name="Whoever I send a link")).to_have_count(0)  # an invitation needs a signed-in sender

    form.get_by_label("Last card penalty").fill("4")
    form.get_by_label("Give each move a deadline").check()
    form.get_by_label("Time for each move", exact=True).fill("0")
    form.get_by_role("button", name="Create game").click()
    seconds = form.get_by_label("Time for each move", exact=True)
    expect(seconds).to_have_accessible_description(re.compile(r"^Up to a year.*greater than or equal to 1"))
    expect(penalty).not_to_have_attribute("aria-invalid", "true")  # the earlier error is gone


def test_the_create_forms_rated_choice_reaches_the_game_and_the_lobby_marks_rated_games(
        page: Page, api: Client, server: str, tmp_path: Path) -> None:
    register(page, server, "ann")
    made = {}
    for choice in ("As its seats say", "Not rated"):  # ann's own seat and an AI's: rated unless ann says
        page.goto(f"{server}/")
        form = page.get_by_role("form", name="New game")
        form.get_by_label("Seat 2", exact=True).select_option("greedy")
        rated = form.get_by_label("Rated", exact=True)
        expect(rated).to_have_accessible_description(re.compile(r"no AI level sits at two seats \(such a game is never rated\)"))
        rated.select_option(label=choice)
        form.get_by_role("button", name="Create game").click()
        expect(page).to_have_url(re.compile(r"/games/[\w-]+$"))
        made[choice] = page.url.rsplit("/", 1)[1]
    assert api.call("GET", f"/v1/games/{made['As its seats say']}").json()["rated"] is True
    assert api.call("GET", f"/v1/games/{made['Not rated']}").json()["rated"] is False
    page.goto(f"{server}/")
    page.get_by_label("Lobby game").select_option("taki")
    page.get_by_label("Lobby status").select_option("active")
    games = page.get_by_role("list", name="Games", exact=True).get_by_role("listitem")
    expect(games.filter(has_text=made["As its seats say"]).locator(".badge.rated")).to_have_text("Rated")
    expect(games.filter(has_text=made["Not rated"])).to_contain_text("In play")
    expect(games.filter(has_text=made["Not rated"]).locator(".badge.rated")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "lobby-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    fits(page, tmp_path / "lobby-375.png")


def test_a_visitor_takes_a_seat_from_the_lobby_gives_one_to_an_ai_and_leaves(page: Page, api: Client, server: str) -> None:
    game_id = api.call("POST", "/v1/games", json={"game": "taki", "seats": 3}).json()["id"]
    page.goto(f"{server}/")
    page.get_by_label("Play as").fill("dee")
    games = page.get_by_role("list", name="Games")
    listed = games.get_by_role("listitem").filter(has_text=game_id)
    listed.get_by_role("button", name="Take a seat").click()
    expect(page).to_have_url(f"{server}/games/{game_id}")
    seats = page.get_by_role("list", name="Seats")
    expect(seats).to_contain_text("Seat 1: dee (you)")
    seats.get_by_role("listitem").nth(2).get_by_role("button", name="Seat an AI").click()
    expect(seats).to_contain_text("Seat 3: random bot")
    seats.get_by_role("button", name="Leave").click()
    expect(seats).to_contain_text("Seat 1: free")
    assert api.call("GET", f"/v1/games/{game_id}").json()["seats"][0]["name"] is None

    page.goto(f"{server}/")
    page.get_by_label("Lobby status").select_option("active")
    expect(games).not_to_contain_text(game_id)
    page.get_by_label("Lobby status").select_option("waiting")
    expect(games).to_contain_text(game_id)


def test_the_lobby_filters_by_game_and_pages_on(page: Page, api: Client, server: str) -> None:
    made = [api.call("POST", "/v1/games", json={"game": "bahama_taxi", "seats": 2}).json()["id"] for _ in range(11)]
    page.goto(f"{server}/")
    page.get_by_label("Lobby game").select_option("bahama_taxi")
    games = page.get_by_role("list", name="Games").get_by_role("listitem")
    expect(games).to_have_count(10)  # newest first, ten to a page
    expect(games.first).to_contain_text(made[-1])
    expect(games).to_contain_text(["Bahama Taxi"] * 10)
    page.get_by_role("button", name="More games").click()
    expect(games).to_have_count(11)
    expect(games.last).to_contain_text(made[0])
    expect(page.get_by_role("button", name="More games")).to_be_hidden()


def test_a_player_signs_in_with_a_token_and_signs_out(page: Page, api: Client, server: str) -> None:
    token = api.call("POST", "/v1/players", json={"name": "eve"}).json()["token"]
    page.goto(f"{server}/")
    page.get_by_label("Player token").fill("not a token at all")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("Authorization")
    page.get_by_label("Player token").fill(token)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page).to_have_title("Your games · Meeple")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("form", name="Returning player")).to_be_visible()
    assert page.evaluate("localStorage.getItem('meeple.player')") is None


def test_an_invitation_is_declined_from_the_inbox(page: Page, api: Client, server: str) -> None:
    register(page, server, "hal")
    games = page.get_by_role("list", name="Your games")
    me = signed_in(page)
    host = api.call("POST", "/v1/players", json={"name": "ida"}).json()["token"]
    game_id = api.call("POST", "/v1/games", host, json={
        "game": "taki", "seats": 2, "reserved": [{"seat": 1, "player": me["id"]}]}).json()["id"]
    invitation = games.get_by_role("listitem").filter(has_text=game_id)
    expect(invitation).to_contain_text("Invited to seat 2 by ida")
    invitation.get_by_role("button", name="Decline").focus()
    page.keyboard.press("Enter")
    expect(invitation).to_have_count(0)
    page.reload()
    expect(games).to_contain_text("No games yet")
    seats = api.call("GET", f"/v1/games/{game_id}").json()["seats"]
    assert [seat["reserved"] for seat in seats] == [False, False]


def test_an_invitation_arrives_in_the_inbox_live_and_is_taken(page: Page, api: Client, server: str) -> None:
    register(page, server, "fay")
    games = page.get_by_role("list", name="Your games")
    expect(games).to_contain_text("No games yet")
    me = signed_in(page)
    host = api.call("POST", "/v1/players", json={"name": "gil"}).json()["token"]  # who invites fay
    game_id = api.call("POST", "/v1/games", host, json={
        "game": "taki", "seats": 2, "reserved": [{"seat": 1, "player": me["id"]}]}).json()["id"]
    invitation = games.get_by_role("listitem").filter(has_text=game_id)
    expect(invitation).to_contain_text("Invited to seat 2")  # through the inbox stream, without a reload
    invitation.get_by_role("link").click()
    seats = page.get_by_role("list", name="Seats")
    seats.get_by_role("button", name="Take seat 2").click()
    expect(seats).to_contain_text("Seat 2: fay (you)")
    seats.get_by_role("listitem").first.get_by_role("button", name="Seat an AI").click()
    # the game started: eight cards dealt (whoever moves first, only the seat's own moves change its hand)
    expect(page.get_by_role("region", name="Your hand").get_by_role("list").get_by_role("button")).to_have_count(8)


def test_a_seat_reserved_for_another_player_is_not_offered(page: Page, api: Client, server: str) -> None:
    register(page, server, "jo")
    host = api.call("POST", "/v1/players", json={"name": "kim"}).json()["token"]
    invitee = api.call("POST", "/v1/players", json={"name": "lou"}).json()["id"]
    game_id = api.call("POST", "/v1/games", host, json={
        "game": "taki", "seats": 3, "reserved": [{"seat": 1, "player": invitee}]}).json()["id"]
    page.goto(f"{server}/games/{game_id}")
    seats = page.get_by_role("list", name="Seats")
    expect(seats.get_by_role("button", name="Take seat 3")).to_be_visible()
    expect(seats.get_by_role("button", name="Take seat 2")).to_have_count(0)
    expect(seats).to_contain_text("Seat 2: reserved for lou")
