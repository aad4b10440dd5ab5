"""A player going on vacation and coming back: their vacation days are spent or given back
(players.vacations), and each of their games in play is announced again, so that its deadline is
scheduled for its new time, its ETag changes and its readers' streams hear of it (a `clock` message)."""

from __future__ import annotations

from events.envelope import Lifecycle
from events.errors import GameNotFound
from events.store import EventStore
from players.accounts import PlayerStore
from players.vacations import Allowance, Vacations


def go_on_vacation(store: EventStore, vacations: Vacations, player_id: str, until: int, now: int) -> Allowance:
    """Be on vacation until `until`; raises VacationRefused past the days left this year. The
    player's games are announced only if the vacation underway changed (asked again, nothing moves)."""
    before = vacations.allowance(player_id, now).until
    allowance = vacations.take(player_id, until, now)
    if allowance.until != before:
        announce_games(store, player_id)
    return allowance


def come_back(store: EventStore, vacations: Vacations, player_id: str, now: int) -> None:
    """End the vacation underway now, giving back its days not begun."""
    if vacations.end(player_id, now):
        announce_games(store, player_id)


def announce_games(store: EventStore, player_id: str) -> None:
    """Announce each game in play that the player holds a seat in: their clocks there moved."""
    for game_id in PlayerStore(store.redis).games(player_id):
        try:
            record = store.games.get(game_id)
        except GameNotFound:  # a cancelled game deleted since
            continue
        if record.status is Lifecycle.ACTIVE and record.seat_of(player_id) is not None:
            store.feed.tell_clocks(game_id)
