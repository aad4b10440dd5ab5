"""The open event streams a client may hold, counted in the store by leases: per address, per
token, freed as a stream closes, and lapsing by themselves when a process dies holding them."""

from __future__ import annotations

import pytest
import redis

from service.errors import ApiError
from service.leases import LEASE_HEARTBEATS, StreamLeases


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def leases(client: redis.Redis, clock: Clock) -> StreamLeases:  # type: ignore[type-arg]
    return StreamLeases(client, per_address=3, per_token=2, heartbeat_ms=1000, clock=clock)


def refused(leases: StreamLeases, address: str, holder: str | None) -> dict[str, object]:
    with pytest.raises(ApiError) as raised:
        leases.take(address, holder)
    assert raised.value.status == 429 and raised.value.code == "too_many_streams"
    return raised.value.extra


def test_a_stream_beyond_the_per_address_limit_is_refused_and_a_closed_one_frees_its_place(leases: StreamLeases) -> None:
    held = [leases.take("10.0.0.1", None) for _ in range(3)]
    assert refused(leases, "10.0.0.1", None) == {"exceeded": "streams_per_address", "limit": 3}
    leases.take("10.0.0.2", None)  # another address has places of its own
    held[0].release()
    leases.take("10.0.0.1", None)
    assert refused(leases, "10.0.0.1", None)["exceeded"] == "streams_per_address"


def test_a_stream_beyond_the_per_token_limit_is_refused_from_any_address(leases: StreamLeases) -> None:
    leases.take("10.0.0.1", "ann")
    leases.take("10.0.0.2", "ann")
    assert refused(leases, "10.0.0.3", "ann") == {"exceeded": "streams_per_token", "limit": 2}
    leases.take("10.0.0.3", "bo")
    # the refused stream took no place of its address either
    leases.take("10.0.0.3", None)
    leases.take("10.0.0.3", None)
    assert refused(leases, "10.0.0.3", None)["exceeded"] == "streams_per_address"


def test_the_leases_of_a_process_that_died_lapse_while_open_streams_keep_theirs(leases: StreamLeases, clock: Clock) -> None:
    leases.take("10.0.0.1", "ann")  # held by a process killed with its stream open: never renewed nor released
    alive = leases.take("10.0.0.1", "ann")
    for _ in range(LEASE_HEARTBEATS * 2):  # the open stream sends a heartbeat each second
        clock.now += 1
        alive.renew()
    leases.take("10.0.0.1", "ann")  # the dead stream's place is free again
    assert refused(leases, "10.0.0.1", "ann")["exceeded"] == "streams_per_token"
