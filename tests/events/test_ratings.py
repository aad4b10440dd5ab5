"""The ratings' storage (fakeredis and a real Redis server alike): each game folded on its own, a
chunk at a time, into the same keys and floats however the results arrive and wherever a fold
stops between chunks, a refold's chunks each bounded, the counters the pages read as stated, the
leaderboard read at the cost of its page, and a rebuild swapped in whole, keeping each result
recorded while it ran: one that lost its lock ends no later one's marker, one whose marker is gone
stops, its lock is kept by time, and the generations a rebuild that died left are deleted."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import redis
from redis.exceptions import LockError

from application.ratings import MU, Ratings
from bench.ratings import stored
from events import keys, rating_rebuild
from events import rating_fold as store
from events import ratings as book
from events.rating_rebuild import Rebuild
from events.ratings import HeadToHead, Result

IDENTITIES = ["ann", "bo", "cy", "di", "ai:greedy", "ai:random"]
LIVE = keys.ratings_root("taki")  # the first generation's keys: the current ones until a rebuild


def _results(count: int, game: str = "taki", seed: int = 7) -> list[Result]:
    """Results of four-seat games among six identities, several ending in the same millisecond."""
    chooser = random.Random(seed)
    results = []
    for number in range(count):
        seated = chooser.sample(IDENTITIES, 4)
        places = ((seated[0],), (seated[1], seated[2]), (seated[3],))
        results.append(Result(f"{game}{number:03d}", game, 1_000 + number // 3, places, {name: name for name in seated}))
    return results


def _rebuilt(ratings: Ratings, game: str, results: list[Result], swept: int) -> int:
    """Rebuild `game`'s ratings from `results` as application.ratings.rebuild does from the stored games; how many count."""
    with Rebuild(ratings, game) as rebuilding:
        for result in results:
            rebuilding.add(result)
        rebuilding.swap(swept)
        return rebuilding.added


def _stored(client: redis.Redis, game: str = "taki") -> dict[str, Any]:  # type: ignore[type-arg]
    return stored(client, [game])


def _arrived(ratings: Ratings, results: list[Result], seed: int) -> None:
    """Record `results` in a shuffled order, folding now and then, so later-ordered ones are folded before earlier ones arrive."""
    chooser = random.Random(seed)
    for result in chooser.sample(results, len(results)):
        assert ratings.record(result)
        if chooser.random() < 0.3:
            ratings.fold(result.game)
    ratings.fold_all()


