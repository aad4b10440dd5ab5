"""Private games in the store: unlisted games, seats reserved for registered players and the
naming of a rematch, on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import pytest

from events import clock, keys
from events.envelope import Lifecycle
from events.errors import SeatNotLeft, SeatReserved, SeatUnavailable
from events.records import GameRecords
from events.store import EventStore

HOUR = 3600 * 1000


def create(store: EventStore, game_id: str, seats: int = 3, **settings: object) -> str:
    store.games.create(game_id, "taki", {}, seats, lobby_seconds=3600, **settings)  # type: ignore[arg-type]
    return game_id


def listed(games: GameRecords, **filters: object) -> list[str]:
    """Every game id each listing shows, page by page."""
    found: list[str] = []
    page, cursor = games.page(filters.get("game"), filters.get("status"), None, 1)  # type: ignore[arg-type]
    found += [record.id for record in page]
    while cursor is not None:
        page, cursor = games.page(filters.get("game"), filters.get("status"), cursor, 1)  # type: ignore[arg-type]
        found += [record.id for record in page]
    return found


def test_an_unlisted_game_is_on_no_page_of_any_listing_yet_read_by_its_id(store: EventStore) -> None:
    create(store, "open")
    create(store, "hidden", unlisted=True)
    create(store, "open-2")
    for filters in ({}, {"game": "taki"}, {"status": Lifecycle.WAITING}, {"game": "taki", "status": Lifecycle.WAITING}):
        assert listed(store.games, **filters) == ["open-2", "open"]
    assert store.games.get("hidden").unlisted and not store.games.get("open").unlisted
    for seat, name in enumerate(("ann", "bo", "cy")):  # in play and over it stays off every page
        store.seats.claim("hidden", seat, name, f"token-{name}")
    store.redis.zrem(keys.games_with_status(Lifecycle.WAITING, ""), "hidden")
    store.redis.zadd(keys.games_with_status(Lifecycle.FINISHED, ""), {"hidden": clock.now()})
    assert listed(store.games, status=Lifecycle.FINISHED) == [] and "hidden" not in listed(store.games)


def test_the_sweep_still_reads_unlisted_games_and_cancels_their_lobbies(
        store: EventStore, monkeypatch: pytest.MonkeyPatch) -> None:
    create(store, "hidden", unlisted=True)
    assert list(store.games.indexed(Lifecycle.WAITING)) == [("hidden", False)]
    until = store.games.get("hidden").lobby_until
    monkeypatch.setattr(clock, "now", lambda: until)
    assert store.seats.cancel_lobby("hidden")
    assert store.games.count_by_status()[Lifecycle.CANCELLED] == 1  # counted, never listed
    assert listed(store.games, status=Lifecycle.CANCELLED) == []


def test_a_reserved_seat_refuses_anyone_else_and_seats_its_player(store: EventStore) -> None:
    game = create(store, "g", reserved={1: "p-bo"})
    assert store.games.get(game).reserved == {1: "p-bo"}
    refusals = [
        lambda: store.seats.claim(game, 1, "eve", "token-eve"),  # a stranger
        lambda: store.seats.claim(game, 1, "eve", "token-eve", player_id="p-eve"),  # another player
        lambda: store.seats.claim(game, 1, "random bot", None, bot="random"),  # an AI
    ]
    for refused in refusals:
        with pytest.raises(SeatReserved) as problem:
            refused()
        assert problem.value.reason == "seat_reserved"
    assert store.seats.claim(game, None, "ann", "token-ann").seat == 0  # the lowest free seat reserved for nobody
    assert store.seats.claim(game, None, "bo", "token-bo", player_id="p-bo").seat == 1  # their own, unasked
    record = store.games.get(game)
    assert record.names == ("ann", "bo", None) and record.holders == {1: "p-bo"} and record.invitation("p-bo") is None


def test_a_stranger_finds_no_seat_when_every_free_one_is_reserved(store: EventStore) -> None:
    game = create(store, "g", seats=2, reserved={0: "p-ann", 1: "p-bo"})
    with pytest.raises(SeatReserved) as problem:
        store.seats.claim(game, None, "eve", "token-eve")
    assert problem.value.reason == "seats_reserved"
    assert store.games.get(game).invitation("p-ann") == 0


def test_an_invited_player_taking_another_seat_is_told_which_is_theirs(store: EventStore) -> None:
    game = create(store, "g", reserved={2: "p-bo"})
    with pytest.raises(SeatUnavailable) as problem:
        store.seats.claim(game, 0, "bo", "token-bo", player_id="p-bo")
    assert problem.value.reason == "reserved_for_you" and "Seat 2" in str(problem.value)
    assert store.seats.claim(game, 2, "bo", "token-bo", player_id="p-bo").seat == 2


def test_leaving_a_reserved_seat_frees_it_for_its_player_only(store: EventStore) -> None:
    game = create(store, "g", reserved={0: "p-ann"})
    store.seats.claim(game, None, "ann", "token-ann", player_id="p-ann")
    assert store.seats.leave(game, 0) == "p-ann"
    record = store.games.get(game)
    assert record.names == (None, None, None) and record.reserved == {0: "p-ann"} and record.invitation("p-ann") == 0
    with pytest.raises(SeatReserved):
        store.seats.claim(game, 0, "eve", "token-eve")
    assert store.seats.claim(game, None, "ann", "token-ann-2", player_id="p-ann").seat == 0
    with pytest.raises(SeatNotLeft):
        store.seats.leave(game, 1)


def test_the_first_rematch_named_is_the_only_one(store: EventStore) -> None:
    create(store, "over")
    create(store, "again", unlisted=True, rematch_of="over")
    assert store.games.name_rematch("over", "again") == "again"
    assert store.games.name_rematch("over", "later") == "again"
    assert store.games.get("over").rematch == "again" and store.games.get("again").rematch_of == "over"


def test_a_discarded_game_leaves_no_trace(store: EventStore) -> None:
    create(store, "lost", reserved={0: "p-ann"})
    store.seats.claim("lost", 1, "random bot", None, bot="random")
    store.games.discard("lost")
    assert store.redis.keys("*lost*") == [] and store.games.count_by_status()[Lifecycle.WAITING] == 0
    assert list(store.games.indexed(Lifecycle.WAITING)) == [] and listed(store.games) == []


def test_a_reservation_survives_a_cancelled_lobby_but_seats_nobody(store: EventStore,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    game = create(store, "g", reserved={0: "p-ann"})
    now = clock.now()
    monkeypatch.setattr(clock, "now", lambda: now + 2 * HOUR)
    assert store.seats.cancel_lobby(game)
    assert store.games.get(game).invitation("p-ann") is None
    with pytest.raises(SeatUnavailable) as problem:
        store.seats.claim(game, None, "ann", "token-ann", player_id="p-ann")
    assert problem.value.reason == "cancelled"
