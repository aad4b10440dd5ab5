"""A tournament's rounds as the workers' jobs make them: the first paired at the start (or the
tournament cancelled with too few entrants), each round written once and its games opened once
however often a job runs, a job waiting while another pairs the tournament, a round whose opening
was cut short opened by the next run (and shown only then), sign-up
closed from the start, and tables rated as any game of registered players and AI seats; on
fakeredis and on a real Redis server alike."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest

from application import tournament_rounds
from application import tournaments as desk
from application.errors import NotNow
from application.ratings import Ratings
from domain.tournaments.pairing import Round, Table
from events import clock, keys
from events.envelope import DeadlinePolicy, Lifecycle, TurnDeadline
from events.execute import Executor
from events.ratings import Result
from events.tournaments import Entrant, Format, Stage, TableResult, TournamentRecord, Tournaments
from players.accounts import PlayerStore
from tests.application.conftest import Asking


def opened(executor: Executor, seats: int = 4, form: Format = Format.SWISS, rounds: int | None = 3) -> TournamentRecord:
    record = TournamentRecord("cup", "Cup", "djambi" if seats == 4 else "taki", {}, seats, form,
                              TurnDeadline(60, DeadlinePolicy.FORFEIT), clock.now() + 60_000, "boss", rounds=rounds)
    Tournaments(executor.store.redis).create(record)
    return record


def entered(executor: Executor, record: TournamentRecord, count: int) -> tuple[Tournaments, list[Entrant]]:
    """`count` random AIs entered in the tournament by its creator."""
    tournaments = Tournaments(executor.store.redis)
    return tournaments, [desk.enter_ai(tournaments, record, Asking(), "boss", "random") for _ in range(count)]


def started(executor: Executor, record: TournamentRecord, monkeypatch: pytest.MonkeyPatch) -> Tournaments:
    monkeypatch.setattr(clock, "now", lambda: record.starts)
    tournaments = Tournaments(executor.store.redis)
    tournament_rounds.start(executor, tournaments, record.id)
    return tournaments


def people_started(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> tuple[TournamentRecord, Tournaments]:
    """A two-seat round robin of the registered players ann and bo, started."""
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments = Tournaments(executor.store.redis)
    players = PlayerStore(executor.store.redis)
    for name in ("ann", "bo"):
        desk.sign_up(tournaments, record, players.register(name, name, f"{name}-token"))
    started(executor, record, monkeypatch)
    return record, tournaments


def test_the_first_round_is_paired_once_and_its_games_opened_once_however_often_the_jobs_run(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor)
    tournaments, _ = entered(executor, record, 8)
    tournament_rounds.start(executor, tournaments, record.id)  # before its start: nothing
    assert tournaments.rounds(record.id) == [] and tournaments.get(record.id).stage is Stage.SIGNING_UP  # type: ignore[union-attr]
    started(executor, record, monkeypatch)
    first = tournaments.rounds(record.id)
    versions = {table.game_id: executor.load(table.game_id).version for table in first[0].tables}
    for _ in range(3):
        tournament_rounds.start(executor, tournaments, record.id)
        tournament_rounds.advance(executor, tournaments, record.id)
    assert tournaments.rounds(record.id) == first and len(first[0].tables) == 2
    assert {table.game_id: executor.load(table.game_id).version for table in first[0].tables} == versions
    assert all(version > 0 for version in versions.values())
    assert all(tournaments.of_game(game_id) == record.id for game_id in versions)


def test_a_round_whose_games_were_not_all_opened_is_opened_by_the_next_run_and_shown_only_then(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, ais = entered(executor, record, 2)
    tournaments.begin(record.id)
    paired = Round((Table("cup-1-0", (ais[0].id, ais[1].id)),))
    tournaments.pair(record.id, 1, paired)  # a job cut short here
    before = desk.view(tournaments, record)
    assert before.rounds == [] and tournaments.rounds(record.id) == [paired]  # no table names a game not there
    tournament_rounds.advance(executor, tournaments, record.id)
    assert executor.store.games.get("cup-1-0").status is Lifecycle.ACTIVE
    after = desk.view(tournaments, record)
    assert after.rounds == [paired] and after.version > before.version  # a change its followers hear of
    assert not tournaments.pair(record.id, 1, paired)  # written already: still shown
    assert desk.view(tournaments, record) == after


def test_a_round_opened_by_a_job_that_died_before_showing_it_is_shown_by_the_sweeps_next_job(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, _ = entered(executor, record, 2)
    showing = Tournaments.opened

    def dying(self: Tournaments, tournament_id: str, number: int) -> None:
        raise RuntimeError("the job died")

    monkeypatch.setattr(Tournaments, "opened", dying)
    with pytest.raises(RuntimeError):
        started(executor, record, monkeypatch)
    [paired] = tournaments.rounds(record.id)
    assert all(executor.store.games.get(table.game_id).status is Lifecycle.ACTIVE for table in paired.tables)
    assert desk.view(tournaments, record).rounds == []
    assert tournament_rounds.unrecorded(executor, tournaments, record.id)  # so the sweep runs the job again
    monkeypatch.setattr(Tournaments, "opened", showing)
    tournament_rounds.advance(executor, tournaments, record.id)
    assert desk.view(tournaments, record).rounds == [paired]
    assert not tournament_rounds.unrecorded(executor, tournaments, record.id)


def test_too_few_entrants_cancel_the_tournament_at_its_start(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor)
    tournaments, _ = entered(executor, record, 3)
    started(executor, record, monkeypatch)
    assert tournaments.get(record.id).stage is Stage.CANCELLED and tournaments.rounds(record.id) == []  # type: ignore[union-attr]
    assert record.id not in tournaments.due(clock.now() + 10**9) and record.id not in tournaments.running()


def test_sign_up_closes_at_the_start_and_a_started_tournament_takes_no_sign_up_or_leaving(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments = Tournaments(executor.store.redis)
    players = PlayerStore(executor.store.redis)
    ann, bo = players.register("ann", "ann", "ann-token"), players.register("bo", "bo", "bo-token")
    desk.sign_up(tournaments, record, ann)
    desk.sign_up(tournaments, record, bo)
    monkeypatch.setattr(clock, "now", lambda: record.starts)
    with pytest.raises(NotNow) as refused:
        desk.enter_ai(tournaments, record, Asking(), "boss", "random")
    assert refused.value.code == "sign_up_closed"
    tournaments.begin(record.id)
    assert tournaments.enter(record.id, Entrant("late", "late", clock.now()), 64).value == "closed"
    assert tournaments.leave(record.id, "ann").value == "closed"
    assert [entrant.id for entrant in tournaments.entrants(record.id)] == ["ann", "bo"]


def test_a_table_of_registered_players_is_rated_and_one_with_an_ai_level_twice_is_not(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    people, tournaments = people_started(executor, monkeypatch)
    assert executor.store.games.get(tournaments.rounds(people.id)[0].tables[0].game_id).rated
    twins = TournamentRecord("twins", "Twins", "taki", {}, 2, Format.ROUND_ROBIN, people.deadline, people.starts, "boss")
    tournaments.create(twins)
    monkeypatch.setattr(clock, "now", lambda: people.starts - 1)
    for _ in range(2):
        desk.enter_ai(tournaments, twins, Asking(), "boss", "greedy")
    started(executor, twins, monkeypatch)
    assert not executor.store.games.get(tournaments.rounds(twins.id)[0].tables[0].game_id).rated


def test_a_swiss_seeds_its_first_round_by_rating_the_unrated_after_in_sign_up_order(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2)
    tournaments = Tournaments(executor.store.redis)
    players = PlayerStore(executor.store.redis)
    for name in ("ann", "bo", "cy", "di"):
        desk.sign_up(tournaments, record, players.register(name, name, f"{name}-token"))
    ai = desk.enter_ai(tournaments, record, Asking(), "boss", "greedy")
    ratings = Ratings(executor.store.redis)
    for number, places in enumerate([("cy", "eve"), ("cy", "bo"), ("ai:greedy", "eve"), ("di", "eve")]):
        game = "djambi" if places[0] == "di" else "taki"  # di is rated in another game only
        assert ratings.record(Result(f"game{number}", game, 1_000 + number, tuple((each,) for each in places), {}))
    ratings.fold_all()
    shown = {identity: ratings.rating("taki", identity) for identity in ("cy", "ai:greedy", "bo")}
    assert shown["cy"].value > shown["ai:greedy"].value > 0 > shown["bo"].value  # type: ignore[union-attr]
    started(executor, record, monkeypatch)
    first = tournaments.rounds(record.id)[0]  # seeded cy, the greedy AI, bo (below 0, yet rated), then ann and di unrated
    assert [table.entrants for table in first.tables] == [("cy", "bo"), (ai.id, "ann")]  # the top half against the bottom
    assert first.byes == ("di",)  # the lowest seeded


def test_a_job_that_finds_another_pairing_the_tournament_waits_for_it_and_then_moves_it_on(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, _ = entered(executor, record, 2)
    tournaments.begin(record.id)
    job = threading.Thread(target=tournament_rounds.advance, args=(executor, tournaments, record.id))
    with tournaments.pairing(record.id) as held:
        assert held
        job.start()
        time.sleep(0.3)
        assert tournaments.rounds(record.id) == []  # the job waits while another holds the tournament
    job.join(timeout=10)
    assert len(tournaments.rounds(record.id)) == 1


def test_only_a_forfeit_by_the_clock_counts_as_out_of_time_not_a_rule_window_closed_under_the_same_actor(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record, tournaments = people_started(executor, monkeypatch)
    table = tournaments.rounds(record.id)[0].tables[0]
    loaded = executor.load(table.game_id)
    first = loaded.game.status(loaded.state).to_move[0]
    # a lapsed response window (TAKI's +3) is applied as apply_deadline applies a skip: under "deadline:<seat>"
    executor.execute(table.game_id, loaded.game.timeout_command(loaded.state, first), actor=f"deadline:{first}")
    loaded = executor.load(table.game_id)
    second = loaded.game.status(loaded.state).to_move[0]
    assert second != first
    executor.execute(table.game_id, loaded.game.forfeit_command(second), actor=f"deadline:{second}")
    tournament_rounds.advance(executor, tournaments, record.id)
    withdrawn = {entrant.id: entrant.withdrawn for entrant in tournaments.entrants(record.id)}
    assert withdrawn[table.entrants[first]] is None and withdrawn[table.entrants[second]] is not None
    assert tournaments.results(record.id)[table.game_id].timed_out == (table.entrants[second],)


def test_a_tournament_begun_by_a_job_cut_short_before_its_entrants_were_counted_is_cancelled_by_the_next(
        executor: Executor) -> None:
    record = opened(executor)
    tournaments, _ = entered(executor, record, 3)
    tournaments.begin(record.id)  # a job cut short here
    tournament_rounds.advance(executor, tournaments, record.id)
    assert tournaments.get(record.id).stage is Stage.CANCELLED  # type: ignore[union-attr]


def test_an_entrant_withdrawn_after_the_round_was_paired_but_before_its_game_opened_forfeits_it_once_opened(
        executor: Executor) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, ais = entered(executor, record, 2)
    tournaments.begin(record.id)
    tournaments.pair(record.id, 1, Round((Table("cup-1-0", (ais[0].id, ais[1].id)),)))  # a job cut short here
    desk.withdraw(executor, tournaments, tournaments.get(record.id), ais[0].id, by="boss")  # type: ignore[arg-type]
    tournament_rounds.advance(executor, tournaments, record.id)
    assert tournaments.results(record.id)["cup-1-0"].places == ((ais[1].id,), (ais[0].id,))


def test_a_withdrawal_waits_while_the_tournament_is_paired(executor: Executor) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, ais = entered(executor, record, 3)
    tournaments.begin(record.id)
    running = tournaments.get(record.id)
    withdrawal = threading.Thread(target=desk.withdraw, args=(executor, tournaments, running, ais[0].id, "boss"))
    with tournaments.pairing(record.id) as held:
        assert held
        withdrawal.start()
        time.sleep(0.3)
        assert all(entrant.withdrawn is None for entrant in tournaments.entrants(record.id))
    withdrawal.join(timeout=10)
    assert [entrant.withdrawn for entrant in tournaments.entrants(record.id)] == [0, None, None]


def test_a_table_s_game_id_does_not_name_its_tournament(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor)
    tournaments, _ = entered(executor, record, 4)
    started(executor, record, monkeypatch)
    [table] = tournaments.rounds(record.id)[0].tables
    assert record.id not in table.game_id and tournaments.of_game(table.game_id) == record.id


def test_a_job_that_would_not_wait_returns_at_once_while_another_pairs_the_tournament(executor: Executor) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, _ = entered(executor, record, 2)
    tournaments.begin(record.id)
    with tournaments.pairing(record.id) as held:
        assert held
        began = time.monotonic()
        assert not tournament_rounds.advance(executor, tournaments, record.id, wait=False)
        assert time.monotonic() - began < 1 and tournaments.rounds(record.id) == []
    assert tournament_rounds.advance(executor, tournaments, record.id, wait=False)
    assert len(tournaments.rounds(record.id)) == 1


def test_a_tournament_has_work_unrecorded_only_while_a_table_of_its_round_is_over_or_unopened_without_its_result(
        executor: Executor) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, ais = entered(executor, record, 2)
    tournaments.begin(record.id)
    assert tournament_rounds.unrecorded(executor, tournaments, record.id)  # no round yet
    tournaments.pair(record.id, 1, Round((Table("cup-1-0", (ais[0].id, ais[1].id)),)))
    assert tournament_rounds.unrecorded(executor, tournaments, record.id)  # not opened
    tournament_rounds.advance(executor, tournaments, record.id)
    assert not tournament_rounds.unrecorded(executor, tournaments, record.id)  # in play
    desk.forfeit(executor, "cup-1-0", 0)
    assert tournament_rounds.unrecorded(executor, tournaments, record.id)  # over, its result not kept
    tournament_rounds.advance(executor, tournaments, record.id)
    assert tournaments.get(record.id).stage is Stage.FINISHED  # type: ignore[union-attr]


def test_a_tournament_whose_stage_moved_but_whose_indexes_did_not_is_filed_again_by_the_next_job(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor)
    tournaments = Tournaments(executor.store.redis)
    executor.store.redis.hset(keys.tournament(record.id), "stage", Stage.RUNNING)  # begin cut short here
    monkeypatch.setattr(clock, "now", lambda: record.starts)
    tournament_rounds.start(executor, tournaments, record.id)
    assert record.id in tournaments.running() and record.id not in tournaments.due(record.starts)
    executor.store.redis.hset(keys.tournament(record.id), "stage", Stage.FINISHED)  # end cut short here
    tournament_rounds.advance(executor, tournaments, record.id)
    assert record.id not in tournaments.running()


def test_an_ai_entrant_counts_as_the_games_it_adds_against_its_creator_s_bound(executor: Executor) -> None:
    tournaments = Tournaments(executor.store.redis)
    robin = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    asking = Asking()
    for _ in range(5):
        desk.enter_ai(tournaments, robin, asking, "boss", "random")
    assert asking.games == 1 + 1 + 2 + 3 + 4  # one game with each entrant before it (at least one)
    swiss_cup = TournamentRecord("swiss-cup", "Swiss cup", "djambi", {}, 4, Format.SWISS, robin.deadline, robin.starts, "boss", rounds=9)
    tournaments.create(swiss_cup)
    asking = Asking()
    for _ in range(8):
        desk.enter_ai(tournaments, swiss_cup, asking, "boss", "random")
    assert asking.games == 8 * 3  # its share of a table in each of 9 rounds, at 4 seats


def test_a_start_cut_short_once_the_tournament_left_those_waiting_has_ended_its_invitations(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor)
    tournaments = Tournaments(executor.store.redis)
    tournaments.invite(record.id, ["ann"])
    filing = Tournaments.file

    def cut_short(self: Tournaments, tournament_id: str, stage: Stage) -> None:
        filing(self, tournament_id, stage)
        raise RuntimeError("the job died")

    monkeypatch.setattr(Tournaments, "file", cut_short)
    told = executor.store.redis.xlen(keys.letters())
    with pytest.raises(RuntimeError):
        started(executor, record, monkeypatch)
    assert tournaments.due(record.starts) == []  # never started again by the sweep: its invitations ended before
    assert tournaments.unanswered("ann", 10) == [] and not executor.store.redis.exists(keys.tournament_invitees(record.id))
    letters = executor.store.redis.xrange(keys.letters())[told:]
    assert [(fields[b"player"], fields[b"about"]) for _, fields in letters] == [(b"ann", b"tournaments")]


def test_each_change_a_tournament_shows_is_noted_with_it_so_one_version_is_one_content(
        executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    record = opened(executor, seats=2, form=Format.ROUND_ROBIN, rounds=None)
    tournaments, [one, other] = entered(executor, record, 2)
    seen = [desk.view(tournaments, record)]
    tournaments.pair(record.id, 1, Round((Table("t1", (one.id, other.id)),)))  # nothing shown yet: no change, no note
    assert desk.view(tournaments, record) == seen[-1]
    changes = [lambda: tournaments.begin(record.id), lambda: tournaments.plan(record.id, 1),
               lambda: tournaments.opened(record.id, 1),
               lambda: tournaments.record_result(record.id, "t1", TableResult(((one.id,), (other.id,)))),
               lambda: tournaments.withdraw(record.id, other, after=1), lambda: tournaments.end(record.id, Stage.FINISHED)]
    for change in changes:
        change()
        seen.append(desk.view(tournaments, record))
        assert seen[-1].version != seen[-2].version and seen[-1] != dataclasses.replace(seen[-2], version=seen[-1].version)
    tournaments.plan(record.id, 2)  # kept already: no change, no note
    tournaments.record_result(record.id, "t1", TableResult(((other.id,), (one.id,))))
    assert desk.view(tournaments, record) == seen[-1]
