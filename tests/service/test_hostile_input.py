"""No input, however malformed, yields a 500, a partial write or a non-problem answer."""

from __future__ import annotations

import io
import json
from typing import Any

import fakeredis
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=12,
)
COMMAND_FIELDS = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["play", "draw", "pass", "close_taki", "end_turn", "announce_last_card", "x"]) | JSON,
    "card": st.sampled_from(["red.5.1", "red.2.1", "none.king.1", ""]) | JSON,
    "cards": st.lists(st.sampled_from(["red.5.1", "blue.taki.2", "none.change_color.1"]), max_size=4) | JSON,
    "color": st.sampled_from(["red", "pink"]) | JSON,
    "colors": JSON, "close_taki": JSON, "announce_last_card": JSON, "expected_version": JSON,
})


@pytest.fixture(scope="module")
def setup() -> tuple[ContractClient, str, str, Any]:
    client = fakeredis.FakeRedis()
    api = ContractClient(create_app(unlimited(), client=client).test_client())
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    token = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}).json["token"]
    api.post(f"/v1/games/{game_id}/join", json={"name": "bo"})
    return api, game_id, token, client


def is_problem(answer: Any, *statuses: int) -> bool:
    return answer.status_code in statuses and answer.mimetype == "application/problem+json" and answer.json["code"]


def test_oversized_deep_and_broken_bodies(setup: tuple[ContractClient, str, str, Any]) -> None:
    api, game_id, token, _ = setup
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    url = f"/v1/games/{game_id}/commands"
    assert is_problem(api.post(url, data="[" * 70_000, headers=auth), 413)
    assert is_problem(api.post(url, data="[" * 30_000 + "]" * 30_000, headers=auth), 400)
    assert is_problem(api.post(url, data=b"\xff\xfe{", headers=auth), 400)
    assert is_problem(api.post(url, data='{"type": "draw"', headers=auth), 400)
    assert is_problem(api.post(url, data="NaN", headers=auth), 422)
    assert is_problem(api.post(url, data='{"seats": ' + "9" * 5000 + "}", headers=auth), 400)
    assert is_problem(api.post(url, data="", headers=auth), 422)
    assert is_problem(api.post(url, data='{"type": "draw"}', headers={"Authorization": f"Bearer {token}"}), 415)


