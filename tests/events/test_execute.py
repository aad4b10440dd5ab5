"""Loading, deciding and appending through the one execute path."""

from __future__ import annotations

import pytest

from domain.core.errors import RuleViolation
from domain.core.rng import SeededRng
from domain.taki import TAKI
from domain.taki.commands import Draw
from domain.taki.rules import legal_commands
from events import keys
from events.envelope import DeadlinePolicy, TurnDeadline
from events.errors import VersionConflict
from events.execute import Executor
from events.store import EventStore


def started_game(executor: Executor, seats: int = 2) -> str:
    executor.store.games.create("g", "taki", {"first_seat": 1}, seats)
    for seat in range(seats):
        executor.store.seats.claim("g", seat, f"p{seat}", f"token{seat}")
    assert executor.start("g", SeededRng(1)) is not None
    return "g"


def test_start_appends_the_setup_once(executor: Executor) -> None:
    game = started_game(executor)
    assert executor.start(game) is None
    loaded = executor.load(game)
    assert loaded.version == len(executor.store.streams.read(game)) and loaded.state.current == 1
    assert executor.store.games.get(game).status == "active"


def test_a_game_does_not_start_before_every_seat_is_taken(executor: Executor) -> None:
    executor.store.games.create("g", "taki", {}, 3)
    executor.store.seats.claim("g", 0, "ann", "t")
    assert executor.start("g") is None and executor.load("g").version == 0


def test_execute_appends_what_decide_returns_and_the_state_follows(executor: Executor) -> None:
    game = started_game(executor)
    before = executor.load(game)
    done = executor.execute(game, Draw(1), actor="seat:1", expected_version=before.version)
    assert done.version == before.version + len(done.events)
    after = executor.load(game)
    assert after.version == done.version and after.state.current == 0
    fresh = Executor(executor.store).load(game)
    assert fresh.state == after.state
    assert TAKI.replay(after.state.options, 2, [
        TAKI.events.decode(e.type, e.schema_version, e.payload) for e in executor.store.streams.read(game)]) == after.state


def test_a_refused_command_appends_nothing(executor: Executor) -> None:
    game = started_game(executor)
    version = executor.load(game).version
    with pytest.raises(RuleViolation) as refused:
        executor.execute(game, Draw(0), actor="seat:0")
    assert refused.value.reason == "not_your_turn" and executor.load(game).version == version


def test_a_stale_expected_version_is_a_conflict(executor: Executor) -> None:
    game = started_game(executor)
    version = executor.load(game).version
    with pytest.raises(VersionConflict):
        executor.execute(game, Draw(1), actor="seat:1", expected_version=version - 1)


def test_a_retried_command_returns_the_first_answer(executor: Executor) -> None:
    game = started_game(executor)
    first = executor.execute(game, Draw(1), actor="seat:1", idempotency_key="k", fingerprint="draw")
    retry = executor.execute(game, Draw(1), actor="seat:1", idempotency_key="k", fingerprint="draw")
    assert retry.replayed and retry.events == first.events and retry.version == first.version
    assert executor.load(game).version == first.version


def test_the_state_at_any_past_version(executor: Executor, store: EventStore) -> None:
    game = started_game(executor)
    executor.execute(game, Draw(1), actor="seat:1")
    events = store.streams.read(game)
    for version in (0, 1, len(events) - 1, len(events)):
        expected = TAKI.replay(executor.load(game).state.options, 2, [
            TAKI.events.decode(e.type, e.schema_version, e.payload) for e in events[:version]])
        assert executor.load(game, version).state == expected


def test_a_state_cached_from_writes_the_store_lost_is_not_used_again(executor: Executor) -> None:
    """A failover without a replica wait can lose the latest appends; the game then goes on from
    the version before them with other moves, which the process's cached state must not hide."""
    game = started_game(executor)
    before = executor.load(game)
    redis, stream = executor.store.redis, keys.stream(game)
    kept = redis.xrange(stream)  # what the replica that takes over holds
    moves = [command for command in legal_commands(before.state, 1) if not isinstance(command, Draw)]
    executor.execute(game, Draw(1), actor="seat:1", expected_version=before.version)  # lost with the master
    lost = executor.load(game)
    redis.delete(stream)
    for entry_id, fields in kept:
        redis.xadd(stream, fields, id=entry_id)
    redis.hset(keys.meta(game), "version", before.version)
    Executor(executor.store).execute(game, moves[0], actor="seat:1", expected_version=before.version)  # elsewhere
    assert executor.load(game).state == Executor(executor.store).load(game).state != lost.state



