"""A tournament's rounds: the first paired when its sign-up closes, each next one once the last
table of the round before has ended. A round is written once (Tournaments.pair), each table with
a fresh game id (none names its tournament, which may be unlisted), and its games are opened
under the tournament's hold with the ids written, so a job run twice, or cut short and run
again, pairs nothing twice and opens each game once. Readers see a round once all its games
are opened (Tournaments.opened)."""

from __future__ import annotations

from application.lobby import Bot, GameSettings, rated_by_default
from application.lobby import start as start_game
from application.ratings import Ratings
from application.results import ai_identity
from application.tokens import new_id
from application.tournaments import end_invitations, forfeit
from domain.tournaments.pairing import Pairing, Round, Table, round_robin, round_robin_rounds, seeded, swiss
from domain.tournaments.standings import standings
from events import clock
from events.envelope import GameRecord, Lifecycle
from events.errors import GameNotFound
from events.execute import Executor, recorded
from events.tournaments import Entrant, Format, Stage, TableResult, TournamentRecord, Tournaments
from players.accounts import PlayerStore


def start(executor: Executor, tournaments: Tournaments, tournament_id: str) -> None:
    """End the invitations to a tournament whose start has come, close its sign-up and pair its first
    round, or cancel it if its entrants fill no table. The invitations end before it leaves the
    tournaments waiting to start, so a job cut short between is run again and ends them."""
    record = tournaments.get(tournament_id)
    if record is None or (record.stage is Stage.SIGNING_UP and clock.now() < record.starts):
        return
    end_invitations(tournaments, tournament_id)
    if record.stage is not Stage.SIGNING_UP:
        tournaments.file(tournament_id, record.stage)  # begun by a job cut short before it filed it
        return
    tournaments.begin(tournament_id)
    if len(tournaments.entrants(tournament_id)) < record.seats:
        tournaments.end(tournament_id, Stage.CANCELLED)
        return
    advance(executor, tournaments, tournament_id)


def advance(executor: Executor, tournaments: Tournaments, tournament_id: str, wait: bool = True) -> bool:
    """Keep the results of the round's finished tables; once every table has ended, withdraw whoever
    ran out of time in all their games of it, then pair the next round, or end the tournament after
    its last round or once its active entrants fill no table (cancelled if that is before its first).
    Does nothing while another holds it (waiting for it to let go only if `wait`): whether it held it."""
    with tournaments.pairing(tournament_id, wait) as held:
        record = tournaments.get(tournament_id)
        if held and record is not None and record.stage is not Stage.RUNNING:
            tournaments.file(tournament_id, record.stage)  # ended by a job cut short before it filed it
        if not held or record is None or record.stage is not Stage.RUNNING:
            return held
        rounds = tournaments.rounds(tournament_id)
        while not rounds or _close_round(executor, tournaments, record, rounds):
            entrants = tournaments.entrants(tournament_id)
            active = [entrant.id for entrant in entrants if entrant.withdrawn is None]
            if len(active) < record.seats:
                tournaments.end(tournament_id, Stage.FINISHED if rounds else Stage.CANCELLED)
                return True
            if len(rounds) >= _planned(tournaments, record, len(entrants)):
                tournaments.end(tournament_id, Stage.FINISHED)
                return True
            pairing = _pairing(tournaments, record, entrants, active, rounds)
            number = len(rounds) + 1
            tournaments.pair(tournament_id, number, Round(tuple(Table(new_id(), table) for table in pairing.tables), pairing.byes))
            rounds = tournaments.rounds(tournament_id)
        return True


def unrecorded(executor: Executor, tournaments: Tournaments, tournament_id: str) -> bool:
    """Whether the tournament's latest round (if any) is not shown yet or has a table whose result is
    not kept though its game is over, or was never opened or started: what `advance` has to do, read
    from the games' records rather than their logs."""
    rounds = tournaments.rounds(tournament_id)
    if not rounds or tournaments.being_opened(tournament_id, len(rounds)):
        return True
    results = tournaments.results(tournament_id)
    for table in rounds[-1].tables:
        if table.game_id in results:
            continue
        try:
            if executor.store.games.get(table.game_id).status is not Lifecycle.ACTIVE:
                return True
        except GameNotFound:
            return True
    return False


def _planned(tournaments: Tournaments, record: TournamentRecord, entrants: int) -> int:
    """The rounds the tournament plays: a Swiss's as set, a round robin's as its `entrants` need,
    worked out once, before its first round, and kept."""
    if record.rounds is None:
        tournaments.plan(record.id, round_robin_rounds(entrants, record.seats))
        record = tournaments.get(record.id) or record
    return record.rounds or 0


def _close_round(executor: Executor, tournaments: Tournaments, record: TournamentRecord, rounds: list[Round]) -> bool:
    """Open any table of the latest round a cut-short job left unopened and keep the results of those
    that ended; once every one has, withdraw its entrants out of time in every game of it. Whether it closed."""
    latest = rounds[-1]
    entrants = {entrant.id: entrant for entrant in tournaments.entrants(record.id)}
    results = tournaments.results(record.id)
    unfinished = [table for table in latest.tables if table.game_id not in results]
    for table in unfinished:
        _open(executor, tournaments, record, table, entrants)
    tournaments.opened(record.id, len(rounds))
    ended = True
    for table in unfinished:
        if (result := _result(executor, table)) is None:
            ended = False
        else:
            tournaments.record_result(record.id, table.game_id, result)
            results[table.game_id] = result
    if ended:
        _withdraw_timed_out(tournaments, record.id, len(rounds), latest, results, entrants)
    return ended


