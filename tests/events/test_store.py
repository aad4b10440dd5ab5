"""The event store, on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import itertools
import threading

import pytest
import redis

from events import keys
from events.envelope import Lifecycle, NewEvent
from events.errors import GameNotFound, IdempotencyKeyReused, SeatUnavailable, VersionConflict
from events.records import Cursor
from events.seats import hash_token, player_of_token
from events.store import EventStore


def events(*names: str) -> list[NewEvent]:
    return [NewEvent(name, 1, {"n": index}) for index, name in enumerate(names)]


def new_game(store: EventStore, game_id: str = "g1", seats: int = 2) -> str:
    store.games.create(game_id, "taki", {}, seats)
    return game_id


def test_appends_number_events_from_one_without_gaps(store: EventStore) -> None:
    game = new_game(store)
    first = store.streams.append(game, 0, events("a", "b"), command_id="c1", actor="system")
    second = store.streams.append(game, 2, events("c"), command_id="c2", actor="seat:0")
    assert (first.version, second.version) == (2, 3)
    stored = store.streams.read(game)
    assert [e.version for e in stored] == [1, 2, 3]
    assert [(e.type, e.payload, e.command_id, e.actor, e.schema_version) for e in stored] == [
        ("a", {"n": 0}, "c1", "system", 1), ("b", {"n": 1}, "c1", "system", 1), ("c", {"n": 0}, "c2", "seat:0", 1)]
    assert stored[0].game_id == game and stored[0].time > 0
    assert list(first.events) == stored[:2]
    assert store.games.get(game).version == 3


def test_reads_pages_after_a_version(store: EventStore) -> None:
    game = new_game(store)
    store.streams.append(game, 0, events(*"abcde"), command_id="c", actor="system")
    assert [e.version for e in store.streams.read(game, after=2, limit=2)] == [3, 4]
    assert [e.version for e in store.streams.read(game, after=4)] == [5]
    assert store.streams.read(game, after=5) == []


@pytest.mark.parametrize("odd", [{}, {"lone surrogate": "\ud800"}, {"not a number": float("nan")},
                                 {"huge": [2**64, -(2**63) - 1, 10**40]}])
def test_a_payload_reads_back_as_it_was_written(store: EventStore, odd: dict[str, object]) -> None:
    game = new_game(store)
    payloads = [{"card": "é", "seats": [0, 2**63 - 1], "nested": [{"x": None, "yes": True}]}, odd]
    store.streams.append(game, 0, [NewEvent("a", 1, payload) for payload in payloads], command_id="c", actor="system")
    assert repr([e.payload for e in store.streams.read(game)]) == repr(payloads)  # repr: nan is no nan's equal


def test_a_stale_expected_version_writes_nothing(store: EventStore) -> None:
    game = new_game(store)
    store.streams.append(game, 0, events("a"), command_id="c", actor="system")
    with pytest.raises(VersionConflict) as conflict:
        store.streams.append(game, 0, events("b"), command_id="c", actor="system")
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert [e.type for e in store.streams.read(game)] == ["a"]


def test_an_unknown_game_is_not_found(store: EventStore) -> None:
    with pytest.raises(GameNotFound):
        store.streams.append("nope", 0, events("a"), command_id="c", actor="system")
    with pytest.raises(GameNotFound):
        store.games.get("nope")
    assert store.streams.read("nope") == []


def test_an_idempotency_key_answers_a_retry_with_the_first_result(store: EventStore) -> None:
    game = new_game(store)
    first = store.streams.append(game, 0, events("a", "b"), command_id="c", actor="seat:0", idempotency=("k1", "play r5"))
    retry = store.streams.append(game, 0, events("x"), command_id="c2", actor="seat:0", idempotency=("k1", "play r5"))
    assert retry.replayed and retry.version == 2 and retry.events == first.events
    assert store.streams.remembered(game, "k1", "play r5") == retry
    assert len(store.streams.read(game)) == 2
    with pytest.raises(IdempotencyKeyReused):
        store.streams.append(game, 2, events("y"), command_id="c3", actor="seat:0", idempotency=("k1", "draw"))
    assert store.streams.remembered(game, "k2", "draw") is None


def test_every_key_of_a_game_carries_its_hash_tag(store: EventStore, client: redis.Redis) -> None:  # type: ignore[type-arg]
    game = new_game(store, "tagged")
    store.seats.claim(game, None, "ann", "secret")
    store.streams.append(game, 0, events("a"), command_id="c", actor="seat:0", idempotency=("k", "f"))
    global_keys = {keys.game_index(""), keys.feed(""), *(keys.games_with_status(status, "") for status in Lifecycle),
                   *(keys.listed(game, status, "") for game in (None, "taki") for status in (None, Lifecycle.WAITING))}
    names = {key.decode() for key in client.keys("*")} - global_keys
    assert names and all("{tagged}" in name for name in names)
    slots = {keys.meta(game), keys.stream(game), keys.seats(game), keys.tokens(game), keys.idempotency(game, "k")}
    assert names == slots


def test_each_append_tells_the_feed_which_game_changed(store: EventStore) -> None:
    first, second = new_game(store, "g1"), new_game(store, "g2")
    position = store.feed.position()
    store.streams.append(first, 0, events("a"), command_id="c1", actor="system")
    store.streams.append(second, 0, events("b"), command_id="c2", actor="system")
    announced = [game for _, game in store.feed.follow(position, timeout_ms=100)[1]]
    assert [game for game, _ in itertools.groupby(announced)] == [first, second]  # twice when a server first runs the script


def test_the_record_and_the_newer_events_come_together(store: EventStore) -> None:
    game = new_game(store)
    store.streams.append(game, 0, events("a", "b", "c"), command_id="c", actor="system")
    record, command_id, newer = store.streams.since(game, 1)
    assert record.version == 3 and command_id == "c" and [e.version for e in newer] == [2, 3]
    assert store.streams.since(game, 0)[1] is None and store.streams.since(game, 4)[1] == ""  # none yet, and none there
    with pytest.raises(GameNotFound):
        store.streams.since("nope", 0)


def test_appends_go_on_after_the_server_forgets_its_scripts(store: EventStore, client: redis.Redis) -> None:  # type: ignore[type-arg]
    game = new_game(store)
    store.streams.append(game, 0, events("a"), command_id="c1", actor="system")
    client.script_flush()
    assert store.streams.append(game, 1, events("b"), command_id="c2", actor="seat:0").version == 2
    assert [e.type for e in store.streams.read(game)] == ["a", "b"]
    opening = new_game(store, "g2")
    client.script_flush()
    store.streams.append(opening, 0, events("a"), command_id="c3", actor="system", status="active")
    announced = [fields[b"game"] for _, fields in client.xrange(keys.feed(""))]
    assert announced[-2:] == [b"g2", b"g2"]  # told before the append ran, and again after it
    assert list(store.games.indexed("active")) == [("g2", False)]


def test_seats_are_claimed_once_and_tokens_are_stored_hashed(store: EventStore, client: redis.Redis) -> None:  # type: ignore[type-arg]
    game = new_game(store, seats=3)
    assert store.seats.claim(game, 2, "cy", "t2").seat == 2
    assert store.seats.claim(game, None, "ann", "t0").seat == 0
    with pytest.raises(SeatUnavailable) as taken:
        store.seats.claim(game, 2, "bo", "tx")
    assert taken.value.reason == "seat_taken"
    with pytest.raises(SeatUnavailable) as missing:
        store.seats.claim(game, 3, "bo", "tx")
    assert missing.value.reason == "no_such_seat"
    seated = store.seats.claim(game, None, "bo", "t1")
    assert (seated.seat, seated.taken, seated.seats) == (1, 3, 3)
    with pytest.raises(SeatUnavailable) as full:
        store.seats.claim(game, None, "di", "t3")
    assert full.value.reason == "game_full"
    record = store.games.get(game)
    assert [store.seats.for_token(record, token) for token in ("t0", "t1", "t2", "nope")] == [0, 1, 2, None]
    assert store.games.get(game).names == ("ann", "bo", "cy")
    stored = client.hgetall(keys.tokens(game))
    assert hash_token("t0").encode() in stored and b"t0" not in stored


def test_lists_games_newest_first_filtered_and_paged(store: EventStore) -> None:
    for number in range(5):
        new_game(store, f"g{number}")
    store.streams.append("g1", 0, events("a"), command_id="c", actor="system", status="active")
    page, following = store.games.page(None, None, None, 2)
    assert [r.id for r in page] == ["g4", "g3"] and following == Cursor(page[-1].created, "g3")
    page, following = store.games.page(None, None, following, 10)
    assert [r.id for r in page] == ["g2", "g1", "g0"] and following is None
    page, _ = store.games.page("taki", Lifecycle.ACTIVE, None, 10)
    assert [r.id for r in page] == ["g1"]
    assert store.games.page("djambi", None, None, 10) == ([], None)


def test_games_are_filed_by_status(store: EventStore) -> None:
    for number in range(4):
        new_game(store, f"g{number}")
    store.streams.append("g1", 0, events("a"), command_id="c", actor="system", status="active")
    store.streams.append("g2", 0, events("a"), command_id="c", actor="system", status="active")
    store.streams.append("g2", 1, events("b"), command_id="c", actor="seat:0", status="finished")
    with pytest.raises(VersionConflict):  # a start that lost its race changes nothing
        store.streams.append("g1", 0, events("a"), command_id="c", actor="system", status="active")
    store.seats.claim("g3", 0, "ann", "t0")
    store.seats.claim("g3", 1, "bo", "t1")
    assert store.games.count_by_status() == {"waiting": 2, "active": 1, "finished": 1, "cancelled": 0}
    assert list(store.games.indexed("waiting")) == [("g0", False), ("g3", True)]
    assert list(store.games.indexed("active")) == [("g1", False)]
    assert [r.id for r in store.games.page(None, Lifecycle.FINISHED, None, 10)[0]] == ["g2"]
    assert [r.id for r in store.games.page("taki", Lifecycle.WAITING, None, 10)[0]] == ["g3", "g0"]


def test_a_game_filed_under_a_status_it_left_is_moved_when_found(store: EventStore) -> None:
    """The index move after a game's last append is lost if its process dies in between."""
    new_game(store, "g0")
    store.streams.append("g0", 0, events("a"), command_id="c", actor="system", status="active")
    store.redis.hset(keys.meta("g0"), "status", "finished")  # the last append, without its move
    store.redis.zadd(keys.games_with_status("active", ""), {"gone": 1})
    assert [r.id for r in store.games.page(None, Lifecycle.ACTIVE, None, 10)[0]] == []
    feed = store.redis.xlen(keys.feed(""))
    assert list(store.games.indexed("active")) == []
    assert store.games.count_by_status() == {"waiting": 0, "active": 0, "finished": 1, "cancelled": 0}
    announced = [fields[b"game"] for _, fields in store.redis.xrange(keys.feed(""))][feed:]
    assert announced == [b"g0"]  # told again, so that its end is told; the game that is gone is not


