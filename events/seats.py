"""Seats and tokens: taking a seat (a reserved one by its player only), giving it up while the
game waits for its players, the cancellation of a lobby whose time ran out, and the seat a bearer
token acts for. Each change of seats is checked atomically in the game's slot, so a game either
starts or is cancelled, and a reserved seat is never taken by anyone else."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import cast

import redis

from domain.core.game import Budget
from events import clock, keys, scripts
from events.envelope import CANCELLED, GameRecord, Lifecycle
from events.errors import DeviceSignedOut, GameNotFound, SeatNotLeft, SeatReserved, SeatUnavailable
from events.records import GameRecords


def hash_token(token: str) -> str:
    """Tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


USE_RECORDED_MS = 60_000  # a token's last use is written at most this often, not at every request


def player_of_token(client: redis.Redis, digest: str) -> str | None:
    """The id of the registered player whose token has this SHA-256, if any; the token's use is
    recorded when the last one recorded is a minute old."""
    pipe = client.pipeline(transaction=False)
    pipe.get(keys.player_token(digest))
    pipe.get(keys.player_token_use(digest))
    player_id, used = cast(list[bytes | None], pipe.execute())
    # a token still in the one hash older stores kept them in moves to its own key as it is found
    if player_id is None and (player_id := cast(bytes | None, client.hget(keys.player_tokens(), digest))):
        client.set(keys.player_token(digest), player_id, nx=True)
        client.hdel(keys.player_tokens(), digest)
    if player_id is None:
        return None
    now = clock.now()
    if used is None or now - int(used) >= USE_RECORDED_MS:
        client.set(keys.player_token_use(digest), now)
    return player_id.decode()


@dataclass(frozen=True, slots=True)
class Seated:
    seat: int
    taken: int
    seats: int


