"""The reactor's sweep: it starts a full game nobody started, tells what a lost announcement did not,
and lets the feed through while it runs."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from rq import Queue

from domain.core.rng import SeededRng
from events import clock, keys
from events.envelope import TurnDeadline
from events.execute import Executor
from events.tournaments import Tournaments
from players.accounts import PlayerStore
from players.webhooks import Webhooks
from tests.workers.conftest import new_game, reacting, two_people, wait_for
from workers.reactor import GROUP, Reactor

pytestmark = pytest.mark.redis


def started_game(executor: Executor, game_id: str) -> None:
    executor.store.games.create(game_id, "taki", {}, 2)
    for seat in range(2):
        executor.store.seats.claim(game_id, seat, f"p{seat}", f"token-{game_id}-{seat}")
    executor.start(game_id, SeededRng(1))


@contextmanager
def running(reactor: Reactor) -> Iterator[None]:
    """The reactor consuming the feed in a thread, stopped on leaving."""
    stop = threading.Event()
    thread = threading.Thread(target=reactor.run, args=(stop,))
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)


def noted(reactor: Reactor, monkeypatch: pytest.MonkeyPatch, seconds: float = 0.0) -> list[str]:
    """The games the reactor reacts to, in order, each reaction first taking `seconds`."""
    reacted: list[str] = []
    react = reactor.react

    def noting_react(game_id: str) -> int:
        reacted.append(game_id)
        time.sleep(seconds)
        return react(game_id)

    monkeypatch.setattr(reactor, "react", noting_react)
    return reacted


def test_a_full_game_whose_start_was_lost_is_started_by_the_sweep(executor: Executor) -> None:
    executor.store.games.create("full", "taki", {}, 2)
    for seat in range(2):  # the last seat taken, and its API process gone before the start
        executor.store.seats.claim("full", seat, f"p{seat}", f"token-{seat}", player_id=f"player-{seat}")
    executor.store.games.create("half", "taki", {}, 2)
    executor.store.seats.claim("half", 0, "p0", "token-half")
    Reactor(executor).sweep()
    assert executor.load("full").version > 0 and executor.store.games.get("full").status == "active"
    assert executor.load("half").version == 0
    assert [game_id for game_id, _ in executor.store.games.indexed("active")] == ["full"]
    assert executor.store.redis.smembers(keys.contacts("player-0")) == {b"player-1"}  # as if the API had started it


def test_a_sweep_holds_up_no_reaction_to_the_feed(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(40):
        started_game(executor, f"old{number}")
    executor.store.redis.xtrim(keys.feed(""), maxlen=0)  # their announcements were handled long ago
    reactor = Reactor(executor, sweep_seconds=60)
    reacted = noted(reactor, monkeypatch, seconds=0.05)  # a sweep of the 40 games takes 2 s
    with running(reactor):
        assert wait_for(lambda: len(reacted) >= 5, timeout=10)
        started_game(executor, "new")  # announced on the feed, and last in the index of games in play
        assert wait_for(lambda: "new" in reacted and "old39" in reacted, timeout=10)
    assert reacted.index("new") < reacted.index("old39")


def test_a_cancelled_lobby_whose_announcement_was_lost_is_told_by_the_sweep(executor: Executor) -> None:
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    Webhooks(redis).add(ann.id, "hook", "http://127.0.0.1:9/", "s" * 64)
    executor.store.games.create("lobby", "taki", {}, 2, lobby_seconds=1)
    executor.store.seats.claim("lobby", 0, "ann", "seat-token-ann", player_id=ann.id)
    redis.hset(keys.meta("lobby"), "status", "cancelled")  # the cancel script, its process gone before telling
    notices = Queue(keys.NOTIFY_QUEUE, connection=redis)
    with running(Reactor(executor, sweep_seconds=60)):
        assert wait_for(lambda: notices.count == 1, timeout=10)
    [job] = notices.get_jobs()
    assert (job.args[0], job.args[2]["kind"]) == (ann.id, "game_cancelled")
    assert [game_id for game_id, _ in executor.store.games.indexed("cancelled")] == ["lobby"]


def test_a_reactor_whose_consumer_group_was_lost_joins_the_feed_again(
    executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = executor.store.redis
    reactor = Reactor(executor, sweep_seconds=60)
    reacted = noted(reactor, monkeypatch)
    with running(reactor):
        assert wait_for(lambda: reacting(redis), timeout=10)
        redis.delete(keys.feed(""))  # a store restarted without its last writes: the group with them
        started_game(executor, "lost")  # announced to no group; the sweep would react to it
        assert wait_for(lambda: reacting(redis), timeout=10)
        started_game(executor, "new")
        assert wait_for(lambda: "new" in reacted, timeout=10)


def test_one_game_whose_reaction_fails_holds_up_none_of_the_others_in_its_batch(
    executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    reactor = Reactor(executor, sweep_seconds=60)
    reacted: list[str] = []
    react = reactor.react

    def failing_for_one(game_id: str) -> int:
        reacted.append(game_id)
        if game_id == "bad":
            raise RuntimeError("a bug in one game's reaction")
        return react(game_id)

    monkeypatch.setattr(reactor, "react", failing_for_one)
    executor.store.feed.join(GROUP)
    started_game(executor, "bad")
    started_game(executor, "good")
    reactor._consume(wait=False)
    assert reacted == ["bad", "good"]
    assert executor.store.redis.xpending(keys.feed(""), GROUP)["pending"] == 0  # the batch acknowledged whole


def test_unlisted_games_are_swept_like_any_other(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    games = executor.store.games
    games.create("hidden-full", "taki", {}, 2, unlisted=True)
    for seat in range(2):  # its starter gone before the start
        executor.store.seats.claim("hidden-full", seat, f"p{seat}", f"token-hidden-{seat}")
    games.create("hidden-lobby", "taki", {}, 2, lobby_seconds=1, unlisted=True, reserved={0: "p-ann"})
    games.create("hidden-bots", "taki", {}, 2, unlisted=True)
    for seat in range(2):
        executor.store.seats.claim("hidden-bots", seat, "random bot", None, bot="random")
    executor.start("hidden-bots", SeededRng(3))
    now = clock.now()
    monkeypatch.setattr(clock, "now", lambda: now + 2000)
    reactor = Reactor(executor)
    reactor.sweep()
    assert games.get("hidden-full").status == "active" and games.get("hidden-lobby").status == "cancelled"
    loaded = executor.load("hidden-bots")
    [seat] = loaded.game.status(loaded.state).to_move
    assert reactor.ai_games.fetch_job(f"bot-hidden-bots-{loaded.version}-{seat}") is not None  # its AI's move is due
    assert games.page(None, None, None, 10) == ([], None)


def test_a_new_consumer_group_reads_what_was_announced_before_it_and_a_rejoin_keeps_its_place(
    executor: Executor, monkeypatch: pytest.MonkeyPatch
) -> None:
    redis = executor.store.redis
    month_ago = int(time.time() * 1000) - 31 * 86400 * 1000
    redis.xadd(keys.feed(""), {"game": "forgotten"}, id=f"{month_ago}-0")  # older than any notification is remembered
    started_game(executor, "early")  # announced before any reactor ran
    first = Reactor(executor)
    reacted = noted(first, monkeypatch)
    first._join_feed()
    first._consume(wait=False)
    assert reacted == ["early"]
    started_game(executor, "meanwhile")  # announced while no reactor runs
    second = Reactor(executor)  # a restarted reactor: the group exists and keeps its place
    again = noted(second, monkeypatch)
    second._join_feed()
    second._consume(wait=False)
    second._consume(wait=False)
    assert again == ["meanwhile"]


def test_people_wait_on_no_game_of_ai_seats_alone(executor: Executor, monkeypatch: pytest.MonkeyPatch) -> None:
    """An AI's move where people play or wait (a tournament's table), and a deadline, are taken before
    any move of another game of AI seats alone, enqueued earlier: a worker busy with AIs playing each
    other keeps nobody waiting."""
    ai_alone, _ = new_game(executor, {0: "random", 1: "random"}, seats=2)
    tabled, _ = new_game(executor, {0: "random", 1: "random"}, seats=2)
    Tournaments(executor.store.redis).mark_table(tabled, "cup")
    with_people, _ = new_game(executor, {0: "random", 1: "random"}, seats=3)
    loaded = executor.load(with_people)
    assert loaded.game.status(loaded.state).to_move != (2,)  # an AI's turn
    deadline_game = two_people(executor, TurnDeadline(seconds=1, policy="skip"))
    now = clock.now()
    monkeypatch.setattr(clock, "now", lambda: now)
    reactor = Reactor(executor)
    for game_id in (ai_alone, with_people, tabled, deadline_game):
        reactor.react(game_id)
    assert [job.args[0] for job in reactor.ai_games.get_jobs()] == [ai_alone]
    assert [job.args[0] for job in reactor.queue.get_jobs()] == [with_people, tabled]
    # the deadline, scheduled for its moment, made due now
    for job_id in reactor.deadlines.scheduled_job_registry.get_job_ids():
        reactor.deadlines.enqueue_job(reactor.deadlines.fetch_job(job_id))
    taken = [Queue.dequeue_any([Queue(name, connection=executor.store.redis) for name in keys.WORKER_QUEUES],
                               None, connection=executor.store.redis)[0].args[0] for _ in range(4)]
    assert taken == [deadline_game, with_people, tabled, ai_alone]

