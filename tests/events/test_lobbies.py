"""Games waiting for their players: seats given up, and lobbies cancelled when their time is up,
on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import redis

from domain.core.game import Budget
from events import clock, keys
from events.chat import ChatStore
from events.envelope import Lifecycle
from events.errors import GameNotFound, SeatNotLeft, SeatUnavailable
from events.execute import Executor
from events.seats import hash_token
from events.store import EventStore
from players.accounts import PlayerStore
from workers.reactor import Reactor

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
    assert [record.id for record in store.games.page(None, Lifecycle.CANCELLED, None, 10)[0]] == [game]
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


def test_a_cancelled_lobby_leaves_nothing_behind_after_its_grace(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    executor = Executor(EventStore(client))
    store, players = executor.store, PlayerStore(client)
    ann = players.register("p-ann", "ann", "token-ann-player")
    store.games.create("kept", "taki", {}, 2, lobby_seconds=7 * 86400)
    game = lobby(store, "gone-lobby", seats=3)
    store.games.create("reserved", "taki", {}, 2, lobby_seconds=1, reserved={1: "p-cy"}, unlisted=True)
    store.seats.claim(game, 0, "ann", "token-ann", player_id=ann.id)
    players.joined(ann.id, game)
    ChatStore(client, client).add(game, "table", "anyone?", "ann", 0, ann.id, 0)  # said in the lobby, gone with it
    ChatStore(client, client).keep_notes(game, 0, "wait for cy")
    client.zadd(keys.player_games("p-cy"), {"reserved": 1})  # an invitation in an inbox
    now = clock.now()
    reactor = Reactor(executor, keep_cancelled=86400)
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR)
    reactor.sweep()
    reactor.react(game)  # its players are told, once
    assert store.games.get(game).status == "cancelled" and client.exists(keys.notified(game, "cancelled-0"))
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR + 86400 * 1000 - 1000)
    reactor.sweep()  # still within its grace: listed, as cancelled
    assert [r.id for r in store.games.page(None, Lifecycle.CANCELLED, None, 10)[0]] == [game]
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR + 86400 * 1000 + 1000)
    reactor.sweep()
    for gone in (game, "reserved"):
        with pytest.raises(GameNotFound):
            store.games.get(gone)
        assert not [key for key in client.scan_iter(f"*{{{gone}}}*")]  # no key of its own, no place in any index
        assert all(client.zscore(index, gone) is None for index in client.scan_iter("meeple:*") if client.type(index) == b"zset")
    assert players.games(ann.id) == [] and players.games("p-cy") == []
    assert store.games.get("kept").status == "waiting" and reactor.react(game) == 0
    assert store.games.count_by_status() == {"waiting": 1, "active": 0, "finished": 0, "cancelled": 0}


def test_a_purged_rematch_is_no_longer_named_by_its_origin(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    executor = Executor(EventStore(client))
    store = executor.store
    store.games.create("origin", "taki", {}, 2)
    client.hset(keys.meta("origin"), "status", "finished")
    store.games.create("offered", "taki", {}, 2, lobby_seconds=1, rematch_of="origin", unlisted=True)
    assert store.games.name_rematch("origin", "offered") == "offered"
    now = clock.now()
    reactor = Reactor(executor, keep_cancelled=86400)
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR)
    reactor.sweep()  # nobody joined: cancelled, still named
    assert store.games.get("origin").rematch == "offered"
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR + 86400 * 1000 + 1000)
    reactor.sweep()
    assert store.games.get("origin").rematch is None  # it may be offered again
    assert store.games.name_rematch("origin", "again") == "again"