class Seats:
    """The seats of the games in one Redis server or cluster."""

    def __init__(self, client: redis.Redis, games: GameRecords) -> None:
        """`games` files a cancelled lobby under its new status and tells the feed."""
        self.redis = client
        self.games = games
        self._claim = scripts.register(client, "claim_seat.lua")
        self._leave = scripts.register(client, "leave_seat.lua")
        self._cancel = scripts.register(client, "cancel_lobby.lua")
        self._replace = scripts.register(client, "replace_seat_token.lua")

    def claim(
        self, game_id: str, seat: int | None, name: str, token: str | None, bot: str | None = None,
        player_id: str | None = None, budget: Budget | None = None, code: str | None = None,
        device: str | None = None,
    ) -> Seated:
        """Seat `name` at the seat whose link has `code`, else at `seat`, else at the seat reserved for
        `player_id`, else at the lowest free unreserved one.

        A person holds `token` (a registered one, `player_id`: one seat per game; a link's seat needs
        one, and is then reserved for them), which lasts no longer than the player token whose SHA-256
        is `device`, if given (the device's that asked for it: `for_token`); an AI has level `bot`.
        Raises SeatReserved for a seat reserved for someone else or a code that opens no seat,
        SeatUnavailable for other refusals."""
        assert code is None or player_id is not None, "a link's seat is taken by a registered player"
        assert device is None or player_id is not None, "a device is a registered player's"
        answer = cast(list[bytes], self._claim(
            keys=_seat_keys(game_id),
            args=["" if seat is None else seat, name, hash_token(token) if token else "", bot or "", player_id or "",
                  "" if budget is None else json.dumps(dataclasses.asdict(budget)), code or "", device or ""],
        ))
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome in _RESERVED_PROBLEMS:
            raise SeatReserved(outcome, _RESERVED_PROBLEMS[outcome])
        if outcome == "reserved_for_you":
            raise SeatUnavailable(outcome, f"Seat {int(answer[1])} is reserved for you: take that one (or name no seat).")
        if outcome != "ok":
            raise SeatUnavailable(outcome, _SEAT_PROBLEMS[outcome])
        return Seated(int(answer[1]), int(answer[2]), int(answer[3]))

    def leave(self, game_id: str, seat: int) -> str | None:
        """Free a seat of a game still waiting for players, forgetting its holder's notes; the registered
        player who held it, if any.

        That player's list of games still names the game. Raises SeatNotLeft."""
        answer = cast(list[bytes], self._leave(keys=[*_seat_keys(game_id), keys.notes(game_id)], args=[seat]))
        outcome = answer[0].decode()
        if outcome == "missing":
            raise GameNotFound(game_id)
        if outcome != "ok":
            raise SeatNotLeft(outcome, _LEAVE_PROBLEMS[outcome])
        return answer[1].decode() or None

    def cancel_lobby(self, game_id: str) -> bool:
        """Cancel the game, and tell the feed, if its lobby time passed with seats still free; whether it did."""
        now = clock.now()
        cancelled = bool(self._cancel(keys=[keys.meta(game_id), keys.seats(game_id)], args=[now]))
        if cancelled:
            pipe = self.redis.pipeline(transaction=False)
            self.games.file(pipe, game_id, Lifecycle.WAITING, Lifecycle.CANCELLED, now)
            self.games.feed.announce(pipe, game_id)
            pipe.execute()
        return cancelled

    def for_token(self, record: GameRecord, token: str) -> int | None:
        """The seat a token acts for in the game: a seat token's own, or the seat its player holds.

        A seat token acts as the store has it now, not as `record` (perhaps a process's cached copy)
        had it: one replaced acts no more, its new one at once. A seat token given to a device (a player
        token) acts only while that device's token is its player's, looked at (and its use recorded) in
        the one round trip a player token costs; else raises DeviceSignedOut."""
        digest = hash_token(token)
        player_id = None if digest in record.token_seats else player_of_token(self.redis, digest)
        if player_id is not None:
            return record.seat_of(player_id)
        seat = self.token_seat(record.id, digest)
        if seat is None:
            return None
        device = record.devices.get(seat)
        if device is not None and player_of_token(self.redis, device) != record.holders.get(seat):
            raise DeviceSignedOut(record.id, seat)
        return seat

    def token_seat(self, game_id: str, digest: str) -> int | None:
        """The seat whose token has the SHA-256 `digest` now, if any."""
        seat = cast(bytes | None, self.redis.hget(keys.tokens(game_id), digest))
        return None if seat is None else int(seat)

    def replace_token(self, game_id: str, seat: int, digest: str, new_digest: str) -> bool:
        """Give `seat` the token whose SHA-256 is `new_digest` in place of its own, `digest`; whether that was its own."""
        return bool(self._replace(keys=[keys.tokens(game_id)], args=[digest, new_digest, seat]))


def _seat_keys(game_id: str) -> list[str]:
    """The keys the claim and leave scripts change."""
    return [keys.meta(game_id), keys.seats(game_id), keys.tokens(game_id), keys.bots(game_id), keys.players(game_id),
            keys.reservations(game_id)]


_SEAT_PROBLEMS = {
    "started": "The game has already started: every seat is taken.",
    "no_such_seat": "The game has no such seat.",
    "seat_taken": "That seat is taken.",
    "game_full": "Every seat is taken.",
    "already_seated": "You already hold a seat in this game.",
    "cancelled": CANCELLED,
}

_RESERVED_PROBLEMS = {
    "seat_reserved": "That seat is reserved for an invited player: only they can take it, with their player token.",
    "seats_reserved": "Every free seat is reserved for an invited player.",
    "invite_unknown": "This invitation link opens no seat of this game: its code is wrong, or it was used already "
                      "(a link seats one person). Ask whoever sent it for a new one.",
}

_LEAVE_PROBLEMS = {
    "started": "Every seat is taken and the game has started: leave it by its own rules (e.g. forfeit).",
    "cancelled": CANCELLED,
    "seat_free": "That seat is free.",
}
