"""Players' mail settings, the outbox and the letters it becomes, on fakeredis and a real server."""

from __future__ import annotations

import email
import time

import pytest
import redis

from application.letters import compose, time_left
from application.outbox import Mail, mail_address, mail_player
from events import keys
from players.mail import CONFIRMATIONS_PER_DAY, Choice, Mailboxes


def test_an_address_gets_nothing_until_its_link_confirms_it_once(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    token = boxes.ask_confirmation("p1", "Ann@Example.org")
    assert token is not None and boxes.recipient("p1", "your_turn") is None and boxes.player_of("ann@example.org") is None
    assert boxes.confirm("not-a-token") is None
    assert boxes.confirm(token) == "p1" and boxes.confirm(token) is None  # single use
    assert boxes.recipient("p1", "your_turn") == "Ann@Example.org" and boxes.player_of("ann@example.ORG") == "p1"
    assert client.get(keys.mail_confirmation("x")) is None and token.encode() not in b"".join(
        client.keys("meeple:mail-confirmation:*"))  # stored hashed
    later = boxes.ask_confirmation("p1", "ann@elsewhere.org")
    assert later is not None and boxes.recipient("p1", "your_turn") is None and boxes.player_of("ann@example.org") is None
    boxes.ask_confirmation("p1", "third@example.org")
    assert boxes.confirm(later) is None  # a link to an address since replaced


def test_confirmations_are_bounded_a_day(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    assert all(boxes.ask_confirmation("p1", f"a{n}@example.org") for n in range(CONFIRMATIONS_PER_DAY))
    assert boxes.ask_confirmation("p1", "more@example.org") is None


def test_choices_have_defaults_and_a_stop_token_stops_one_kind(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    boxes.confirm(boxes.ask_confirmation("p1", "ann@example.org") or "")
    assert boxes.of("p1").choices == {"your_turn": Choice.OFFLINE, "digest": Choice.OFF, "reminder": Choice.ON,
                                      "invitation": Choice.ON, "game_over": Choice.ON}
    boxes.choose("p1", {"digest": Choice.ON})
    assert client.zscore(keys.mail_digests(), "p1") is not None
    token = boxes.stop_token("p1", "reminder")
    assert boxes.stop_token("p1", "reminder") == token != boxes.stop_token("p1", "game_over")
    assert boxes.stop(token) == ("p1", "reminder") and boxes.stop("nothing") is None
    assert boxes.recipient("p1", "reminder") is None and boxes.recipient("p1", "game_over") == "ann@example.org"


def test_queued_mail_waits_on_the_outbox_as_it_was_asked(client: redis.Redis) -> None:  # type: ignore[type-arg]
    mail_player(client, "p1", "sign_in", "sign-in-1", link="https://x/sign-in#link=s")
    mail_address(client, "ann@example.org", "confirm_address", "confirm-1", name="ann", link="https://x/#c")
    waiting = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert waiting == [Mail("sign_in", "sign-in-1", to_player="p1", data={"link": "https://x/sign-in#link=s"}),
                       Mail("confirm_address", "confirm-1", to_address="ann@example.org",
                            data={"name": "ann", "link": "https://x/#c"})]
    with pytest.raises(ValueError):
        Mail("sign_in", "k")


def test_a_letter_has_both_parts_a_game_link_and_one_click_unsubscribe() -> None:
    deadline = int(time.time() * 1000) + 30 * 3600 * 1000 + 30_000
    mail = Mail("your_turn", "k", to_player="p1", data={"game_id": "g1", "game": "taki", "version": 3, "deadline": deadline})
    message = email.message_from_bytes(compose(mail, "ann@example.org", "<b>ann</b>", public_url="https://play.example",
                                               sender="Meeple <m@play.example>", stop_token="tok").as_bytes())
    assert message["Subject"] == "Your move in TAKI" and message["To"] == "ann@example.org"
    assert message["List-Unsubscribe"] == "<https://play.example/v1/mail/unsubscribe?token=tok>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text, html = (part.get_payload(decode=True).decode() for part in message.walk() if not part.is_multipart())
    assert "<b>ann</b>, it is your move in TAKI: 1 day 6 hours left." in text and "https://play.example/games/g1" in text
    assert "&lt;b&gt;ann&lt;/b&gt;" in html and "<b>ann" not in html and 'href="https://play.example/games/g1"' in html
    always = compose(Mail("sign_in", "k", to_player="p1", data={"link": "https://play.example/sign-in#link=s"}),
                     "ann@example.org", "ann", public_url="https://play.example", sender="m@x", stop_token=None)
    assert "List-Unsubscribe" not in always and "https://play.example/sign-in#link=s" in always.get_body(("plain",)).get_content()


def test_time_left_is_said_in_its_two_largest_units() -> None:
    now = 1_000_000.0
    assert time_left(int((now + 2 * 86400 + 3 * 3600 + 60) * 1000), now) == "2 days 3 hours"
    assert time_left(int((now + 3600 + 120) * 1000), now) == "1 hour 2 minutes"
    assert time_left(int((now + 20) * 1000), now) == "less than a minute"
