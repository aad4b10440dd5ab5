"""Notifications delivered by real `meeple worker` processes to a local receiver: signed,
retried on failure, logged, and a receiver that keeps failing holds up nobody else."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from domain.core.rng import SeededRng
from domain.taki.commands import Draw
from events import keys
from events.envelope import DeadlinePolicy, TurnDeadline
from events.execute import Executor
from players.accounts import PlayerStore
from players.webhooks import Webhooks
from tests.conftest import Start
from tests.workers.conftest import reacting, wait_for

pytestmark = pytest.mark.redis


class Receiver(BaseHTTPRequestHandler):
    """Records every POST; /flaky fails twice before it succeeds, /down always fails."""

    received: list[tuple[str, dict[str, str], bytes]] = []
    failures: dict[str, int] = {}

    def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, dict(self.headers), body))
        seen = sum(1 for path, _, _ in self.received if path == self.path)
        failing = self.path.startswith("/down") or (self.path == "/flaky" and seen <= 2)
        self.send_response(500 if failing else 204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A receiver on this machine, which the workers started after it may reach."""
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "allow")
    Receiver.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def verified(secret: str, headers: dict[str, str], body: bytes) -> bool:
    fields = dict(part.split("=", 1) for part in headers["Meeple-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{fields['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, fields["v1"]) and abs(time.time() - int(fields["t"])) < 300


def test_notifications_are_signed_retried_and_logged(
    executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = executor.store.redis
    players, hooks = PlayerStore(redis), Webhooks(redis)
    ann, bo = players.register("ann", "ann", "ann-token-0123456789"), players.register("bo", "bo", "bo-token-0123456789")
    ok = hooks.add(ann.id, "ok", f"{receiver}/ok", "s" * 64)
    flaky = hooks.add(ann.id, "flaky", f"{receiver}/flaky", "t" * 64)
    hooks.add(bo.id, "down", f"{receiver}/down", "u" * 64)
    executor.store.games.create("w", "taki", {"first_seat": 1}, 2)
    executor.store.seats.claim("w", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("w", 1, "bo", "seat-token-bo", player_id=bo.id)
    executor.start("w", SeededRng(3))
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_RETRY", "1,1,1")
    start_worker()

    def posts(path: str) -> list[tuple[str, dict[str, str], bytes]]:
        return [post for post in Receiver.received if post[0] == path]

    assert wait_for(lambda: len(posts("/down")) >= 2, timeout=30)  # bo's turn first: its receiver fails
    executor.execute("w", Draw(1), actor="seat:1")  # now it is ann's turn
    assert wait_for(lambda: len(posts("/ok")) >= 1 and len(posts("/flaky")) >= 3, timeout=30)
    _, headers, body = posts("/ok")[0]
    notification = json.loads(body)
    assert notification["kind"] == "your_turn" and notification["seat"] == 0 and notification["game_id"] == "w"
    assert verified(ok.secret, headers, body) and not verified(flaky.secret, headers, body)
    assert all(verified(flaky.secret, h, b) and json.loads(b) == notification for _, h, b in posts("/flaky"))
    assert len(posts("/ok")) == 1  # delivered once
    assert wait_for(lambda: len(hooks.attempts(ann.id, 10)) == 4, timeout=10)  # logged after each response
    log = hooks.attempts(ann.id, 10)
    assert sorted((a["webhook"], a["status"]) for a in log) == [("flaky", 204), ("flaky", 500), ("flaky", 500), ("ok", 204)]
    assert wait_for(lambda: len(posts("/down")) == 4, timeout=30)  # the first try and three retries
    time.sleep(2)
    assert len(posts("/down")) == 4 and all(a["status"] == 500 for a in hooks.attempts(bo.id, 10))


def test_a_failed_delivery_logs_one_line_with_its_reason_and_no_secret(
    executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_RETRY", "1,1")
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    hooks = Webhooks(redis)
    down = hooks.add(ann.id, "down", f"{receiver}/down?token=query-token-down", "s" * 64)
    gone = hooks.add(ann.id, "gone", f"http://127.0.0.1:{closed}/gone?token=query-token-gone", "t" * 64)
    executor.store.games.create("f", "taki", {"first_seat": 0}, 2)
    executor.store.seats.claim("f", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("f", 1, "bo", "seat-token-bo")
    executor.start("f", SeededRng(7))
    start_worker()

    assert wait_for(lambda: len(hooks.attempts(ann.id, 10)) == 6, timeout=30)  # each webhook's try and two retries
    time.sleep(1)  # the last attempt's line written
    text = (tmp_path / "worker0.log").read_text()
    assert "Traceback" not in text
    assert "query-token" not in text and down.secret not in text and gone.secret not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    failures = [line for line in lines if "delivery" in line]
    assert sorted((line["webhook"], line["attempt"], line["status"], line["error"]) for line in failures) == [
        (down.id, 1, 500, "status"), (down.id, 2, 500, "status"), (down.id, 3, 500, "status"),
        (gone.id, 1, None, "ConnectionError"), (gone.id, 2, None, "ConnectionError"), (gone.id, 3, None, "ConnectionError")]
    assert all(line["level"] == "WARNING" and line["delivery"].endswith("-turn-0") for line in failures)


def test_reminders_and_applied_deadlines_are_notified(
    executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    Webhooks(redis).add(ann.id, "ok", f"{receiver}/ok", "s" * 64)
    monkeypatch.setitem(os.environ, "MEEPLE_REMINDERS", "2")
    start_worker()
    assert wait_for(lambda: reacting(redis), timeout=30)  # the reminder, due a second into the turn, is not missed
    executor.store.games.create("r", "taki", {}, 2, TurnDeadline(3, DeadlinePolicy.SKIP))
    executor.store.seats.claim("r", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("r", 1, "bo", "seat-token-bo")
    executor.start("r", SeededRng(4))

    def kinds() -> list[str]:
        return [json.loads(body)["kind"] for path, _, body in Receiver.received if path == "/ok"]

    assert wait_for(lambda: "deadline_applied" in kinds(), timeout=30)
    assert kinds()[:3] == ["your_turn", "reminder", "deadline_applied"]


def test_a_webhook_on_a_private_address_is_refused_once_and_logged(
    executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_PRIVATE", "refuse")
    monkeypatch.setitem(os.environ, "MEEPLE_WEBHOOK_RETRY", "1,1,1")
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    hooks = Webhooks(redis)
    hooks.add(ann.id, "ip", f"{receiver}/ip", "s" * 64)
    hooks.add(ann.id, "name", receiver.replace("127.0.0.1", "localhost") + "/name", "t" * 64)
    executor.store.games.create("p", "taki", {"first_seat": 0}, 2)
    executor.store.seats.claim("p", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("p", 1, "bo", "seat-token-bo")
    executor.start("p", SeededRng(6))
    start_worker()

    assert wait_for(lambda: len(hooks.attempts(ann.id, 10)) == 2, timeout=30)
    time.sleep(2.5)  # past every retry interval
    attempts = hooks.attempts(ann.id, 10)
    assert sorted((a["webhook"], a["status"], a["error"]) for a in attempts) == [
        ("ip", None, "address_refused"), ("name", None, "address_refused")]
    assert Receiver.received == []


def test_the_end_of_a_game_is_notified_to_every_player(executor: Executor) -> None:
    from rq import Queue

    from workers.reactor import Reactor

    redis = executor.store.redis
    players, hooks = PlayerStore(redis), Webhooks(redis)
    for name in ("ann", "bo"):
        hooks.add(players.register(name, name, f"{name}-token-0123456789").id, "hook", "http://127.0.0.1:9/", "s" * 64)
    executor.store.games.create("e", "taki", {}, 2)
    for seat, name in enumerate(("ann", "bo")):
        executor.store.seats.claim("e", seat, name, f"seat-{name}", player_id=name)
    executor.start("e", SeededRng(5))
    loaded = executor.load("e")
    while not loaded.game.status(loaded.state).finished:
        seat = loaded.game.status(loaded.state).to_move[0]
        executor.execute("e", loaded.game.bots["greedy"](loaded.state, seat, SeededRng(0)), actor=f"seat:{seat}")
        loaded = executor.load("e")
    reactor = Reactor(executor)
    reactor.react("e")
    reactor.react("e")  # once only
    jobs = Queue(keys.NOTIFY_QUEUE, connection=redis).get_jobs()
    assert sorted((job.args[0], job.args[2]["kind"]) for job in jobs) == [("ann", "game_over"), ("bo", "game_over")]
    assert jobs[0].args[2]["ranking"] == [list(place) for place in loaded.game.status(loaded.state).ranking]


def test_a_lobby_whose_time_is_up_is_cancelled_and_its_players_are_told(
    executor: Executor, start_worker: Start, receiver: str
) -> None:
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    hook = Webhooks(redis).add(ann.id, "ok", f"{receiver}/ok", "s" * 64)
    executor.store.games.create("lobby", "taki", {}, 3, lobby_seconds=1)
    executor.store.seats.claim("lobby", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("lobby", 1, "greedy bot", None, bot="greedy")
    executor.store.games.create("patient", "taki", {}, 3, lobby_seconds=3600)
    start_worker()
    assert wait_for(lambda: len(Receiver.received) == 1, timeout=30)
    _, headers, body = Receiver.received[0]
    assert verified(hook.secret, headers, body)
    assert json.loads(body) == {"id": "lobby-cancelled-0", "kind": "game_cancelled", "game_id": "lobby", "game": "taki",
                                "version": 0, "seat": 0}
    assert executor.store.games.get("lobby").status == "cancelled" and executor.store.games.get("patient").status == "waiting"
    time.sleep(2)  # further sweeps tell no one again
    assert len(Receiver.received) == 1


def test_a_game_ended_within_the_first_second_of_a_fresh_store_still_notifies_its_webhook(
    executor: Executor, start_worker: Start, receiver: str
) -> None:
    """The game is over before any reactor has joined the feed: the reactors' group reads the feed
    from its beginning, so the end is announced to them all the same."""
    redis = executor.store.redis
    assert not redis.exists(keys.feed(""))  # a fresh store
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    hook = Webhooks(redis).add(ann.id, "ok", f"{receiver}/ok", "s" * 64)
    executor.store.games.create("quick", "taki", {}, 2)
    executor.store.seats.claim("quick", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("quick", 1, "bo", "seat-token-bo")
    executor.start("quick", SeededRng(5))
    loaded = executor.load("quick")
    while not loaded.game.status(loaded.state).finished:
        seat = loaded.game.status(loaded.state).to_move[0]
        executor.execute("quick", loaded.game.bots["greedy"](loaded.state, seat, SeededRng(0)), actor=f"seat:{seat}")
        loaded = executor.load("quick")
    start_worker()
    assert wait_for(lambda: any(json.loads(body)["kind"] == "game_over" for _, _, body in Receiver.received), timeout=30)
    game_over = [(headers, body) for _, headers, body in Receiver.received if json.loads(body)["kind"] == "game_over"]
    assert len(game_over) == 1 and verified(hook.secret, *game_over[0])
    assert json.loads(game_over[0][1])["id"] == "quick-over-0"
