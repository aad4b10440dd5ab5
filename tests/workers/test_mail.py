"""Mail sent by real `meeple worker` processes to a real SMTP server (aiosmtpd, started here): queued
through the outbox, sent once however often it is asked for, retried while the server refuses, and
written to the data folder when no server is configured."""

from __future__ import annotations

import email
import email.policy
import os
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from rq import Queue

from application.outbox import Mail, mail_address, mail_player, queue_mail
from domain.core.rng import SeededRng
from events import keys
from events.envelope import DeadlinePolicy, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.invitations import Invitations
from players.mail import Choice, Mailboxes
from runtime.config import Config
from service.app import create_app
from service.leases import StreamLeases
from tests.conftest import Start
from tests.workers.conftest import reacting, wait_for
from tests.workers.smtp import SmtpServer
from workers.mail import send_mail

pytestmark = pytest.mark.redis


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[SmtpServer]:
    """A running SMTP server that the workers started after it send to, retrying each second."""
    server = SmtpServer()
    server.start()
    monkeypatch.setitem(os.environ, "MEEPLE_SMTP_URL", server.url)
    monkeypatch.setitem(os.environ, "MEEPLE_MAIL_RETRY", "1,1,1,1,1,1,1,1")
    monkeypatch.setitem(os.environ, "MEEPLE_PUBLIC_URL", "https://play.example")
    yield server
    server.stop()


def confirmed(executor: Executor, name: str) -> str:
    """A registered player with a confirmed address `<name>@example.org`; their id."""
    player = PlayerStore(executor.store.redis).register(name, name, f"{name}-token-0123456789")
    boxes = Mailboxes(executor.store.redis)
    assert boxes.confirm(boxes.ask_confirmation(player.id, f"{name}@example.org") or "") == player.id
    return player.id


