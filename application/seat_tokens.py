"""A seat's holder replacing the seat's token, as one would a lost or shared password: the old token
acts no more from then on, in every process (events.seats.Seats.for_token reads a seat's tokens from
the store), and the streams it opened end within a heartbeat (service.auth.stream_holds)."""

from __future__ import annotations

from application.moderation import guest, mute_refusal
from application.tokens import new_token
from events.seats import hash_token
from events.store import EventStore
from players.moderation import Mutes


def replace_seat_token(store: EventStore, mutes: Mutes, game_id: str, seat: int, token: str) -> str | None:
    """A new token for `seat` in place of `token`, its own; None if `token` is not the seat's token. A guest
    muted (as its seat: application.moderation.guest) keeps its token: refused (Forbidden `muted`) until the mute ends."""
    digest = hash_token(token)
    if (refusal := mute_refusal(mutes.until(guest(game_id, seat)))) is not None:
        raise refusal
    fresh = new_token()
    return fresh if store.seats.replace_token(game_id, seat, digest, hash_token(fresh)) else None
