"""A game's stream tells its clocks when they change with no event: a seat's player going on vacation
and coming back, each reader seeing them as the game's view shows them; a weekend that stops a
running clock is given beside it (`stops_at`)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_clocks_api import DAY, HOUR, T0, Moments, fischer_days, moments, two_players  # noqa: F401
from tests.service.test_games_api import bearer


def clock_messages(lines: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    """The data of each `clock` message of a stream, as it comes."""
    chunk = ""
    for part in lines:
        chunk += part.decode()
        while "\n\n" in chunk:
            message, chunk = chunk.split("\n\n", 1)
            if message.startswith("event: clock\n"):
                yield json.loads(message.split("data: ", 1)[1])


@pytest.mark.parametrize("heartbeat_ms", [50, pytest.param(60_000, marks=pytest.mark.redis)])
def test_a_table_hears_a_vacation_begin_and_end_without_telling_when_it_ends(
        client: redis.Redis, heartbeat_ms: int) -> None:  # type: ignore[type-arg]
    if heartbeat_ms > 1000 and "Fake" in type(client).__name__:
        pytest.skip("a wake is a blocking read's, on a real Redis")
    app = create_app(unlimited(stream_heartbeat_ms=heartbeat_ms), client=client)
    api, streams = ContractClient(app.test_client()), app.test_client()
    game_id, (ann, bo) = two_players(api, fischer_days(3, 1, 5))
    version = api.get(f"/v1/games/{game_id}").json["version"]
    opened = streams.get(f"/v1/games/{game_id}/stream?after={version}", headers=bearer(bo), buffered=False)
    told = clock_messages(iter(opened.response))
    first = next(told)  # as the stream opens
    assert first["version"] == version and first["clocks"][0]["running"] and first["clocks"][0]["runs_out"] is not None
    back = int(time.time() * 1000) + 4 * DAY
    asked = time.monotonic()
    assert api.put("/v1/players/me/vacation", json={"until": back}, headers=bearer(ann)).status_code == 200
    away = next(told)
    assert time.monotonic() - asked < 5  # woken, not a heartbeat later
    assert away["clocks"][0]["paused"] == "vacation" and away["clocks"][0]["runs_out"] is None
    assert away["deadlines"] == [{"seat": 0, "at": None, "policy": "skip"}] and str(back) not in json.dumps(away)
    view = api.get(f"/v1/games/{game_id}", headers=bearer(bo)).json
    assert away["deadlines"] == view["deadlines"] and [c["runs_out"] for c in away["clocks"]] == [c["runs_out"] for c in view["clocks"]]
    assert api.delete("/v1/players/me/vacation", headers=bearer(ann)).status_code == 204
    again = next(told)
    assert again["clocks"][0]["running"] and again["clocks"][0]["runs_out"] is not None
    opened.close()


def test_a_running_clock_says_when_its_weekend_stops_it(api: ContractClient, moments: Moments) -> None:  # noqa: F811
    game_id, _ = two_players(api, fischer_days(3, 1, 5, weekends=True))  # from Wednesday 09:00, UTC
    saturday = T0 + 2 * DAY + 15 * HOUR
    seen = api.get(f"/v1/games/{game_id}").json["clocks"]
    assert seen[0]["stops_at"] == saturday and seen[0]["runs_out"] == T0 + 5 * DAY and seen[1]["stops_at"] is None
