"""The ratings' storage (fakeredis and a real Redis server alike): each game folded on its own, a
chunk at a time, into the same keys and floats however the results arrive, a fold stopped between
chunks resuming to the same end, the counters the pages read equal to those counted from the
histories, the leaderboard walked from its top, and a rebuild swapped in whole."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import redis

from application.ratings import MU, Ratings
from events import keys
from events import ratings as store
from events.ratings import Keys, Record, Result

IDENTITIES = ["ann", "bo", "cy", "di", "ai:greedy", "ai:random"]


def _results(count: int, game: str = "taki", seed: int = 7) -> list[Result]:
    """Results of four-seat games among six identities, several ending in the same millisecond."""
    chooser = random.Random(seed)
    results = []
    for number in range(count):
        seated = chooser.sample(IDENTITIES, 4)
        places = ((seated[0],), (seated[1], seated[2]), (seated[3],))
        results.append(Result(f"{game}{number:03d}", game, 1_000 + number // 3, places, {name: name for name in seated}))
    return results


def _stored(client: redis.Redis, game: str = "taki") -> dict[bytes, Any]:  # type: ignore[type-arg]
    """Every key of the game's ratings and its content, but the fold's own work (its lock, the sweep's mark, what is unfolded)."""
    work = {keys.rating_lock(game).encode(), keys.rating_swept(game).encode(), Keys(game).unfolded.encode()}
    found: dict[bytes, Any] = {}
    for key in sorted(client.scan_iter(match=f"{keys.ratings_root(game)}:*")):
        if key not in work and not key.startswith(f"{Keys(game, fresh=True).root}:".encode()):
            found[key] = client.hgetall(key) if client.type(key) == b"hash" else client.zrange(key, 0, -1, withscores=True)
    return found


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
    assert ratings.rebuild("taki", results, 0) == len(results)
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
    monkeypatch.setattr(store, "_extended", lambda lock: next(extended, True))
    chunked = Ratings(client)
    for result in results:
        chunked.record(result)
    assert chunked.fold("taki") == 14
    assert client.zrange(Keys("taki").unfolded, 0, 0) == [results[14].game_id.encode()]  # where the next fold starts
    assert client.zcard(Keys("taki").unfolded) == 26
    assert chunked.fold("taki") == 26 and _stored(client) == once


def test_a_fold_whose_lock_was_lost_writes_nothing_and_lets_go_quietly(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(6)
    for result in results:
        ratings.record(result)
    lock = client.lock(keys.rating_lock("taki"), timeout=60)
    assert lock.acquire(blocking=False)
    client.set(keys.rating_lock("taki"), "another folder's token")  # it expired and another took it
    assert ratings._fold(Keys("taki"), lock) == 0 and ratings.rating("taki", "ann") is None
    assert client.zcard(Keys("taki").unfolded) == 6
    client.delete(keys.rating_lock("taki"))
    store._release(lock)  # expired: nothing to let go of, and no error
    assert ratings.fold("taki") == 6


def test_a_late_result_folds_again_its_own_game_only(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, taki, djambi = Ratings(client), _results(12), _results(12, "djambi")
    for result in taki[1:] + djambi:
        ratings.record(result)
    ratings.fold_all()
    folded: list[str] = []
    real = store.RatingStore._chunk
    monkeypatch.setattr(store.RatingStore, "_chunk", lambda self, at, lock, start: (folded.append(at.game), real(self, at, lock, start))[1])
    ratings.record(taki[0])
    assert ratings.fold_all() == 12 and folded == ["taki"]


def _counted(ratings: Ratings, game: str) -> tuple[dict[str, list[int]], dict[str, dict[str, Record]]]:
    """Each identity's places and records against each other, counted from its whole history."""
    places: dict[str, list[int]] = {}
    records: dict[str, dict[str, Record]] = {}
    for identity in IDENTITIES:
        entries = ratings.history(game, identity)[0]
        counted = Counter(entry.place for entry in entries)
        places[identity] = [counted[place] for place in range(1, max(counted, default=0) + 1)]
        tally: dict[str, list[int]] = {}
        for result in ratings.results(game, [entry.game_id for entry in entries]):
            for other in result.identities():
                if other != identity:
                    mine, theirs = result.place_of(identity), result.place_of(other)
                    counts = tally.setdefault(other, [0, 0, 0])
                    counts[0], counts[1], counts[2] = counts[0] + (mine < theirs), counts[1] + (mine > theirs), counts[2] + (mine == theirs)
        records[identity] = {other: Record(other, *counts) for other, counts in tally.items()}
    return places, records


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_counters_equal_those_counted_from_the_histories_whatever_the_order_of_arrival(seed: int) -> None:
    import fakeredis

    ratings, results = Ratings(fakeredis.FakeRedis()), _results(45, seed=seed)
    _arrived(ratings, results, seed)
    places, records = _counted(ratings, "taki")
    for identity in IDENTITIES:
        assert ratings.places("taki", identity) == places[identity]
        total, met = ratings.opponents("taki", identity, 0, 100)
        assert total == len(records[identity]) and {record.other: record for record in met} == records[identity]
        assert [record.played for record in met] == sorted((record.played for record in met), reverse=True)
        assert all(ratings.versus("taki", identity, other) == record for other, record in records[identity].items())


def test_a_leaderboard_is_walked_from_its_top_and_counts_only_the_recently_active(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    monkeypatch.setattr(store, "WALK", 3)
    ratings = Ratings(client, provisional_sigma=100)  # every rating established
    for number in range(30):
        first, second = f"p{number % 10:02d}", f"p{(number + 1) % 10:02d}"
        ratings.record(Result(f"g{number:02d}", "taki", 1_000 * (number + 1), ((first,), (second,)), {}))
    ratings.fold("taki")
    everyone = ratings.board("taki", False, 0, 0, 100)[1]
    values = [rating.value for _, rating in everyone]
    assert len(everyone) == 10 and values == sorted(values, reverse=True)
    assert ratings.board("taki", True, 0, 0, 100) == (0, [])
    since = 27_000  # p06 to p09 and p00 played their last game since
    total, page = ratings.board("taki", False, since, 1, 2)
    active = [identity for identity, rating in everyone if rating.last >= since]
    assert total == len(active) == 5 and [identity for identity, _ in page] == active[1:3]
    assert ratings.board("taki", False, since, 4, 10)[1] == [each for each in everyone if each[0] == active[4]]


def test_an_identity_moves_from_the_provisional_board_to_the_established_as_it_plays(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    for number in range(30):
        ratings.record(Result(f"g{number:02d}", "taki", 1_000 + number, (("ann",), ("bo",)), {}))
        ratings.fold("taki")
        provisional, established = ratings.board("taki", True, 0, 0, 10)[0], ratings.board("taki", False, 0, 0, 10)[0]
        assert provisional + established == 2
    assert ratings.board("taki", False, 0, 0, 10)[0] == 2 and not client.zcard(Keys("taki").board(True))


def test_a_history_read_latest_first_gives_its_last_entries_in_order_and_its_total(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    ratings.rebuild("taki", _results(12), 0)
    whole, total = ratings.history("taki", "ann")
    assert ratings.history("taki", "ann", latest=2) == (whole[-2:], total) and total == len(whole) > 2


def test_a_rebuild_is_swapped_in_at_once_and_marks_its_sweep(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    ratings, results = Ratings(client), _results(20)
    _arrived(ratings, results[:10], 5)
    old = _stored(client)
    ratings.record(Result("stray", "taki", 5_000, (("ann",), ("bo",)), {}))  # recorded by a keeper while the rebuild reads
    seen: list[dict[bytes, Any]] = []
    real = store.RatingStore._swap

    def swapped(self: store.RatingStore, fresh: Keys, lock: Any, swept: int) -> None:
        seen.append(_stored(client))  # a reader before the swap sees the old ratings whole
        real(self, fresh, lock, swept)
        seen.append(_stored(client))

    monkeypatch.setattr(store.RatingStore, "_swap", swapped)
    assert ratings.rebuild("taki", results, 12_345) == 20
    rebuilt = seen[1]
    assert client.get(keys.rating_swept("taki")) == b"12345" and not client.keys(f"{Keys('taki', fresh=True).root}:*")
    assert {key: value for key, value in seen[0].items() if not key.endswith(b":order") and not key.endswith(b":results")} \
        == {key: value for key, value in old.items() if not key.endswith(b":order") and not key.endswith(b":results")}
    client.flushall()
    _arrived(Ratings(client), results, 6)
    assert rebuilt == _stored(client)  # the stray result is gone, for the next sweep to find again


def test_a_rebuild_leaves_the_sweep_its_start_and_other_games_alone(client: redis.Redis) -> None:  # type: ignore[type-arg]
    ratings = Ratings(client)
    _arrived(ratings, _results(6, "djambi"), 1)
    djambi = _stored(client, "djambi")
    ratings.rebuild("taki", _results(6), 12_345)
    assert client.get(keys.rating_swept("taki")) == b"12345" and _stored(client, "djambi") == djambi
    assert ratings.swept() == 0  # djambi's games were never swept
    ratings.mark_swept(99)
    assert ratings.swept() == 99
