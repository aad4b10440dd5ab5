"""Tournaments played to the end by real workers on a real Redis: an 8-entrant Swiss of 4-seat
Djambi over 3 rounds, and a 5-entrant round robin of 2-seat TAKI with a withdrawal in the middle
and a player who lets their time run out, each round paired by the workers as the last table of
the one before ends."""

from __future__ import annotations

import contextlib
import itertools
import time

import pytest
import redis

from application import tournaments as desk
from application.tournaments import TournamentSettings
from domain.core.errors import MeepleError
from domain.tournaments.pairing import Round, met
from domain.tournaments.standings import bye_points, place_points
from events import clock
from events.envelope import DeadlinePolicy, Lifecycle, TurnDeadline
from events.errors import GameNotFound
from events.execute import Executor
from events.tournaments import Format, Stage, TournamentRecord, Tournaments
from players.accounts import PlayerStore
from players.invitations import Invitations
from tests.conftest import Start
from tests.domain.tournaments.test_pairing import fewest_repeats
from tests.workers.conftest import wait_for

pytestmark = pytest.mark.redis


class Creator:
    """A caller with no bounds on what they create."""

    def creator(self, reserving: bool) -> str | None:
        return "boss"

    def is_admin(self) -> bool:
        return False

    def count_game(self) -> None:
        pass

    def count_invitations(self, strangers: list[str]) -> None:
        pass


def opened(client: redis.Redis, game: str, seats: int, form: Format, rounds: int | None,  # type: ignore[type-arg]
           seconds: int) -> TournamentRecord:
    players = PlayerStore(client)
    players.register("boss", "Boss", "boss-token")
    settings = TournamentSettings("Friday cup", game, {}, seats, form, TurnDeadline(seconds, DeadlinePolicy.FORFEIT),
                                  clock.now() + 300, rounds)
    return desk.create(Tournaments(client), players, Invitations(client, 100), Creator(), "boss", settings)


def move_for(executor: Executor, rounds: list[Round], player: str) -> None:
    """Play the player's first legal command in its game of the latest round, if it is to move there."""
    table = next((table for table in rounds[-1].tables if player in table.entrants), None) if rounds else None
    try:  # a round is written before its games are made
        active = table is not None and executor.store.games.get(table.game_id).status is Lifecycle.ACTIVE
    except GameNotFound:
        active = False
    if table is None or not active:
        time.sleep(0.05)
        return
    seat, loaded = table.entrants.index(player), executor.load(table.game_id)
    if seat in loaded.game.status(loaded.state).to_move:
        command = loaded.game.legal_commands(loaded.state, seat)[0]
        with contextlib.suppress(MeepleError):  # an AI's move came first
            executor.execute(table.game_id, command, actor=f"seat:{seat}", expected_version=loaded.version)


def to_move(executor: Executor, game_id: str) -> tuple[int, ...]:
    """The seats to move in the game: none while it is not made yet (a round is written before its games)."""
    try:
        loaded = executor.load(game_id)
    except GameNotFound:
        return ()
    return () if loaded.version == 0 else loaded.game.status(loaded.state).to_move


def finished(tournaments: Tournaments, tournament_id: str, seconds: float) -> bool:
    return wait_for(lambda: (record := tournaments.get(tournament_id)) is not None and record.stage is Stage.FINISHED,
                    timeout=seconds)


