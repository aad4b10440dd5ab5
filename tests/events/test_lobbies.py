"""Games waiting for their players: seats given up, and lobbies cancelled when their time is up,
on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import redis

from domain.core.game import Budget
from events import clock, keys
from events.envelope import SeatNotLeft, SeatUnavailable
from events.seats import hash_token
from events.store import EventStore

HOUR = 3600 * 1000


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Moves the store's clock two hours on."""
    now = clock.now

    def two_hours_on() -> None:
        monkeypatch.setattr(clock, "now", lambda: now() + 2 * HOUR)

    return two_hours_on


def lobby(store: EventStore, game_id: str = "g", seats: int = 3, seconds: int | None = 3600) -> str:
    store.games.create(game_id, "taki", {}, seats, lobby_seconds=seconds)
    return game_id


def test_a_seat_given_up_is_free_again_and_its_token_acts_for_nothing(store: EventStore) -> None:
    game = lobby(store)
    store.seats.claim(game, 0, "ann", "token-ann", player_id="p-ann")
    store.seats.claim(game, 1, "search bot", None, bot="search", budget=Budget(iterations=3, seconds=1.5))
    assert store.games.get(game).budgets == {1: Budget(iterations=3, seconds=1.5)}
    assert store.seats.leave(game, 0) == "p-ann"
    assert store.seats.leave(game, 1) is None
    record = store.games.get(game)
    assert record.names == (None, None, None) and record.bots == (None, None, None)
    assert record.holders == {} and record.token_seats == {} and record.budgets == {}
    assert store.seats.for_token(record, "token-ann") is None
    assert store.seats.claim(game, None, "bo", "token-bo").seat == 0


def test_only_a_taken_seat_of_a_game_not_yet_full_can_be_given_up(store: EventStore) -> None:
    game = lobby(store, seats=2)
    store.seats.claim(game, 0, "ann", "token-ann")
    with pytest.raises(SeatNotLeft) as free:
        store.seats.leave(game, 1)
    store.seats.claim(game, 1, "bo", "token-bo")  # the game is full: it starts, its seats are fixed
    with pytest.raises(SeatNotLeft) as full:
        store.seats.leave(game, 0)
    assert (free.value.reason, full.value.reason) == ("seat_free", "started")
    assert store.games.get(game).names == ("ann", "bo")
    assert store.games.get(game).token_seats == {hash_token("token-ann"): 0, hash_token("token-bo"): 1}


def test_a_lobby_whose_time_is_up_with_seats_free_is_cancelled(store: EventStore, later: Callable[[], None]) -> None:
    game = lobby(store)
    store.seats.claim(game, 0, "ann", "token-ann")
    assert store.games.get(game).lobby_until == store.games.get(game).created + HOUR
    later()
    assert store.seats.cancel_lobby(game)
    assert not store.seats.cancel_lobby(game)  # once
    assert store.games.get(game).status == "cancelled"
    assert [record.id for record in store.games.page(None, "cancelled", 0, 10)[0]] == [game]
    assert store.games.count_by_status()["waiting"] == 0
    with pytest.raises(SeatUnavailable) as joining:
        store.seats.claim(game, 1, "bo", "token-bo")
    with pytest.raises(SeatNotLeft) as leaving:
        store.seats.leave(game, 0)
    assert (joining.value.reason, leaving.value.reason) == ("cancelled", "cancelled")
    announced = [fields[b"game"] for _, fields in store.redis.xrange(keys.feed(""))]
    assert announced == [game.encode()]


def test_a_lobby_with_time_left_a_full_one_or_one_without_a_limit_is_not_cancelled(store: EventStore) -> None:
    assert not store.seats.cancel_lobby(lobby(store, "early"))
    assert not store.seats.cancel_lobby(lobby(store, "endless", seconds=None))
    full = lobby(store, "full", seats=2, seconds=1)
    store.seats.claim(full, 0, "ann", "token-ann")
    store.seats.claim(full, 1, "bo", "token-bo")
    store.redis.hset(keys.meta(full), "lobby_until", 0)
    assert not store.seats.cancel_lobby(full)
    assert {store.games.get(game).status for game in ("early", "endless", "full")} == {"waiting"}
    assert store.games.get("endless").lobby_until is None


@pytest.mark.redis
def test_a_last_seat_and_the_end_of_the_lobby_racing_leave_a_game_that_starts_or_is_cancelled(
    real_redis: redis.Redis, later: Callable[[], None],  # type: ignore[type-arg]
) -> None:
    store = EventStore(real_redis)
    for number in range(30):
        lobby(store, f"race{number}", seats=2)
        store.seats.claim(f"race{number}", 0, "ann", "token-ann")
    later()
    outcomes = []
    for number in range(30):
        game = f"race{number}"
        barrier, seated = threading.Barrier(2), []

        def join(game: str = game) -> None:
            barrier.wait()
            try:
                seated.append(store.seats.claim(game, 1, "bo", "token-bo"))
            except SeatUnavailable:
                pass

        joining = threading.Thread(target=join)
        joining.start()
        barrier.wait()
        cancelled = store.seats.cancel_lobby(game)
        joining.join()
        record = store.games.get(game)
        assert cancelled != bool(seated)  # exactly one of the two happened
        assert record.status == ("cancelled" if cancelled else "waiting")
        assert record.names == (("ann", None) if cancelled else ("ann", "bo"))
        outcomes.append(cancelled)
    assert store.games.count_by_status()["cancelled"] == sum(outcomes)