def announced_moves(executor: Executor, game_id: str, moves: int = 8, deadline: TurnDeadline | None = None,
                    seating: dict[int, dict[str, str]] | None = None) -> list[bool]:
    """Whether each of `moves` moves of a started Djambi game (each the first listed) was announced
    on the feed; `seating` gives claim's extra arguments by seat (as {1: {"bot": "random"}})."""
    executor.store.games.create(game_id, "djambi", {}, 4, deadline)
    for seat in range(4):
        executor.store.seats.claim(game_id, seat, f"p{seat}", f"{game_id}-{seat}", **(seating or {}).get(seat, {}))
    executor.start(game_id, SeededRng(1))
    feed, announced = executor.store.feed.streams[0], []
    for _ in range(moves):
        loaded = executor.load(game_id)
        seat = loaded.game.status(loaded.state).to_move[0]
        before = executor.store.redis.xlen(feed)
        executor.execute(game_id, loaded.game.legal_commands(loaded.state, seat)[0], actor=f"seat:{seat}")
        announced.append(executor.store.redis.xlen(feed) > before)
    return announced


def test_a_move_nobody_awaits_is_not_announced(executor: Executor) -> None:
    assert announced_moves(executor, "people") == [False] * 8  # unregistered people, no AI, no deadline


def test_a_move_is_announced_to_a_registered_player_an_ai_to_move_or_a_deadline(executor: Executor) -> None:
    assert announced_moves(executor, "registered", seating={2: {"player_id": "ann"}}) == [True] * 8
    assert announced_moves(executor, "timed", deadline=TurnDeadline(60, DeadlinePolicy.SKIP)) == [True] * 8
    assert announced_moves(executor, "ai", 3, seating={1: {"bot": "random"}}) == [True, False, False]  # the AI moves second


def test_a_held_state_is_the_game_in_play_as_the_process_last_saw_it(executor: Executor) -> None:
    executor.store.games.create("waiting", "taki", {}, 2)
    executor.load("waiting")
    assert executor.held("waiting") is None and executor.held("unknown") is None
    game = started_game(executor)
    loaded = executor.load(game)
    held = executor.held(game)
    assert held is not None and held.held and (held.version, held.command_id, held.state) == (
        loaded.version, loaded.command_id, loaded.state)


def test_the_process_that_starts_a_game_holds_it_as_the_store_has_it(executor: Executor) -> None:
    game = started_game(executor)  # read by no load since its start
    held = executor.held(game)
    assert held is not None and held.version == executor.store.games.get(game).version
    assert held.record == Executor(executor.store).load(game).record


def test_a_command_on_a_held_state_another_process_moved_past_is_decided_on_the_game_read_anew(executor: Executor) -> None:
    game = started_game(executor)  # seat 1 to move
    executor.load(game)
    elsewhere = Executor(executor.store).execute(game, Draw(1), actor="seat:1")  # now seat 0
    held = executor.held(game)
    assert held is not None and held.version < elsewhere.version
    done = executor.execute(game, Draw(0), actor="seat:0", loaded=held)  # the held state says seat 1's turn
    assert done.events[0].version == elsewhere.version + 1
    assert executor.load(game).state == Executor(executor.store).load(game).state


def test_what_a_held_state_accepts_and_the_game_no_longer_does_is_refused(executor: Executor) -> None:
    game = started_game(executor)
    executor.load(game)
    version = Executor(executor.store).execute(game, Draw(1), actor="seat:1").version
    with pytest.raises(RuleViolation):
        executor.execute(game, Draw(1), actor="seat:1", loaded=executor.held(game))
    assert executor.load(game).version == version


def test_a_held_state_answers_no_expected_version_of_its_own(executor: Executor) -> None:
    game = started_game(executor)
    stale = executor.load(game).version
    current = Executor(executor.store).execute(game, Draw(1), actor="seat:1").version
    with pytest.raises(VersionConflict) as conflict:
        executor.execute(game, Draw(0), actor="seat:0", expected_version=stale, loaded=executor.held(game))
    assert (conflict.value.expected, conflict.value.actual) == (stale, current)
    done = executor.execute(game, Draw(0), actor="seat:0", expected_version=current, loaded=executor.held(game))
    assert done.events[0].version == current + 1


def test_a_held_state_folded_from_writes_the_store_lost_is_not_appended_on(executor: Executor) -> None:
    """The failover of the test above, with the game going on elsewhere to the very version the
    process holds: the event there is another command's, so the held state is not the game's."""
    game = started_game(executor)
    before = executor.load(game)
    redis, stream = executor.store.redis, keys.stream(game)
    kept = redis.xrange(stream)
    lost = executor.execute(game, Draw(1), actor="seat:1")  # held by this process, lost with the master
    other = next(command for command in legal_commands(before.state, 1) if not isinstance(command, Draw)
                 and len(TAKI.decide(before.state, command, SeededRng(1))) == len(lost.events))
    redis.delete(stream)
    for entry_id, fields in kept:
        redis.xadd(stream, fields, id=entry_id)
    redis.hset(keys.meta(game), "version", before.version)
    assert Executor(executor.store).execute(game, other, actor="seat:1").version == lost.version  # elsewhere
    executor.execute(game, Draw(0), actor="seat:0", loaded=executor.held(game))
    assert executor.load(game).state == Executor(executor.store).load(game).state
