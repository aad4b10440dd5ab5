"""The reports as stored: a reporter's cap on open reports holds however many file at once, and a
decided report is kept for a time, then leaves storage; on fakeredis and a real server."""

from __future__ import annotations

import threading

import pytest
import redis

from events import keys
from players.errors import TooManyOpen
from players.moderation import Filer, Report, Reported, Reports

DAY_MS = 86_400_000


def reported(number: int) -> Reported:
    return Reported("game", f"{number}-0", "bo", "bo", "rude", game_id=f"g{number}", room="table")


def ann(per_reporter: int, address: str = "here", per_address: int = 100) -> Filer:
    """ann filing from `address`, holding at most `per_reporter` open reports, the address `per_address`."""
    return Filer("ann", address, per_reporter, per_address)


def filed(reports: Reports, number: int, filer: Filer) -> bool:
    """Whether a report of the message `number` by `filer` is taken (not refused for too many open)."""
    try:
        reports.add(reported(number), "rude", filer, 1000)
    except TooManyOpen:
        return False
    return True


@pytest.mark.redis
def test_a_reporters_open_reports_stay_within_the_cap_when_many_file_at_once(real_redis: redis.Redis) -> None:  # type: ignore[type-arg]
    taken: list[bool] = []
    start = threading.Barrier(40)

    def file(number: int) -> None:
        reports = Reports(redis.Redis(connection_pool=real_redis.connection_pool), kept_days=90)
        start.wait()
        taken.append(filed(reports, number, ann(5)))

    threads = [threading.Thread(target=file, args=(number,)) for number in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert taken.count(True) == 5
    assert real_redis.scard(keys.reports_by("ann")) == real_redis.zcard(keys.reports("open")) == 5
    assert real_redis.scard(keys.reports_from("here")) == 5


def test_reporting_the_same_message_again_takes_no_more_room(client: redis.Redis) -> None:  # type: ignore[type-arg]
    reports = Reports(client, kept_days=90)
    first = reports.add(reported(1), "rude", ann(1), 1000)
    again = reports.add(reported(1), "very rude", ann(1), 2000)
    assert first is not None and again is not None and again.id == first.id and again.reason == "very rude"
    assert not filed(reports, 2, ann(1))


def test_an_address_holds_a_bounded_number_of_open_reports_whoever_files_them(client: redis.Redis) -> None:  # type: ignore[type-arg]
    reports = Reports(client, kept_days=90)
    guests = [Filer(f"g{number}:1", "here", 5, 2) for number in range(3)]  # guests of three games, one address
    first, _ = (reports.add(reported(number), "rude", guest, 1000) for number, guest in enumerate(guests[:2]))
    with pytest.raises(TooManyOpen) as refused:
        reports.add(reported(2), "rude", guests[2], 1000)
    assert (refused.value.whose, refused.value.limit) == ("address", 2)
    assert not client.exists(keys.reports_by("g2:1"))  # counted in neither
    assert filed(reports, 2, Filer("g2:1", "elsewhere", 5, 2))
    reports.close(first, "dismissed", 2000)
    assert filed(reports, 3, guests[2])  # a decided one makes room


def test_a_decided_report_is_kept_for_the_days_set_then_leaves_storage(client: redis.Redis) -> None:  # type: ignore[type-arg]
    reports = Reports(client, kept_days=90)
    old, other, new = (reports.add(reported(number), "rude", ann(5), 1000) for number in range(3))
    assert old is not None and other is not None and new is not None
    reports.close(old, "dismissed", 1000)
    assert 0 < client.pttl(keys.report(old.id)) <= 90 * DAY_MS
    assert client.pttl(keys.report(other.id)) == -1  # an open report waits for the admin however long
    reports.close(new, "hidden", 1000 + 91 * DAY_MS)
    assert [report.id for report in reports.listed("closed")[0]] == [new.id]  # the older one left the list
    assert client.scard(keys.reports_by("ann")) == 1 and not client.exists(keys.reported(reported(2).ref))
    client.delete(keys.report(new.id))  # as its expiry will
    again = reports.add(reported(2), "still rude", ann(5), 2000 + 91 * DAY_MS)
    assert again is not None and again.status == "open"  # a report gone from storage may be filed anew


def test_a_report_decided_while_it_is_filed_again_stays_decided(client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    reports = Reports(client, kept_days=90)
    first = reports.add(reported(1), "rude", ann(5), 1000)
    assert first is not None
    seen = reports.get

    def decided_meanwhile(report_id: str) -> Report | None:
        found = seen(report_id)  # the filing sees the report open, and the admin dismisses it at once
        reports.close(first, "dismissed", 1500)
        return found

    monkeypatch.setattr(reports, "get", decided_meanwhile)
    again = reports.add(reported(1), "very rude", ann(5), 2000)
    assert again is not None and (again.status, again.reason) == ("dismissed", "rude")
    assert 0 < client.pttl(keys.report(first.id)) <= 90 * DAY_MS
    assert not client.zscore(keys.reports("open"), first.id) and not client.sismember(keys.reports_by("ann"), first.id)
    assert not client.sismember(keys.reported(reported(1).ref), first.id)
