"""A game's stream tells its clocks when they change with no event: a seat's player going on vacation
and coming back, each reader seeing them as the game's view shows them, but not a vacation's end moved;
a weekend that stops a running clock is given beside it (`stops_at`). A chat message does not make a
stream read the clocks again, nor a heartbeat a delayed spectator's, already read at the version they see."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
import redis

from application import timelines
from service.app import create_app
from service.schemas import responses
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_clocks_api import DAY, HOUR, T0, Moments, fischer_days, moments, move, two_players  # noqa: F401
from tests.service.test_games_api import bearer
from tests.service.test_players_api import register
from tests.sse import messages, until


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
    told = clock_messages(until(90, opened.response))  # a heartbeat of a minute at most between two looks
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


def test_a_vacations_end_moved_tells_the_opponent_nothing() -> None:
    api = heartbeats_of_50_ms()
    game_id, (ann, bo) = two_players(api, fischer_days(3, 1, 5))
    back = int(time.time() * 1000) + 4 * DAY
    assert api.put("/v1/players/me/vacation", json={"until": back}, headers=bearer(ann)).status_code == 200
    version = api.get(f"/v1/games/{game_id}").json["version"]
    opened = api.client.get(f"/v1/games/{game_id}/stream?after={version}", headers=bearer(bo), buffered=False)
    lines = (line for part in until(20, opened.response) for line in part.decode().split("\n"))
    told = (message for message in messages(lines) if message.event == "clock")
    assert next(told).data["clocks"][0]["paused"] == "vacation"  # as the stream opens
    assert api.put("/v1/players/me/vacation", json={"until": back + DAY}, headers=bearer(ann)).status_code == 200
    assert api.delete("/v1/players/me/vacation", headers=bearer(ann)).status_code == 204
    assert next(told).data["clocks"][0]["running"]  # the next one tells her back, none her new end
    opened.close()


@pytest.mark.redis
def test_a_chat_message_makes_no_stream_read_the_clocks_again(
        client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    if "Fake" in type(client).__name__:
        pytest.skip("a wake is a blocking read's, on a real Redis")
    api = ContractClient(create_app(unlimited(stream_heartbeat_ms=60_000), client=client).test_client())
    game_id, (ann, bo) = two_players(api, fischer_days(3, 1, 5))
    version = api.get(f"/v1/games/{game_id}").json["version"]
    reads = counted(monkeypatch, responses, "game_clocks")
    opened = api.client.get(f"/v1/games/{game_id}/stream?after={version}", headers=bearer(bo), buffered=False)
    lines = (line for part in until(20, opened.response) for line in part.decode().split("\n"))
    heard = (message.event for message in messages(lines))
    assert next(heard) == "clock" and reads == [1]
    for text in ("hi", "how are you", "your move"):
        assert api.post(f"/v1/games/{game_id}/chat/table", json={"text": text}, headers=bearer(ann)).status_code == 201
        assert next(heard) == "chat"
    assert reads == [1]
    opened.close()


def test_a_delayed_spectators_clocks_are_read_once_for_the_version_they_see(monkeypatch: pytest.MonkeyPatch) -> None:
    api = heartbeats_of_50_ms()
    tokens = [register(api, name)["token"] for name in ("ann", "bo")]
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2, "turn_deadline": fischer_days(3, 1, 5),
                                          "spectator_delay": 1}).json["id"]
    for token in tokens:
        assert api.post(f"/v1/games/{game_id}/join", json={"name": "x"}, headers=bearer(token)).status_code == 201
    for _ in range(2):
        move(api, game_id, tokens)
    folds = counted(monkeypatch, timelines, "moves_of")
    opened = api.client.get(f"/v1/games/{game_id}/stream", buffered=False)  # a spectator, a move late
    beats = [part for part, _ in zip(until(20, opened.response), range(40), strict=False)]
    opened.close()
    assert sum(part.startswith(b": still here") for part in beats) > 10 and folds == [1]


def heartbeats_of_50_ms() -> ContractClient:
    """A client of an app on fakeredis whose streams beat every 50 ms."""
    return ContractClient(create_app(unlimited(stream_heartbeat_ms=50), client=fakeredis.FakeRedis()).test_client())


def counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """How often `module.name` is called from now on, in a list of one number."""
    calls, original = [0], getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counting)
    return calls
