"""What operators rely on: rate limits with Retry-After, request ids, one log line a request,
and the figures on /metrics."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import fakeredis
import pytest
from prometheus_client.parser import text_string_to_metric_families

from runtime.config import Config, Rate
from service.app import create_app
from tests.contract import ContractClient
from workers.queues import deadline_queue


def limited(per_token: Rate | None, per_address: Rate | None, proxies: int = 0) -> ContractClient:
    config = Config(rate_per_token=per_token, rate_per_address=per_address, trusted_proxies=proxies)
    return ContractClient(create_app(config, client=fakeredis.FakeRedis()).test_client())


def test_rates_parse_from_the_environment_form() -> None:
    assert Rate.parse("600/60") == Rate(600, 60)
    assert Rate.parse(" off ") is None
    for text in ("600", "0/60", "10/0", "ten/60", "-1/60"):
        with pytest.raises(ValueError, match="requests/seconds"):
            Rate.parse(text)


def test_an_address_over_its_rate_is_told_when_to_come_back() -> None:
    api = limited(None, Rate(3, 60))
    for _ in range(3):
        assert api.get("/v1/games/types").status_code == 200
    answer = api.get("/v1/games/types")
    assert answer.status_code == 429
    assert answer.json["code"] == "rate_limited"
    assert 1 <= int(answer.headers["Retry-After"]) <= 60
    assert answer.json["retry_after"] == int(answer.headers["Retry-After"])
    assert api.get("/v1/health").status_code == 200  # monitoring is never limited
    assert api.get("/metrics").status_code == 200


def test_behind_a_trusted_proxy_each_client_address_counts_apart() -> None:
    api = limited(None, Rate(1, 60), proxies=1)
    first, second = {"X-Forwarded-For": "203.0.113.1"}, {"X-Forwarded-For": "203.0.113.2"}
    assert [api.get("/v1/games/types", headers=first).status_code for _ in range(2)] == [200, 429]
    assert api.get("/v1/games/types", headers=second).status_code == 200
    # without trusting the proxy, the header is ignored: everyone is the proxy's address
    api = limited(None, Rate(1, 60))
    assert [api.get("/v1/games/types", headers=h).status_code for h in (first, second)] == [200, 429]


def test_each_token_has_its_own_budget() -> None:
    api = limited(Rate(2, 60), None)
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    ann = {"Authorization": f"Bearer {api.post(f'/v1/games/{game_id}/join', json={'name': 'ann'}).json['token']}"}
    bo = {"Authorization": f"Bearer {api.post(f'/v1/games/{game_id}/join', json={'name': 'bo'}).json['token']}"}
    assert [api.get(f"/v1/games/{game_id}", headers=ann).status_code for _ in range(3)] == [200, 200, 429]
    assert api.get(f"/v1/games/{game_id}", headers=bo).status_code == 200
    # an invented token is counted too, so guessing tokens costs the same
    wrong = {"Authorization": "Bearer guess"}
    assert [api.get(f"/v1/games/{game_id}", headers=wrong).status_code for _ in range(3)] == [401, 401, 429]


def test_a_request_id_is_echoed_or_made_and_logged(api: ContractClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="meeple")
    assert api.get("/v1/games/types", headers={"X-Request-Id": "client-42"}).headers["X-Request-Id"] == "client-42"
    made = api.get("/v1/games/nope", headers={"X-Request-Id": "bad id with spaces"}).headers["X-Request-Id"]
    assert made != "bad id with spaces" and len(made) == 32
    lines = [record for record in caplog.records if record.getMessage() == "request"]
    assert [(r.request_id, r.method, r.path, r.status) for r in lines] == [  # type: ignore[attr-defined]
        ("client-42", "GET", "/v1/games/types", 200), (made, "GET", "/v1/games/nope", 404)]
    assert lines[1].problem == "game_not_found"  # type: ignore[attr-defined]


def samples(api: ContractClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = api.get("/metrics")
    assert answer.status_code == 200 and answer.content_type.startswith("text/plain")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def test_metrics_count_commands_games_and_latencies(api: ContractClient) -> None:
    def commands(outcome: str) -> float:
        return samples(api).get(("meeple_commands_total", (("game", "taki"), ("outcome", outcome))), 0.0)

    accepted, stale = commands("accepted"), commands("version_conflict")
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    tokens = [api.post(f"/v1/games/{game_id}/join", json={"name": name}).json["token"] for name in ("ann", "bo")]
    headers = {"Authorization": f"Bearer {tokens[0]}"}  # seat 0 moves first
    version = api.get(f"/v1/games/{game_id}", headers=headers).json["version"]
    url = f"/v1/games/{game_id}/commands"
    assert api.post(url, headers=headers, json={"type": "draw", "expected_version": version}).status_code == 201
    assert api.post(url, headers=headers, json={"type": "draw", "expected_version": version}).status_code == 409
    assert commands("accepted") == accepted + 1
    assert commands("version_conflict") == stale + 1
    figures = samples(api)
    assert figures[("meeple_games", (("status", "active"),))] >= 1
    assert figures[("meeple_append_seconds_count", ())] >= 1
    assert figures[("meeple_queue_depth", (("queue", "meeple-bots"),))] == 0
    assert figures[("meeple_deadline_lag_seconds", ())] == 0
    created = (("method", "POST"), ("route", "/v1/games"), ("status", "201"))
    assert figures[("meeple_request_seconds_count", created)] >= 1


def test_the_deadline_lag_is_how_late_the_most_overdue_deadline_is() -> None:
    client = fakeredis.FakeRedis()
    api = ContractClient(create_app(Config(), client=client).test_client())
    deadline_queue(client).enqueue_at(datetime.now(timezone.utc) - timedelta(seconds=90), print, job_id="late")
    deadline_queue(client).enqueue_at(datetime.now(timezone.utc) - timedelta(seconds=5), print, job_id="less-late")
    assert 89 <= samples(api)[("meeple_deadline_lag_seconds", ())] <= 100