def test_the_status_indexes_are_built_for_a_store_older_than_them(store: EventStore) -> None:
    for number in range(3):
        new_game(store, f"g{number}")
    store.streams.append("g1", 0, events("a"), command_id="c", actor="system", status="active")
    store.streams.append("g2", 0, events("a"), command_id="c", actor="system", status="finished")
    store.redis.delete(*(keys.games_with_status(status, "") for status in Lifecycle))
    store.games.build_status_index()
    assert store.games.count_by_status() == {"waiting": 1, "active": 1, "finished": 1, "cancelled": 0}
    store.redis.delete(keys.games_with_status("active", ""))
    store.games.build_status_index()  # once only
    assert store.games.count_by_status() == {"waiting": 1, "active": 0, "finished": 1, "cancelled": 0}


@pytest.mark.redis
def test_racing_appends_at_one_version_let_exactly_one_win(real_redis: redis.Redis) -> None:  # type: ignore[type-arg]
    store = EventStore(real_redis)
    game = new_game(store)
    outcomes: list[str] = []
    barrier = threading.Barrier(20)

    def race(number: int) -> None:
        barrier.wait()
        try:
            store.streams.append(game, 0, events(f"e{number}"), command_id=str(number), actor="seat:0")
            outcomes.append("won")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=race, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict"] * 19 + ["won"]
    assert [e.version for e in store.streams.read(game)] == [1]