def test_a_chunked_body_over_the_limit_is_refused_413_like_one_with_a_content_length(
    setup: tuple[ContractClient, str, str, Any]
) -> None:
    """A body sent without a Content-Length (chunked: the server ends the stream) is held to the
    same limit, not cut short at it and then read as broken JSON."""
    api, game_id, token, _ = setup
    url = f"/v1/games/{game_id}/commands"
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    big = b'{"type": "draw", "pad": "' + b"x" * 1_000_000 + b'"}'
    assert is_problem(api.post(url, data=big, headers=headers), 413)

    def chunked(body: bytes) -> Any:
        """`body` as gunicorn hands on a chunked one: no length, and a stream it ends itself."""
        return api.post(url, input_stream=io.BytesIO(body), headers=headers | {"Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})

    answer = chunked(big)
    assert is_problem(answer, 413) and answer.json["code"] == "request_entity_too_large"
    edge = b'{"type": "draw", "pad": "' + b"x" * (65536 - 27) + b'"}'
    assert len(edge) == 65536  # exactly the limit: read whole
    assert is_problem(chunked(edge), 422) and is_problem(chunked(edge + b" "), 413)
    assert is_problem(chunked(b'{"type": "x"}'), 422)  # read whole, parsed, refused for what it says


def test_unicode_oddities(setup: tuple[ContractClient, str, str, Any]) -> None:
    api, game_id, token, _ = setup
    fresh = api.post("/v1/games", json={"game": "taki", "seats": 3}).json["id"]
    for name in ("\ud800", "\u0000", "   ", "a\nb", "x" * 65):
        answer = api.post(f"/v1/games/{fresh}/join", data=json.dumps({"name": name}), content_type="application/json")
        assert is_problem(answer, 422), name
    assert api.post(f"/v1/games/{fresh}/join", json={"name": "Zoë 🎲"}).status_code == 201
    auth = {"Authorization": f"Bearer {token}"}
    answer = api.post(f"/v1/games/{game_id}/commands", data=json.dumps({"type": "play", "card": "\ud800"}),
                      content_type="application/json", headers=auth)
    assert is_problem(answer, 409) and answer.json["reason"] == "card_not_in_hand"
    assert is_problem(api.get("/v1/games/%F0%9F%8E%B2"), 404)
    assert is_problem(api.get(f"/v1/games/{'a' * 65}"), 404)


def test_out_of_range_numbers(setup: tuple[ContractClient, str, str, Any]) -> None:
    api, game_id, token, _ = setup
    assert is_problem(api.get(f"/v1/games/{game_id}/events?after={10**30}"), 422)
    assert is_problem(api.get(f"/v1/games/{game_id}/events?limit=0"), 422)
    assert is_problem(api.get(f"/v1/games/{game_id}/events?after=abc"), 422)
    assert is_problem(api.get(f"/v1/games?cursor={10**30}"), 422)
    assert is_problem(api.get(f"/v1/games/{game_id}/states/{10**30}"), 404)
    assert is_problem(api.post("/v1/games", json={"game": "taki", "seats": 10**40}), 422)
    assert is_problem(api.post("/v1/games", json={"game": "taki", "seats": 2.5}), 422)
    assert api.post("/v1/games", json={"game": "taki", "seats": 2.0}).json["seats"][1]["seat"] == 1  # an integer, as in JSON Schema
    assert is_problem(api.post("/v1/games", json={"game": "taki", "seats": 3, "options": []}), 422)
    assert is_problem(api.post("/v1/games", json={"game": "taki", "seats": 3, "options": {"first_seat": 10**40}}), 422)
    auth = {"Authorization": f"Bearer {token}", "If-Match": '"' + "9" * 40 + '"'}
    assert is_problem(api.post(f"/v1/games/{game_id}/commands", json={"type": "draw"}, headers=auth), 422)


def test_forged_tokens(setup: tuple[ContractClient, str, str, Any]) -> None:
    api, game_id, token, _ = setup
    for header in ("Bearer", "Bearer " + token + "x", "bearer " + token, "Bearer " + "é" * 20, token, "Bearer " + "A" * 200):
        answer = api.get(f"/v1/games/{game_id}/legal-commands", headers={"Authorization": header})
        assert is_problem(answer, 401), header


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=COMMAND_FIELDS | JSON)
def test_random_command_bodies_never_break_the_server_or_the_stream(
    setup: tuple[ContractClient, str, str, Any], body: Any
) -> None:
    api, game_id, token, client = setup
    before = api.get(f"/v1/games/{game_id}").json["version"]
    answer = api.post(f"/v1/games/{game_id}/commands", data=json.dumps(body), content_type="application/json",
                      headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code in (201, 409, 422), answer.json
    events = api.get(f"/v1/games/{game_id}/events?limit=1000", headers={"Authorization": f"Bearer {token}"}).json
    after = events["version"]
    assert [e["version"] for e in events["events"]] == list(range(1, after + 1))
    assert (after > before) == (answer.status_code == 201)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON, path=st.sampled_from(["/v1/games", "/v1/games/{id}/join"]))
def test_random_bodies_to_create_and_join(setup: tuple[ContractClient, str, str, Any], body: Any, path: str) -> None:
    api, _, _, _ = setup
    target = api.post("/v1/games", json={"game": "taki", "seats": 10}).json["id"]
    answer = api.post(path.format(id=target), data=json.dumps(body), content_type="application/json")
    assert answer.status_code in (201, 409, 422)