def test_a_queued_mail_reaches_the_address_and_the_player_once(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    redis = executor.store.redis
    ann = confirmed(executor, "ann")
    start_worker()
    mail_address(redis, "new@example.org", "confirm_address", "confirm-1", account="ann", link="https://play.example/#c=1")
    for _ in range(3):  # asked for three times, sent once
        mail_player(redis, ann, "sign_in", "sign-in-1", link="https://play.example/sign-in#link=s")
    queue_mail(redis, Mail("sign_in", "sign-in-2", to_player="nobody", data={"link": "x"}))  # no such player: nothing
    assert wait_for(lambda: len(smtp.inbox.messages) >= 2, timeout=30)
    wait_for(lambda: len(smtp.inbox.messages) > 2, timeout=3)
    assert [m["Subject"] for m in smtp.inbox.to("new@example.org")] == ["Confirm your mail address for Meeple"]
    [sign_in] = smtp.inbox.to("ann@example.org")
    assert "https://play.example/sign-in#link=s" in sign_in.get_body(("plain",)).get_content()
    assert len(smtp.inbox.messages) == 2


def test_a_refused_connection_is_retried_until_the_server_is_back(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    ann = confirmed(executor, "ann")
    smtp.stop()
    start_worker()
    mail_player(executor.store.redis, ann, "sign_in", "sign-in-1", link="https://play.example/sign-in#link=s")
    assert not wait_for(lambda: len(smtp.inbox.messages) > 0, timeout=2.5)
    smtp.start()
    assert wait_for(lambda: len(smtp.inbox.messages) == 1, timeout=30)
    assert not wait_for(lambda: len(smtp.inbox.messages) > 1, timeout=2)


def test_without_smtp_mail_is_written_to_the_data_folder(
    executor: Executor, start_worker: Start, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(os.environ, "MEEPLE_SMTP_URL", raising=False)
    monkeypatch.setitem(os.environ, "MEEPLE_DATA_DIR", str(tmp_path / "data"))
    ann = confirmed(executor, "ann")
    start_worker()
    mail_player(executor.store.redis, ann, "sign_in", "sign-in-1", link="http://127.0.0.1:8000/sign-in#link=s")
    folder = tmp_path / "data" / "mail"
    assert wait_for(lambda: folder.is_dir() and any(folder.glob("*.eml")), timeout=30)
    [written] = folder.glob("*.eml")
    message = email.message_from_bytes(written.read_bytes(), policy=email.policy.default)
    assert message["To"] == "ann@example.org" and message["Subject"] == "Sign in to Meeple"


def play_a_move(executor: Executor, game_id: str) -> tuple[int, int]:
    """The seat to move plays a legal move (as a greedy AI would choose it); that seat and the seat to move next."""
    loaded = executor.load(game_id)
    seat = loaded.game.status(loaded.state).to_move[0]
    executor.execute(game_id, loaded.game.bots["greedy"](loaded.state, seat, SeededRng(loaded.version)), actor=f"seat:{seat}")
    loaded = executor.load(game_id)
    return seat, loaded.game.status(loaded.state).to_move[0]


def correspondence_game(executor: Executor, game_id: str, players: list[str], days: int = 3) -> None:
    """A started TAKI game of the registered `players`, `days` per move."""
    executor.store.games.create(game_id, "taki", {"first_seat": 0}, len(players), TurnDeadline(days * 86400, DeadlinePolicy.SKIP))
    for seat, player_id in enumerate(players):
        executor.store.seats.claim(game_id, seat, player_id, f"seat-{game_id}-{seat}", player_id=player_id)
        PlayerStore(executor.store.redis).joined(player_id, game_id)  # in their list of games, as the lobby puts it
    executor.start(game_id, SeededRng(11))


def turn_mails(smtp: SmtpServer, name: str) -> list[EmailMessage]:
    return [m for m in smtp.inbox.to(f"{name}@example.org") if m["Subject"] == "Your move in TAKI"]


def test_each_player_is_mailed_once_per_turn_and_not_while_their_stream_is_open(
    executor: Executor, start_worker: Start, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(os.environ, "MEEPLE_MAIL_HOLD_SECONDS", "1")
    redis = executor.store.redis
    names = ["ann", "bo", "cy"]
    ids = [confirmed(executor, name) for name in names]
    Mailboxes(redis).choose(ids[0], {"your_turn": Choice.ON})  # ann: at once; bo and cy: while offline (the default)
    lease = StreamLeases(redis, 10, 10, heartbeat_ms=600_000).take("127.0.0.1", ids[1])  # bo's page is open
    start_worker()
    correspondence_game(executor, "t3", ids)
    expected = dict.fromkeys(names, 0)
    expected["ann"] = 1  # the game starts at ann's turn
    for _ in range(12):
        assert wait_for(lambda: all(len(turn_mails(smtp, name)) == expected[name] for name in names), timeout=30), (
            {name: len(turn_mails(smtp, name)) for name in names}, expected)
        if expected["bo"] == 0 and executor.load("t3").game.status(executor.load("t3").state).to_move[0] == 1:
            time.sleep(2)  # bo's mail is looked at, held, looked at again
        acted, next_seat = play_a_move(executor, "t3")
        if next_seat != acted and next_seat != 1:
            expected[names[next_seat]] += 1
    assert wait_for(lambda: all(len(turn_mails(smtp, name)) == expected[name] for name in names), timeout=30)
    assert expected["ann"] >= 3 and expected["cy"] >= 3 and turn_mails(smtp, "bo") == []
    [mail] = turn_mails(smtp, "ann")[:1]
    assert "https://play.example/games/t3" in mail.get_body(("plain",)).get_content()
    assert 'href="https://play.example/games/t3"' in mail.get_body(("html",)).get_content()
    while executor.load("t3").game.status(executor.load("t3").state).to_move[0] != 1:  # bo's turn, page still open
        play_a_move(executor, "t3")
    time.sleep(2)
    assert turn_mails(smtp, "bo") == []
    lease.release()  # bo closes the page: the held mail goes
    assert wait_for(lambda: len(turn_mails(smtp, "bo")) == 1, timeout=30)
    time.sleep(2)
    assert {name: len(turn_mails(smtp, name)) for name in names} == expected | {"bo": 1}


def test_the_digest_lists_the_waiting_games_by_time_left(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    redis = executor.store.redis
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    Mailboxes(redis).choose(ann, {"your_turn": Choice.OFF, "digest": Choice.ON})
    for game_id, days in (("week", 7), ("day", 1), ("three", 3)):
        correspondence_game(executor, game_id, [ann, bo], days)
    correspondence_game(executor, "theirs", [bo, ann], 2)  # bo's move: not in ann's digest
    redis.zadd(keys.mail_digests(), {ann: int(time.time() * 1000)})  # due now
    start_worker()
    assert wait_for(lambda: len(smtp.inbox.to("ann@example.org")) == 1, timeout=30)
    [digest] = smtp.inbox.to("ann@example.org")
    text = digest.get_body(("plain",)).get_content()
    assert digest["Subject"] == "3 games waiting for your move"
    links = [line.rsplit(" ", 1)[1] for line in text.splitlines() if line.startswith("- ")]
    assert links == [f"https://play.example/games/{game_id}" for game_id in ("day", "three", "week")]
    assert "- TAKI, 23 hours 59 minutes left" in text or "- TAKI, 1 day left" in text
    assert redis.zscore(keys.mail_digests(), ann) > time.time() * 1000 + 86_000_000  # the next one a day later
    time.sleep(2)
    assert len(smtp.inbox.to("ann@example.org")) == 1
    assert [m["Subject"] for m in smtp.inbox.to("bo@example.org")] == ["Your move in TAKI"]  # bo chose no digest


def test_a_mail_job_run_twice_sends_one_mail(executor: Executor, start_worker: Start, smtp: SmtpServer) -> None:
    ann = confirmed(executor, "ann")
    mail = Mail("game_over", f"{ann}-g-over-0", to_player=ann, data={"game_id": "g", "game": "taki", "version": 9,
                                                                      "place": 1, "seats": 3})
    queue = Queue(keys.NOTIFY_QUEUE, connection=executor.store.redis)
    for run in range(2):  # as a job lost with its worker and enqueued again would
        queue.enqueue(send_mail, mail.dumps(), job_id=f"twice-{run}")
    start_worker()
    assert wait_for(lambda: len(smtp.inbox.messages) == 1, timeout=30)
    time.sleep(2)
    [sent] = smtp.inbox.messages
    assert sent["Subject"] == "TAKI is over" and "you finished 1st of 3" in sent.get_body(("plain",)).get_content()


def test_the_unsubscribe_link_posted_as_a_mail_client_does_stops_that_kind(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    redis = executor.store.redis
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    Mailboxes(redis).choose(ann, {"your_turn": Choice.ON})
    start_worker()
    correspondence_game(executor, "u", [ann, bo])
    assert wait_for(lambda: len(turn_mails(smtp, "ann")) == 1, timeout=30)
    [mail] = turn_mails(smtp, "ann")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = urlsplit(mail["List-Unsubscribe"].strip("<>"))
    assert link.scheme == "https" and link.netloc == "play.example"
    api = create_app(Config(rate_per_token=None, rate_per_address=None), client=redis).test_client()
    answer = api.post(f"{link.path}?{link.query}", data="List-Unsubscribe=One-Click",
                      content_type="application/x-www-form-urlencoded")  # RFC 8058: no cookie, no token
    assert answer.status_code == 200 and answer.json == {"kind": "your_turn", "choice": "off"}
    while True:  # ann's turn comes again, and no mail with it
        acted, next_seat = play_a_move(executor, "u")
        if next_seat == 0 and acted == 1:
            break
    time.sleep(3)
    assert len(turn_mails(smtp, "ann")) == 1 and Mailboxes(redis).of(ann).choices["your_turn"] is Choice.OFF


def test_an_invitation_is_mailed_once_to_a_player_it_reaches(
    executor: Executor, start_worker: Start, smtp: SmtpServer
) -> None:
    redis = executor.store.redis
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    start_worker()
    executor.store.games.create("inv", "taki", {}, 3, reserved={1: bo}, creator=ann)
    Invitations(redis, 10).deliver("inv", [bo])  # in bo's inbox, as the lobby puts it
    executor.store.feed.tell("inv")
    assert wait_for(lambda: len(smtp.inbox.to("bo@example.org")) == 1, timeout=30)
    executor.store.feed.tell("inv")  # told again: mailed once
    time.sleep(2)
    [invitation] = smtp.inbox.to("bo@example.org")
    assert invitation["Subject"] == "ann invites you to TAKI" and invitation["List-Unsubscribe"]
    assert "https://play.example/games/inv" in invitation.get_body(("plain",)).get_content()
    assert smtp.inbox.to("ann@example.org") == []


def test_a_reminder_is_mailed_before_the_clock_runs_out(
    executor: Executor, start_worker: Start, smtp: SmtpServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = executor.store.redis
    ann = confirmed(executor, "ann")
    bo = PlayerStore(redis).register("bo", "bo", "bo-token-0123456789").id
    Mailboxes(redis).choose(ann, {"your_turn": Choice.OFF})
    monkeypatch.setitem(os.environ, "MEEPLE_REMINDERS", "2")
    start_worker()
    assert wait_for(lambda: reacting(redis), timeout=30)  # the reminder, due a second into the turn, is not missed
    executor.store.games.create("r", "taki", {"first_seat": 0}, 2, TurnDeadline(3, DeadlinePolicy.SKIP))
    for seat, player_id in enumerate((ann, bo)):
        executor.store.seats.claim("r", seat, player_id, f"seat-r-{seat}", player_id=player_id)
    executor.start("r", SeededRng(4))
    assert wait_for(lambda: len(smtp.inbox.to("ann@example.org")) == 1, timeout=30)
    [reminder] = smtp.inbox.to("ann@example.org")
    assert reminder["Subject"] == "Your move in TAKI: less than a minute left"
    assert "https://play.example/games/r" in reminder.get_body(("plain",)).get_content()