def test_a_player_token_kept_as_older_stores_kept_it_is_found_and_moved(store: EventStore) -> None:
    store.redis.hset(keys.player_tokens(), hash_token("old-token"), "p-ann")
    assert player_of_token(store.redis, hash_token("old-token")) == "p-ann"
    assert store.redis.get(keys.player_token(hash_token("old-token"))) == b"p-ann"
    assert not store.redis.hexists(keys.player_tokens(), hash_token("old-token"))
    assert player_of_token(store.redis, hash_token("old-token")) == "p-ann"
    assert player_of_token(store.redis, hash_token("no-such-token")) is None


def test_a_game_whose_ending_a_failover_lost_is_filed_in_play_again(store: EventStore) -> None:
    """The game's slot lost its last append (its meta says it is still in play), while the index,
    in another slot, kept the filing made after it."""
    lost, over = new_game(store, "lost"), new_game(store, "over")
    for game in (lost, over):
        store.streams.append(game, 0, events("a"), command_id="c1", actor="system", status=Lifecycle.ACTIVE)
        store.streams.append(game, 1, events("b"), command_id="c2", actor="seat:0", status=Lifecycle.FINISHED)
    store.redis.hset(keys.meta(lost), mapping={"status": "active", "version": 1})
    position = store.feed.position()
    assert store.games.refile_finished_since(0) == 1
    assert [game for game, _ in store.games.indexed(Lifecycle.ACTIVE)] == [lost]
    assert [game for _, game in store.feed.follow(position, 100)[1]] == [lost]
    assert store.games.refile_finished_since(0) == 0