def test_an_eight_entrant_swiss_of_djambi_plays_three_rounds_repeating_no_pair_it_could_avoid(
        real_redis: redis.Redis, start_worker: Start) -> None:  # type: ignore[type-arg]
    tournaments, started = Tournaments(real_redis), time.monotonic()
    record = opened(real_redis, "djambi", 4, Format.SWISS, 3, 60)
    for _ in range(8):
        desk.enter_ai(tournaments, record, Creator(), "boss", "greedy")
    start_worker()
    start_worker()
    assert finished(tournaments, record.id, 240), tournaments.get(record.id)
    rounds, results = tournaments.rounds(record.id), tournaments.results(record.id)
    entrants = [entrant.id for entrant in tournaments.entrants(record.id)]
    assert len(rounds) == 3 and all(len(each.tables) == 2 and not each.byes for each in rounds)
    for number in range(1, 3):  # each round as few repeated pairs as any arrangement could have
        before = met(rounds[:number])
        again = sum(before[frozenset(pair)] for table in rounds[number].tables for pair in itertools.combinations(table.entrants, 2))
        assert again == fewest_repeats(entrants, 4, rounds[:number])
    for table in (table for each in rounds for table in each.tables):
        assert sum(place_points(results[table.game_id].places).values()) == 6  # 3 + 2 + 1 + 0, ties shared
    rows = desk.view(tournaments, tournaments.get(record.id) or record).standings  # its values: tests/domain/tournaments
    assert sorted(row.entrant for row in rows) == sorted(entrants) and sum(row.points for row in rows) == 6 * 6
    assert all(row.played == 3 and not row.byes for row in rows)
    assert [(row.points, row.buchholz, row.firsts) for row in rows] == sorted(
        [(row.points, row.buchholz, row.firsts) for row in rows], reverse=True)  # by points, then Buchholz, then firsts
    print(f"swiss of djambi: {time.monotonic() - started:.1f} s")


def test_a_five_entrant_round_robin_of_taki_meets_every_pair_once_and_handles_a_withdrawal_and_a_timeout(
        real_redis: redis.Redis, executor: Executor, start_worker: Start) -> None:  # type: ignore[type-arg]
    tournaments, started = Tournaments(real_redis), time.monotonic()
    record = opened(real_redis, "taki", 2, Format.ROUND_ROBIN, None, 3)
    for _ in range(3):
        desk.enter_ai(tournaments, record, Creator(), "boss", "greedy")
    players = PlayerStore(real_redis)
    desk.sign_up(tournaments, record, players.register("sleeper", "Sleeper", "sleeper-token"))  # never moves
    desk.sign_up(tournaments, record, players.register("leaver", "Leaver", "leaver-token"))  # plays round 1, then withdraws
    start_worker()
    start_worker()
    while len(tournaments.rounds(record.id)) < 2:  # the circle: round 1 pairs the leaver with an AI, round 2 too
        assert time.monotonic() - started < 120
        move_for(executor, tournaments.rounds(record.id), "leaver")
    second = next(table for table in tournaments.rounds(record.id)[1].tables if "leaver" in table.entrants)
    assert wait_for(lambda: second.entrants.index("leaver") in to_move(executor, second.game_id), timeout=30)
    desk.withdraw(executor, tournaments, tournaments.get(record.id) or record, "leaver", by="leaver")  # its game waits on it
    assert finished(tournaments, record.id, 240), tournaments.get(record.id)
    rounds, results = tournaments.rounds(record.id), tournaments.results(record.id)
    entrants = {entrant.id: entrant for entrant in tournaments.entrants(record.id)}
    assert len(rounds) == 5 and set(met(rounds).values()) == {1}  # no pair met twice
    assert (entrants["leaver"].withdrawn, entrants["leaver"].timed_out) == (2, False)
    assert (entrants["sleeper"].withdrawn, entrants["sleeper"].timed_out) == (1, True)  # out of time in round 1
    assert all(quitter not in table.entrants for each in rounds[2:] for table in each.tables for quitter in ("leaver", "sleeper"))
    assert "sleeper" not in str(rounds[1])
    assert results[second.game_id].places[-1] == ("leaver",) and results[second.game_id].timed_out == ()  # forfeited: last
    assert all("leaver" not in results[table.game_id].timed_out for table in rounds[0].tables)  # played round 1 in time
    view = desk.view(tournaments, tournaments.get(record.id) or record)
    for row in view.standings:  # every entrant's points: by place, and a half point for each bye
        byes = sum(row.entrant in each.byes for each in rounds)
        scored = sum(place_points(result.places).get(row.entrant, 0) for result in results.values())
        assert (row.points, row.byes) == (scored + byes * bye_points(2), byes)
    assert [row.points for row in view.standings] == sorted((row.points for row in view.standings), reverse=True)
    assert sum(len(each.tables) for each in rounds) == len(results)
    print(f"round robin of taki: {time.monotonic() - started:.1f} s")
