"""Players' mail settings, the outbox and the letters it becomes, on fakeredis and a real server."""

from __future__ import annotations

import email
import time
from typing import Any

import pytest
import redis

from application.letters import compose, time_left
from application.outbox import Mail, mail_address, mail_player
from events import keys
from events.seats import hash_token
from players.errors import MailAddressTaken
from players.mail import CONFIRMATIONS_PER_DAY, Choice, Mailboxes, MailSettings


def test_an_address_gets_nothing_until_its_link_confirms_it_once(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    token = boxes.ask_confirmation("p1", "Ann@Example.org")
    assert token is not None and boxes.recipient("p1", "your_turn") is None and boxes.player_of("ann@example.org") is None
    assert boxes.confirm("not-a-token") is None
    assert boxes.confirm(token) == "p1" and boxes.confirm(token) is None  # single use
    assert boxes.recipient("p1", "your_turn") == "Ann@Example.org" and boxes.player_of("ann@example.ORG") == "p1"
    assert client.get(keys.mail_confirmation("x")) is None and token.encode() not in b"".join(
        client.keys("meeple:mail-confirmation:*"))  # stored hashed
    later = boxes.ask_confirmation("p1", "ann@elsewhere.org")  # pending: the confirmed one still gets mail
    assert later is not None and boxes.recipient("p1", "your_turn") == "Ann@Example.org"
    boxes.ask_confirmation("p1", "third@example.org")
    assert boxes.confirm(later) is None  # a link to an address since replaced


def test_confirmations_are_bounded_a_day(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    assert all(boxes.ask_confirmation("p1", f"a{n}@example.org") for n in range(CONFIRMATIONS_PER_DAY))
    assert boxes.ask_confirmation("p1", "more@example.org") is None


def test_choices_have_defaults_and_a_stop_token_stops_one_kind(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    boxes.confirm(boxes.ask_confirmation("p1", "ann@example.org") or "")
    assert {kind: boxes.of("p1").choices[kind] for kind in ("your_turn", "digest", "reminder", "invitation", "game_over")} == {
        "your_turn": Choice.OFFLINE, "digest": Choice.OFF, "reminder": Choice.ON, "invitation": Choice.ON, "game_over": Choice.ON}
    boxes.choose("p1", {"digest": Choice.ON})
    assert client.zscore(keys.mail_digests(), "p1") is not None
    token = boxes.stop_token("p1", "reminder")
    assert boxes.stop_token("p1", "reminder") == token != boxes.stop_token("p1", "game_over")
    assert boxes.stop(token) == ("p1", "reminder") and boxes.stop("nothing") is None
    assert boxes.recipient("p1", "reminder") is None and boxes.recipient("p1", "game_over") == "ann@example.org"


def test_queued_mail_waits_on_the_outbox_as_it_was_asked(client: redis.Redis) -> None:  # type: ignore[type-arg]
    mail_player(client, "p1", "sign_in", "sign-in-1", link="https://x/sign-in#link=s")
    mail_address(client, "ann@example.org", "confirm_address", "confirm-1", account="ann", link="https://x/#c")
    waiting = [Mail.loads(raw) for raw in client.lrange(keys.mail_outbox(), 0, -1)]
    assert waiting == [Mail("sign_in", "sign-in-1", to_player="p1", data={"link": "https://x/sign-in#link=s"}),
                       Mail("confirm_address", "confirm-1", to_address="ann@example.org",
                            data={"account": "ann", "link": "https://x/#c"})]
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


def test_a_link_confirms_only_the_address_it_was_sent_to_whatever_is_set_meanwhile(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    token = boxes.ask_confirmation("p1", "mine@example.org")
    assert token is not None
    read = Mailboxes.of

    def put_between(self: Mailboxes, player_id: str) -> MailSettings:  # another address set just after any read
        found = read(self, player_id)
        monkeypatch.setattr(Mailboxes, "of", read)
        boxes.ask_confirmation("p1", "victim@example.org")
        return found

    monkeypatch.setattr(Mailboxes, "of", put_between)
    client.getdel = _then(client.getdel, lambda: monkeypatch.setattr(Mailboxes, "of", put_between))  # type: ignore[method-assign]
    boxes.confirm(token)
    monkeypatch.setattr(Mailboxes, "of", read)
    assert boxes.recipient("p1", "your_turn") != "victim@example.org" and boxes.player_of("victim@example.org") is None


def _then(call: Any, after: Any) -> Any:
    def wrapped(*args: Any) -> Any:
        answer = call(*args)
        after()
        return answer
    return wrapped


def test_an_address_confirmed_by_one_player_is_refused_to_another(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    assert boxes.confirm(boxes.ask_confirmation("p1", "ann@example.org") or "") == "p1"
    with pytest.raises(MailAddressTaken):
        boxes.confirm(boxes.ask_confirmation("p2", "ANN@example.org") or "")
    assert boxes.player_of("ann@example.org") == "p1" and boxes.recipient("p2", "your_turn") is None
    boxes.remove("p1")  # once the first lets it go, the second may have it
    assert boxes.confirm(boxes.ask_confirmation("p2", "ann@example.org") or "") == "p2"
    assert boxes.player_of("ann@example.org") == "p2"


def test_a_confirmed_address_gets_mail_until_a_new_one_is_confirmed(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    boxes.confirm(boxes.ask_confirmation("p1", "old@example.org") or "")
    token = boxes.ask_confirmation("p1", "new@example.org")
    assert boxes.of("p1") == MailSettings("old@example.org", True, "new@example.org", boxes.of("p1").choices)
    assert boxes.recipient("p1", "your_turn") == "old@example.org" and boxes.player_of("old@example.org") == "p1"
    assert boxes.confirm(token or "") == "p1"
    assert boxes.of("p1").address == "new@example.org" and boxes.of("p1").pending is None
    assert boxes.player_of("new@example.org") == "p1" and boxes.player_of("old@example.org") is None


def test_a_confirmation_greets_no_one_and_quotes_the_account_it_joins() -> None:
    mail = Mail("confirm_address", "k", to_address="x@example.org",
                data={"account": 'Win a prize" at https://evil.example', "link": "https://play.example/#confirm-mail=t"})
    message = compose(mail, "x@example.org", "", public_url="https://play.example", sender="m@x", stop_token=None)
    text = message.get_body(("plain",)).get_content()
    assert 'whose name, as its player wrote it, is "Win a prize\\" at https://evil.example".' in text
    assert text.startswith("To get mail from Meeple at this address")


def test_an_unsubscribe_token_is_made_not_kept_and_an_older_kept_one_works_on(client: redis.Redis) -> None:  # type: ignore[type-arg]
    boxes = Mailboxes(client)
    client.hset(keys.mail("p1"), "stop:digest", "an-older-token-kept-as-it-was")  # as tokens were kept before
    client.set(keys.mail_stop(hash_token("an-older-token-kept-as-it-was")), "p1 digest")
    token = boxes.stop_token("p1", "reminder")
    assert Mailboxes(client).stop_token("p1", "reminder") == token and len(token) == 43
    boxes.stop_token("p1", "digest")
    stored = b"".join(client.dump(key) or b"" for key in client.keys("*"))
    assert token.encode() not in stored and b"an-older-token-kept-as-it-was" not in stored
    assert boxes.stop(token) == ("p1", "reminder") and boxes.stop("an-older-token-kept-as-it-was") == ("p1", "digest")
    client.delete(keys.mail_secret())  # another server's secret: other tokens
    assert Mailboxes(client).stop_token("p1", "reminder") != token
