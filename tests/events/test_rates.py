"""Rate limits' counters: checked and counted in one step, on fakeredis and on a real Redis."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from events.rates import take
from players.mail import Mailboxes
from players.sign_in import LINKS_PER_HOUR, SignInLinks


def test_a_request_refused_by_one_counter_is_counted_by_none(client: redis.Redis) -> None:  # type: ignore[type-arg]
    assert take(client, [("a", 3, 60), ("b", 1, 60)]) == [(1, False), (1, False)]
    assert take(client, [("a", 3, 60), ("b", 1, 60)]) == [(2, False), (1, True)]
    assert client.get("a") == b"1" and client.get("b") == b"1"
    assert 0 < client.ttl("a") <= 61 and 0 < client.ttl("b") <= 61


@pytest.mark.redis
def test_requests_at_the_same_moment_pass_no_more_than_the_limit(real_redis: redis.Redis) -> None:  # type: ignore[type-arg]
    def ask(_: int) -> bool:
        with redis.Redis(connection_pool=real_redis.connection_pool) as client:
            return not take(client, [("to", 5, 60), ("from", 8, 60)])[0][1]

    with ThreadPoolExecutor(16) as pool:
        passed = sum(pool.map(ask, range(64)))
    assert passed == 5 and real_redis.get("to") == b"5" and real_redis.get("from") == b"5"


@pytest.mark.redis
def test_confirmations_and_sign_in_links_asked_at_once_stop_at_their_limits(real_redis: redis.Redis) -> None:  # type: ignore[type-arg]
    mail, links = Mailboxes(real_redis), SignInLinks(real_redis)
    with ThreadPoolExecutor(16) as pool:
        confirmations = list(pool.map(lambda n: mail.ask_confirmation("p1", f"ann{n}@example.org", per_day=3), range(40)))
        issued = list(pool.map(lambda n: links.issue("p1", f"secret-{n}"), range(40)))
    assert sum(token is not None for token in confirmations) == 3
    assert sum(issued) == LINKS_PER_HOUR