def _pairing(tournaments: Tournaments, record: TournamentRecord, entrants: list[Entrant], active: list[str],
             rounds: list[Round]) -> Pairing:
    """The next round's tables, as the tournament's format pairs them."""
    if record.format is Format.ROUND_ROBIN:
        return round_robin([entrant.id for entrant in entrants], active, record.seats, rounds)
    if not rounds:
        return seeded(seeding(Ratings(tournaments.redis), record.game, [entrant for entrant in entrants if entrant.id in active]),
                      record.seats)
    results = {game_id: result.places for game_id, result in tournaments.results(record.id).items()}
    rows = [row for row in standings([entrant.id for entrant in entrants], record.seats, rounds, results) if row.entrant in active]
    return swiss([row.entrant for row in rows], {row.entrant: row.points for row in rows}, record.seats, rounds)


def seeding(ratings: Ratings, game: str, entrants: list[Entrant]) -> list[str]:
    """The `entrants` (in sign-up order) by their rating shown in `game`, highest first, those with none
    after them; sign-up order breaks ties. An AI entrant's rating is its level's."""
    shown = {entrant.id: ratings.rating(game, entrant.id if entrant.level is None else ai_identity(entrant.level))
             for entrant in entrants}
    ranked = {entrant_id: -rating.value for entrant_id, rating in shown.items() if rating is not None}
    return sorted(shown, key=lambda entrant_id: (entrant_id not in ranked, ranked.get(entrant_id, 0.0)))  # sorted is stable


def _open(executor: Executor, tournaments: Tournaments, record: TournamentRecord, table: Table,
          entrants: dict[str, Entrant]) -> None:
    """Open the table's game, seat its entrants and start it, each step unless it was done already, and
    forfeit the seats of entrants withdrawn meanwhile (a withdrawal before the game was opened forfeits nothing)."""
    store = executor.store
    try:
        game = store.games.get(table.game_id)
    except GameNotFound:
        tournaments.mark_table(table.game_id, record.id)
        game = store.games.create(table.game_id, record.game, record.options, record.seats, record.deadline,
                                  unlisted=record.unlisted, creator=record.creator,
                                  rated=table_rated(table, entrants, record.seats))
    if game.status is Lifecycle.WAITING:
        _seat(executor, table, game, entrants)
    for seat, entrant_id in enumerate(table.entrants):
        if entrants[entrant_id].withdrawn is not None:
            forfeit(executor, table.game_id, seat)


def table_rated(table: Table, entrants: dict[str, Entrant], seats: int) -> bool:
    """Whether the table's game counts for ratings: as any game of registered players and AI seats does."""
    seated = [entrants[entrant_id] for entrant_id in table.entrants]
    return rated_by_default(GameSettings(
        bots=tuple(Bot(seat, each.level) for seat, each in enumerate(seated) if each.level is not None),
        reserved={seat: each.id for seat, each in enumerate(seated) if each.level is None}), seats)


def _seat(executor: Executor, table: Table, game: GameRecord, entrants: dict[str, Entrant]) -> None:
    """Seat the table's entrants not seated yet in `game` and start it."""
    players = PlayerStore(executor.store.redis)
    for seat, entrant_id in enumerate(table.entrants):
        entrant = entrants[entrant_id]
        if game.names[seat] is not None:
            continue
        if entrant.level is not None:
            executor.store.seats.claim(table.game_id, seat, entrant.name, None, bot=entrant.level)
        else:
            executor.store.seats.claim(table.game_id, seat, entrant.name, None, player_id=entrant.id)
            players.joined(entrant.id, table.game_id)
    start_game(executor, table.game_id)


def _result(executor: Executor, table: Table) -> TableResult | None:
    """The table's places and who ran out of time in it, once its game has ended (else None)."""
    loaded = executor.load(table.game_id)
    status = loaded.game.status(loaded.state)
    if loaded.version == 0 or not status.finished:
        return None
    forfeits = {f"deadline:{seat}": recorded(loaded.game, loaded.game.forfeit_command(seat)) for seat in range(len(table.entrants))}
    out_of_time = {int(envelope.actor.partition(":")[2]) for envelope in executor.store.streams.read(table.game_id)
                   if envelope.actor in forfeits and envelope.cause == forfeits[envelope.actor]}  # the clock's forfeits, not a rule's window
    return TableResult(tuple(tuple(table.entrants[seat] for seat in place) for place in status.ranking),
                       tuple(table.entrants[seat] for seat in sorted(out_of_time)))


def _withdraw_timed_out(tournaments: Tournaments, tournament_id: str, number: int, latest: Round,
                        results: dict[str, TableResult], entrants: dict[str, Entrant]) -> None:
    """Withdraw each entrant still in who ran out of time in every game of round `number`."""
    for entrant_id in {entrant_id for table in latest.tables for entrant_id in table.entrants}:
        tables = [table for table in latest.tables if entrant_id in table.entrants]
        if entrants[entrant_id].withdrawn is None and all(entrant_id in results[table.game_id].timed_out for table in tables):
            tournaments.withdraw(tournament_id, entrants[entrant_id], after=number, timed_out=True)
