"""A seat's token given to a device (the player token that joined with it) lasts no longer than
that player token; a seat taken without one, an AI's, and one taken before devices were kept act
as ever; on fakeredis and on a real Redis server alike."""

from __future__ import annotations

import pytest

from events.errors import DeviceSignedOut
from events.seats import hash_token
from events.store import EventStore
from players.accounts import PlayerStore
from players.devices import PlayerTokens, token_id

LAPTOP, PHONE = "ann-laptop-0123456789", "ann-phone-01234567890"


@pytest.fixture
def ann(store: EventStore) -> PlayerTokens:
    """ann, registered with her laptop's token, and holding her phone's too."""
    PlayerStore(store.redis).register("ann", "ann", LAPTOP, "Laptop")
    tokens = PlayerTokens(store.redis)
    tokens.add("ann", "Phone", PHONE)
    return tokens


def test_the_seat_tokens_a_device_took_are_refused_once_it_is_revoked(store: EventStore, ann: PlayerTokens) -> None:
    store.games.create("by-phone", "taki", {}, 3)
    store.games.create("by-laptop", "taki", {}, 2)
    store.seats.claim("by-phone", None, "ann", "seat-phone", player_id="ann", device=hash_token(PHONE))
    store.seats.claim("by-phone", None, "bo", "seat-bo")
    store.seats.claim("by-phone", None, "search bot", None, bot="search")
    store.seats.claim("by-laptop", None, "ann", "seat-laptop", player_id="ann", device=hash_token(LAPTOP))
    by_phone, by_laptop = store.games.get("by-phone"), store.games.get("by-laptop")
    assert by_phone.devices == {0: hash_token(PHONE)} and by_laptop.devices == {0: hash_token(LAPTOP)}
    assert store.seats.for_token(by_phone, "seat-phone") == 0
    assert ann.revoke("ann", token_id(hash_token(PHONE)))
    with pytest.raises(DeviceSignedOut) as refused:
        store.seats.for_token(by_phone, "seat-phone")
    assert (refused.value.game_id, refused.value.seat) == ("by-phone", 0)
    assert store.seats.for_token(by_phone, "seat-bo") == 1
    assert store.seats.for_token(by_phone, LAPTOP) == 0  # ann's other device still acts for her seat
    assert store.seats.for_token(by_laptop, "seat-laptop") == 0


def test_a_seat_token_used_counts_as_a_use_of_its_device(store: EventStore, ann: PlayerTokens) -> None:
    store.games.create("g", "taki", {}, 2)
    store.seats.claim("g", None, "ann", "seat-phone", player_id="ann", device=hash_token(PHONE))
    assert {held.name: held.last_used for held in ann.of("ann")}["Phone"] is None
    store.seats.for_token(store.games.get("g"), "seat-phone")
    assert {held.name: held.last_used for held in ann.of("ann")}["Phone"] is not None


def test_a_seat_taken_before_devices_were_kept_acts_as_ever(store: EventStore, ann: PlayerTokens) -> None:
    store.games.create("g", "taki", {}, 2)
    store.seats.claim("g", None, "ann", "seat-old", player_id="ann")  # as a join recorded it before
    ann.revoke("ann", token_id(hash_token(PHONE)))
    record = store.games.get("g")
    assert record.devices == {} and store.seats.for_token(record, "seat-old") == 0


def test_a_seat_given_up_forgets_its_device(store: EventStore, ann: PlayerTokens) -> None:
    store.games.create("g", "taki", {}, 2)
    store.seats.claim("g", 0, "ann", "seat-phone", player_id="ann", device=hash_token(PHONE))
    store.seats.leave("g", 0)
    store.seats.claim("g", 0, "cy", "seat-cy")
    ann.revoke("ann", token_id(hash_token(PHONE)))
    record = store.games.get("g")
    assert record.devices == {} and store.seats.for_token(record, "seat-cy") == 0