def test_results_arriving_in_any_order_or_twice_fold_into_the_same_keys_as_a_rebuild(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(30)
    _arrived(ratings, results, 3)
    live = _stored(client)
    assert not ratings.record(results[5]) and ratings.fold("taki") == 0  # a re-run counts nothing twice
    assert _stored(client) == live
    assert _rebuilt(ratings, "taki", results, 0) == len(results)
    assert _stored(client) == live
    ann = ratings.rating("taki", "ann")
    assert ann is not None and ann.mu != MU and ann.games == ratings.history("taki", "ann")[1]


def test_a_fold_in_chunks_ends_as_one_fold_and_one_stopped_between_chunks_resumes_there(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    results = _results(40)
    whole = Ratings(client)
    for result in results:
        whole.record(result)
    assert whole.fold("taki") == 40
    once = _stored(client)
    client.flushall()
    monkeypatch.setattr(store, "CHUNK", 7)
    extended = iter([True, False])  # the fold loses its lock after its second chunk, as a process that died would
    monkeypatch.setattr(store, "extended", lambda lock: next(extended, True))
    chunked = Ratings(client)
    for result in results:
        chunked.record(result)
    assert chunked.fold("taki") == 14
    assert client.zrange(keys.rating_unfolded(LIVE), 0, 0) == [results[14].game_id.encode()]  # where the next fold starts
    assert client.zcard(keys.rating_unfolded(LIVE)) == 26
    assert chunked.fold("taki") == 26 and _stored(client) == once


def test_a_fold_whose_lock_was_lost_writes_nothing_and_lets_go_quietly(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    for result in results:
        ratings.record(result)
    lock = client.lock(keys.rating_lock("taki"), timeout=60)
    assert lock.acquire(blocking=False)
    client.set(keys.rating_lock("taki"), "another folder's token")  # it expired and another took it
    assert ratings._fold(LIVE, lock) == 0 and ratings.rating("taki", "ann") is None
    assert client.zcard(keys.rating_unfolded(LIVE)) == 6
    client.delete(keys.rating_lock("taki"))
    store.let_go(lock)  # expired: nothing to let go of, and no error
    assert ratings.fold("taki") == 6


def test_a_late_result_folds_again_its_own_game_only(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, taki, djambi = Ratings(client), _results(12), _results(12, "djambi")
    for result in taki[1:] + djambi:
        ratings.record(result)
    ratings.fold_all()
    folded: list[str] = []
    real = store.RatingStore._chunk
    monkeypatch.setattr(store.RatingStore, "_chunk",
                        lambda self, root, lock, start: (folded.append(root), real(self, root, lock, start))[1])
    ratings.record(taki[0])
    assert ratings.fold_all() == 12 and folded == [LIVE]


def test_the_counters_say_how_often_each_finished_where_and_against_whom_however_the_results_arrive(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(store, "CHUNK", 2)
    ratings = Ratings(client)
    played = [Result("g1", "taki", 1_000, (("ann",), ("bo",), ("cy",)), {}),
              Result("g2", "taki", 2_000, (("bo", "cy"), ("ann",)), {}),
              Result("g3", "taki", 3_000, (("cy",), ("ann",)), {}),
              Result("g4", "taki", 4_000, (("ann",), ("bo",)), {}),
              Result("g5", "taki", 5_000, (("bo",), ("ann",), ("cy",)), {})]
    for result in (played[4], played[2], played[0]):
        ratings.record(result)
        ratings.fold("taki")
    ratings.record(played[3])
    ratings.record(played[1])  # late, before three folded ones: folded again across chunks
    ratings.fold("taki")
    assert [ratings.places("taki", each) for each in ("ann", "bo", "cy")] == [[2, 3], [2, 2], [2, 0, 2]]
    assert ratings.versus("taki", "ann", "bo") == HeadToHead("bo", 2, 2, 0)
    assert ratings.versus("taki", "ann", "cy") == HeadToHead("cy", 2, 2, 0)
    assert ratings.versus("taki", "bo", "cy") == HeadToHead("cy", 2, 0, 1)
    assert ratings.versus("taki", "cy", "bo") == HeadToHead("bo", 0, 2, 1)
    assert ratings.opponents("taki", "ann", 0, 10) == (2, [HeadToHead("bo", 2, 2, 0), HeadToHead("cy", 2, 2, 0)])
    assert ratings.opponents("taki", "cy", 0, 10) == (2, [HeadToHead("ann", 2, 2, 0), HeadToHead("bo", 0, 2, 1)])


def test_a_leaderboard_counts_only_the_recently_active_and_pages_them_best_first_however_it_reads_them(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(book, "WALK", 3)
    ratings = Ratings(client, provisional_sigma=100)  # every rating established
    for number in range(30):
        first, second = f"p{number % 10:02d}", f"p{(number + 1) % 10:02d}"
        ratings.record(Result(f"g{number:02d}", "taki", 1_000 * (number + 1), ((first,), (second,)), {}))
    ratings.fold("taki")
    everyone = ratings.board("taki", False, 0, 0, 100)[1]
    values = [rating.value for _, rating in everyone]
    assert len(everyone) == 10 and values == sorted(values, reverse=True)
    assert ratings.board("taki", True, 0, 0, 100) == (0, [])
    read: Counter[str] = Counter()
    for way in ("_sorted", "_walked"):
        real = getattr(book.RatingBook, way)
        monkeypatch.setattr(book.RatingBook, way, lambda self, *args, real=real, way=way: (read.update([way]), real(self, *args))[1])
    for since in range(20_000, 31_000, 1_000):  # from everyone active to one
        active = [each for each in everyone if each[1].last >= since]
        for after, limit in ((0, 1), (0, 2), (1, 2), (3, 4), (0, 100), (len(active), 5), (999, 5)):
            assert ratings.board("taki", False, since, after, limit) == (len(active), active[after:after + limit])
    assert read["_sorted"] and read["_walked"]  # each way was taken, and gave the same pages


def test_a_leaderboard_page_past_its_end_or_of_everyone_reads_no_more_than_its_page(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client, provisional_sigma=100)
    for number in range(300):
        ratings.record(Result(f"g{number:03d}", "taki", 1_000 + number, ((f"p{number:03d}",), (f"q{number:03d}",)), {}))
    ratings.fold("taki")
    walked: list[int] = []
    real = book.RatingBook._walked
    monkeypatch.setattr(book.RatingBook, "_walked", lambda self, *args: (walked.append(1), real(self, *args))[1])
    assert ratings.board("taki", False, 1_290, 10_000, 10) == (20, [])  # ten games' twenty players, none past 10,000
    assert len(ratings.board("taki", False, 0, 550, 100)[1]) == 50  # everyone active: a range of the board
    assert not walked


def test_an_identity_moves_from_the_provisional_board_to_the_established_as_it_plays(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    for number in range(30):
        ratings.record(Result(f"g{number:02d}", "taki", 1_000 + number, (("ann",), ("bo",)), {}))
        ratings.fold("taki")
        provisional, established = ratings.board("taki", True, 0, 0, 10)[0], ratings.board("taki", False, 0, 0, 10)[0]
        assert provisional + established == 2
    assert ratings.board("taki", False, 0, 0, 10)[0] == 2 and not client.zcard(keys.rating_board(LIVE, True))


def test_a_history_read_latest_first_gives_its_last_entries_in_order_and_its_total(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    _rebuilt(ratings, "taki", _results(12), 0)
    whole, total = ratings.history("taki", "ann")
    assert ratings.history("taki", "ann", latest=2) == (whole[-2:], total) and total == len(whole) > 2


def test_a_rebuild_is_swapped_in_at_once_and_marks_its_sweep(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(20)
    _arrived(ratings, results[:10], 5)
    old = _stored(client)
    ratings.record(Result("stray", "taki", 5_000, (("ann",), ("bo",)), {}))  # recorded before the rebuild, of a game it does not read
    seen: list[dict[str, Any]] = []
    real = Rebuild._swapped

    def swapped(self: Rebuild, swept: int) -> None:  # each generation's keys named from its root
        seen.append(_stored(client))  # a reader before the swap sees the old ratings whole
        real(self, swept)
        seen.append(_stored(client))

    monkeypatch.setattr(Rebuild, "_swapped", swapped)
    assert _rebuilt(ratings, "taki", results, 12_345) == 20
    rebuilt = seen[1]
    assert client.get(keys.rating_swept("taki")) == b"12345" and rating_rebuild.generations(client, "taki") == {ratings.generation("taki")}
    assert rating_rebuild.forget(client, "taki", "") == 0  # the first generation's keys are gone
    assert {key: value for key, value in seen[0].items() if key not in ("taki:order", "taki:results")} \
        == {key: value for key, value in old.items() if key not in ("taki:order", "taki:results")}
    client.flushall()
    _arrived(Ratings(client), results, 6)
    assert rebuilt == _stored(client)  # the stray result is gone, for the next sweep to find again


def test_a_rebuild_leaves_the_sweep_its_start_and_other_games_alone(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    _arrived(ratings, _results(6, "djambi"), 1)
    djambi = _stored(client, "djambi")
    _rebuilt(ratings, "taki", _results(6), 12_345)
    assert client.get(keys.rating_swept("taki")) == b"12345" and _stored(client, "djambi") == djambi
    assert ratings.marks()["djambi"] is None  # djambi's games were never swept
    ratings.mark_swept(99, ratings.marks())
    assert set(ratings.marks().values()) == {99}


def _random_results(count: int, chooser: random.Random) -> list[Result]:
    """Results of two- to four-seat games, some with two sharing first place, many ending in the same millisecond."""
    results = []
    for number in range(count):
        seated = chooser.sample(IDENTITIES, chooser.choice([2, 3, 4]))
        places = tuple((each,) for each in seated)
        if len(seated) >= 3 and chooser.random() < 0.3:
            places = ((seated[0], seated[1]), *places[2:])
        results.append(Result(f"g{chooser.randrange(10**6):06d}x{number}", "taki", 1_000 + chooser.randrange(count // 2 + 1),
                              places, {each: each for each in seated}))
    return results


def test_results_arriving_shuffled_folded_in_chunks_stopped_anywhere_end_as_one_whole_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    import fakeredis

    for seed in range(15):
        chooser = random.Random(seed)
        results = _random_results(40, chooser)
        whole = Ratings(fakeredis.FakeRedis())
        for result in results:
            whole.record(result)
        whole.fold("taki")
        monkeypatch.setattr(store, "CHUNK", chooser.choice([1, 2, 3, 5, 7]))
        monkeypatch.setattr(store, "extended", lambda lock, chooser=chooser: chooser.random() > 0.4)  # a fold lost its lock
        client = fakeredis.FakeRedis()
        chunked = Ratings(client)
        for result in chooser.sample(results, len(results)):
            chunked.record(result)
            if chooser.random() < 0.3:
                chunked.fold("taki")
        while chunked.fold("taki"):
            pass
        monkeypatch.undo()
        assert _stored(client) == _stored(whole.redis) and not client.zcard(keys.rating_unfolded(LIVE)), seed
        for identity in IDENTITIES:
            entries = chunked.history("taki", identity)[0]
            assert sum(chunked.places("taki", identity)) == len(entries) == len({entry.game_id for entry in entries}), seed
            games = {entry.game_id for entry in entries}
            for met in chunked.opponents("taki", identity, 0, 10)[1]:
                theirs = chunked.versus("taki", met.other, identity)
                assert theirs == HeadToHead(identity, met.behind, met.ahead, met.tied), seed
                assert met.played == len(games & {entry.game_id for entry in chunked.history("taki", met.other)[0]}), seed


def test_a_refold_takes_back_no_more_of_a_history_in_a_chunk_than_the_chunk_spans(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(60)
    for result in results[1:]:
        ratings.record(result)
    ratings.fold("taki")
    monkeypatch.setattr(store, "CHUNK", 3)
    taken: list[int] = []
    real = store.RatingStore._plan
    monkeypatch.setattr(store.RatingStore, "_plan", lambda self, *args: (plan := real(self, *args),
                                                                          taken.append(max(map(len, plan.later.values()), default=0)))[0])
    ratings.record(results[0])  # first in the fold's order: every game is folded again
    assert ratings.fold("taki") == 60
    assert len(taken) == 20 and max(taken) <= 3  # each chunk took back its own three games' entries at most
    client.flushall()
    for result in results:
        ratings.record(result)
    monkeypatch.undo()
    ratings.fold("taki")
    assert ratings.history("taki", "ai:greedy")[1] == sum("ai:greedy" in result.identities() for result in results)


def test_a_fold_goes_past_an_unfolded_result_the_order_lacks(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(9)
    for result in results[1:]:
        ratings.record(result)
    ratings.fold("taki")
    client.zadd(keys.rating_unfolded(LIVE), {"lost": 1})  # as a swap that raced a record once left a store
    ratings.record(results[0])
    assert ratings.fold("taki") == 9 and not client.zcard(keys.rating_unfolded(LIVE))


def test_a_rebuild_that_cannot_take_its_lock_raises_and_a_lock_never_taken_writes_nothing(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(store, "LOCK_SECONDS", 0.2)
    ratings = Ratings(client)
    client.set(keys.rating_lock("taki"), "a fold's token", px=5_000)
    with pytest.raises(LockError, match="held the taki ratings' lock"):
        _rebuilt(ratings, "taki", _results(3), 0)
    assert ratings.rating("taki", "ann") is None and not client.exists(keys.rating_rebuilding("taki"))
    client.delete(keys.rating_lock("taki"))
    assert store.watching(client, client.lock(keys.rating_lock("taki"))) is None  # a free lock is not a lock taken


def test_a_result_recorded_while_a_rebuild_runs_is_in_the_generation_it_swaps_in(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results, swapped = Ratings(client), _results(12), []
    with Rebuild(ratings, "taki") as rebuilding:
        for result in results[:6]:
            rebuilding.add(result)
        ratings.record(results[6])  # a keeper's, while the rebuild reads the stored games
        script = ratings._record

        def raced(keys: list[str], args: list[Any]) -> Any:
            if args[0] == results[7].game_id and not swapped:
                swapped.append(rebuilding.swap(12_345))  # between the record's read of the generations and its script
            if args[0] == results[8].game_id and len(swapped) == 1:
                swapped.append(_rebuilt(ratings, "taki", results[:8], 12_345))  # a whole rebuild there
            return script(keys=keys, args=args)

        monkeypatch.setattr(ratings, "_record", raced)
        assert ratings.record(results[7])
    assert ratings.record(results[8]) and swapped == [None, 8]
    assert all(ratings.is_recorded("taki", result.game_id) for result in results[:9])
    assert ratings.fold("taki") == 1 and not client.zcard(keys.rating_unfolded(ratings.root("taki")))
    rebuilt = _stored(client)
    client.flushall()
    _arrived(Ratings(client), results[:9], 2)
    assert rebuilt == _stored(client)


def test_a_rebuild_that_lost_its_lock_leaves_the_next_rebuilds_marker(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    stalled = Rebuild(ratings, "taki")
    client.delete(keys.rating_lock("taki"))  # its lock expired while it stalled
    with Rebuild(ratings, "taki") as rebuilding:
        stalled.close()  # it fails and ends: the next rebuild's marker is not its to end
        assert client.get(keys.rating_rebuilding("taki")) == rebuilding.generation.encode()
        assert ratings.record(results[5])  # a keeper's, while the next rebuild runs
        for result in results[:5]:
            rebuilding.add(result)
        rebuilding.swap(0)
    assert ratings.is_recorded("taki", results[5].game_id) and ratings.history("taki", "ann")[1] == sum(
        "ann" in result.identities() for result in results)


def test_a_rebuild_ended_while_its_lock_is_its_own_ends_its_marker(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    with Rebuild(ratings, "taki") as rebuilding:
        rebuilding.add(_results(1)[0])
    assert not client.exists(keys.rating_rebuilding("taki"), keys.rating_lock("taki"))


def test_a_rebuild_whose_marker_is_gone_stops_as_one_that_lost_its_lock(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(store, "LOCK_SECONDS", 3)
    ratings, now = Ratings(client), [0.0]
    monkeypatch.setattr(rating_rebuild.time, "monotonic", lambda: now[0])
    with Rebuild(ratings, "taki") as rebuilding:
        client.delete(keys.rating_rebuilding("taki"))  # keepers now record into the current generation alone
        now[0] = 1.0  # a third of the lock's time on: the rebuild keeps its lock and marker
        with pytest.raises(LockError, match="lost its lock or its marker"):
            rebuilding.add(_results(1)[0])
        with pytest.raises(LockError, match="before its swap"):
            rebuilding.swap(0)
    assert ratings.generation("taki") == ""


def test_a_rebuild_keeps_its_lock_by_time_while_it_reads(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(store, "LOCK_SECONDS", 3)
    ratings, now = Ratings(client), [0.0]
    monkeypatch.setattr(rating_rebuild.time, "monotonic", lambda: now[0])
    with Rebuild(ratings, "taki") as rebuilding:
        client.pexpire(keys.rating_lock("taki"), 10)
        client.pexpire(keys.rating_rebuilding("taki"), 10)  # as if most of their time had passed
        rebuilding.keep_in_time()  # less than a third of their time since the last: left as they are
        assert client.pttl(keys.rating_lock("taki")) <= 10
        now[0] = 1.0
        rebuilding.keep_in_time()
        assert client.pttl(keys.rating_lock("taki")) > 2_000 and client.pttl(keys.rating_rebuilding("taki")) > 2_000


def test_a_rebuild_deletes_what_one_that_died_after_its_swap_left_of_the_first_generation(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    _arrived(ratings, results, 1)
    live = _stored(client)

    def died(*_: object) -> int:
        raise KeyboardInterrupt  # the process killed between its swap and its delete

    monkeypatch.setattr(rating_rebuild, "forget", died)
    with pytest.raises(KeyboardInterrupt):
        _rebuilt(ratings, "taki", results, 0)
    monkeypatch.undo()
    assert client.exists(keys.rating_now(LIVE)) and ratings.generation("taki") != ""
    _rebuilt(ratings, "taki", results, 0)
    assert not client.exists(keys.rating_now(LIVE)) and rating_rebuild.forget(client, "taki", "") == 0
    assert rating_rebuild.generations(client, "taki") == {ratings.generation("taki")} and _stored(client) == live


def test_a_generation_is_deleted_as_it_is_scanned_keeping_the_lock(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(30)
    _arrived(ratings, results, 4)
    monkeypatch.setattr(rating_rebuild, "UNLINK", 5)
    client.set(keys.rating_swept("taki"), 1)
    many = len(list(client.scan_iter(match=f"{LIVE}:*"))) - len([key for key in keys.rating_game_keys("taki") if client.exists(key)])
    held: list[int] = []
    assert rating_rebuild.forget(client, "taki", "", lambda: held.append(1)) == many and len(held) == many // 5
    assert not client.exists(keys.rating_now(LIVE)) and client.get(keys.rating_swept("taki")) == b"1"  # the game's own keys kept
    assert ratings.rating("taki", "ann") is None
