"""The daily digest's schedule and what it reads, on fakeredis and a real server."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from application.outbox import Mail
from events import keys
from events.execute import Executor
from players.mail import DAY_MS
from tests.workers.test_mail import confirmed, correspondence_game
from workers import digest


def test_a_digest_missed_for_days_is_sent_once_and_its_time_of_day_kept(client: redis.Redis) -> None:  # type: ignore[type-arg]
    now = int(time.time() * 1000)
    missed = now - 3 * DAY_MS - DAY_MS // 2  # due three and a half days ago: the workers were down
    client.zadd(keys.mail_digests(), {"p1": missed})
    assert digest.queue_digests(client, client) == 1
    following = client.zscore(keys.mail_digests(), "p1")
    assert following == missed + 4 * DAY_MS and now < following <= now + DAY_MS
    time.sleep(0.01)
    assert digest.queue_digests(client, client) == 0  # not again at the next sweep
    assert digest.next_due(now, now) == now + DAY_MS and digest.next_due(now - DAY_MS, now) == now + DAY_MS


def test_a_digest_works_each_games_clocks_out_once(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bo = confirmed(executor, "ann"), confirmed(executor, "bo")
    correspondence_game(executor, "g", [ann, bo], 2)
    reads, read = [], executor.store.streams.read
    sent: list[Mail] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(args)
        return read(*args, **kwargs)

    monkeypatch.setattr(executor.store.streams, "read", counted)
    monkeypatch.setattr(digest, "job_executor", lambda: executor)
    monkeypatch.setattr(digest, "job_connection", lambda: executor.store.redis)
    monkeypatch.setattr(digest, "enqueue", lambda queues, mail: sent.append(mail))
    assert digest.send_digest(ann, 1) == "queued"
    assert len(reads) == 1 and [game["left"] for game in sent[0].data["games"]] == [pytest.approx(2 * 86_400_000, abs=60_000)]
