"""What a web page needs of the API: CORS for the configured origins, stream tickets in place of
the token for EventSource, 401s that say what was wrong, 304s for game reads it already has, and
rate-limit headers on every limited answer."""

from __future__ import annotations

import logging
import time
from typing import Any

import fakeredis
import pytest

from events import keys
from events.seats import hash_token
from events.tickets import StreamGrant, StreamTickets
from runtime.config import Config, Rate, origins
from service.app import create_app
from tests.contract import ContractClient
from tests.service.conftest import unlimited
from tests.service.test_games_api import bearer, seat_all
from tests.sse import Message, messages

PAGE = "http://page.example:8080"


def app_client(**settings: Any) -> tuple[ContractClient, fakeredis.FakeRedis]:
    store = fakeredis.FakeRedis()
    return ContractClient(create_app(unlimited(**settings), client=store).test_client()), store


def started(api: ContractClient, seats: int = 2) -> tuple[str, list[str]]:
    game_id = api.post("/v1/games", json={"game": "taki", "seats": seats}).json["id"]
    return game_id, seat_all(api, game_id, seats)


def first_messages(api: ContractClient, url: str, count: int, **kwargs: Any) -> list[Message]:
    """The first `count` messages of a live stream (which never ends by itself), then it is closed."""
    answer = api.client.get(url, buffered=False, **kwargs)
    assert answer.status_code == 200, answer.get_data()
    text, found = "", []
    for chunk in answer.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        found = list(messages(text.split("\n")))
        if len(found) >= count:
            break
    answer.close()
    return found[:count]


def ticket(api: ContractClient, token: str, **body: Any) -> str:
    answer = api.post("/v1/stream-tickets", json=body, headers=bearer(token))
    assert answer.status_code == 201, answer.json
    assert answer.json["expires_in"] == 30 and answer.json["url"].endswith(f"?ticket={answer.json['ticket']}")
    return answer.json["ticket"]  # type: ignore[no-any-return]


# CORS


def test_the_origins_setting_is_a_comma_separated_list_or_a_star() -> None:
    assert origins("") == ()
    assert origins(" https://Play.example.org/ , http://localhost:5173") == ("https://play.example.org", "http://localhost:5173")
    assert origins("*") == ("*",)
    for bad in ("play.example.org", "https://play.example.org/path", "http://"):
        with pytest.raises(ValueError, match="origin"):
            origins(bad)


def test_no_origin_is_allowed_by_default() -> None:
    api, _ = app_client()
    answer = api.get("/v1/games/types", headers={"Origin": PAGE})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers
    preflight = api.client.options("/v1/games", headers={"Origin": PAGE, "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_a_configured_origin_may_read_answers_and_their_headers() -> None:
    api, _ = app_client(cors_origins=(PAGE,))
    answer = api.post("/v1/games", json={"game": "taki", "seats": 2}, headers={"Origin": PAGE})
    assert answer.status_code == 201
    assert answer.headers["Access-Control-Allow-Origin"] == PAGE
    exposed = {name.strip() for name in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After", "RateLimit", "RateLimit-Policy", "X-Request-Id"} <= exposed
    assert "Origin" in answer.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in answer.headers  # tokens are headers, never cookies
    problem = api.get("/v1/games/nosuchgame", headers={"Origin": PAGE})  # a page reads errors too
    assert problem.status_code == 404 and problem.headers["Access-Control-Allow-Origin"] == PAGE


def test_another_origin_gets_no_permission() -> None:
    api, _ = app_client(cors_origins=(PAGE,))
    for other in ("http://evil.example", "http://page.example:8081", "https://page.example:8080"):
        answer = api.get("/v1/games/types", headers={"Origin": other})
        assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers
        preflight = api.client.options("/v1/games", headers={"Origin": other, "Access-Control-Request-Method": "POST"})
        assert "Access-Control-Allow-Origin" not in preflight.headers and "Access-Control-Allow-Methods" not in preflight.headers


def test_a_preflight_names_the_methods_and_headers_the_api_uses() -> None:
    api, _ = app_client(cors_origins=(PAGE,))
    answer = api.client.options("/v1/games/some-game/commands", headers={
        "Origin": PAGE, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key"})
    assert answer.status_code == 204 and answer.get_data() == b""
    assert answer.headers["Access-Control-Allow-Origin"] == PAGE
    assert answer.headers["Access-Control-Allow-Methods"] == "POST"
    allowed = {name.strip().lower() for name in answer.headers["Access-Control-Allow-Headers"].split(",")}
    assert allowed == {"authorization", "content-type", "if-match", "if-none-match", "idempotency-key",
                       "last-event-id", "x-request-id"}
    assert int(answer.headers["Access-Control-Max-Age"]) > 0
    vacation = api.client.options("/v1/players/me/vacation", headers={"Origin": PAGE, "Access-Control-Request-Method": "PUT"})
    assert set(vacation.headers["Access-Control-Allow-Methods"].split(", ")) == {"PUT", "DELETE"}
    assert api.client.options("/v1/nothing-here", headers={"Origin": PAGE, "Access-Control-Request-Method": "GET"}).status_code == 404


def test_a_preflight_is_not_counted_against_the_rate() -> None:
    api = ContractClient(create_app(Config(rate_per_address=Rate(1, 60), cors_origins=(PAGE,)),
                                    client=fakeredis.FakeRedis()).test_client())
    for _ in range(3):
        preflight = api.client.options("/v1/games", headers={"Origin": PAGE, "Access-Control-Request-Method": "POST"})
        assert preflight.status_code == 204 and "RateLimit" not in preflight.headers
    assert api.get("/v1/games/types", headers={"Origin": PAGE}).status_code == 200


def test_a_star_lets_every_page_read_the_answers() -> None:
    api, _ = app_client(cors_origins=("*",))
    answer = api.get("/v1/games/types", headers={"Origin": "http://anywhere.example"})
    assert answer.headers["Access-Control-Allow-Origin"] == "*" and "Origin" not in answer.headers.get("Vary", "")


# 401


def test_a_401_says_whether_the_token_was_missing_malformed_or_unknown(api: ContractClient) -> None:
    game_id, _ = started(api)
    cases = {
        None: ("token_missing", 'Bearer realm="meeple"'),
        "Basic YW5uOnNlY3JldA==": ("token_malformed", 'Bearer realm="meeple", error="invalid_token", error_description="token_malformed"'),
        "Bearer short": ("token_malformed", 'Bearer realm="meeple", error="invalid_token", error_description="token_malformed"'),
        "Bearer " + "x" * 43: ("token_unknown", 'Bearer realm="meeple", error="invalid_token", error_description="token_unknown"'),
    }
    for header, (reason, challenge) in cases.items():
        answer = api.get(f"/v1/games/{game_id}/legal-commands", headers={} if header is None else {"Authorization": header})
        assert answer.status_code == 401 and answer.json["code"] == "unauthorized"
        assert answer.json["reason"] == reason and answer.headers["WWW-Authenticate"] == challenge
    answer = api.get("/v1/players/me")
    assert answer.json["reason"] == "token_missing" and answer.headers["WWW-Authenticate"] == 'Bearer realm="meeple"'
    assert api.get("/v1/players/me", headers=bearer("y" * 43)).json["reason"] == "token_unknown"


# 304


def test_a_game_read_the_client_has_is_answered_304(api: ContractClient) -> None:
    game_id, tokens = started(api)
    seat = bearer(tokens[0])
    first = api.get(f"/v1/games/{game_id}", headers=seat)
    tag = first.headers["ETag"]
    assert "Authorization" in first.headers["Vary"]
    for sent in (tag, f"W/{tag}", f'"999", {tag}', "*"):
        again = api.get(f"/v1/games/{game_id}", headers=seat | {"If-None-Match": sent})
        assert again.status_code == 304 and again.get_data() == b"" and again.headers["ETag"] == tag
        assert "Authorization" in again.headers["Vary"]
    assert api.get(f"/v1/games/{game_id}", headers=seat | {"If-None-Match": '"999"'}).status_code == 200
    for path in ("legal-commands", "events", "states/1"):
        read = api.get(f"/v1/games/{game_id}/{path}", headers=seat)
        assert api.get(f"/v1/games/{game_id}/{path}", headers=seat | {"If-None-Match": read.headers["ETag"]}).status_code == 304
    legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=seat).json["commands"]
    assert api.post(f"/v1/games/{game_id}/commands", json=legal[0], headers=seat).status_code == 201
    moved = api.get(f"/v1/games/{game_id}", headers=seat | {"If-None-Match": tag})  # the game has moved on
    assert moved.status_code == 200 and moved.headers["ETag"] != tag


# rate limits


def test_every_limited_answer_says_where_the_client_stands() -> None:
    api = ContractClient(create_app(Config(rate_per_token=Rate(2, 60), rate_per_address=Rate(100, 60)),
                                    client=fakeredis.FakeRedis()).test_client())
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    token = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}).json["token"]
    first = api.get(f"/v1/games/{game_id}", headers=bearer(token))
    assert first.headers["RateLimit-Policy"] == '"address";q=100;w=60, "token";q=2;w=60'
    address, by_token = first.headers["RateLimit"].split(", ")
    assert address.startswith('"address";r=97;t=') and by_token.startswith('"token";r=1;t=')
    assert 1 <= int(by_token.rsplit("t=", 1)[1]) <= 60
    assert api.get(f"/v1/games/{game_id}", headers=bearer(token)).headers["RateLimit"].split(", ")[1].startswith('"token";r=0;')
    over = api.get(f"/v1/games/{game_id}", headers=bearer(token))
    assert over.status_code == 429 and over.headers["RateLimit"].split(", ")[1].startswith('"token";r=0;')
    assert over.headers["RateLimit-Policy"] == first.headers["RateLimit-Policy"]
    spectator = api.get(f"/v1/games/{game_id}")
    assert spectator.headers["RateLimit-Policy"] == '"address";q=100;w=60'
    assert "RateLimit" not in api.get("/v1/health").headers  # never limited


# stream tickets


def test_a_ticket_opens_a_seats_stream_once(api: ContractClient) -> None:
    game_id, tokens = started(api)
    once = ticket(api, tokens[1], stream="game", game_id=game_id)
    opened = first_messages(api, f"/v1/games/{game_id}/stream?ticket={once}", api.get(f"/v1/games/{game_id}").json["version"])
    own_hand = next(m.data for m in opened if m.data["type"] == "hand_dealt" and m.data["payload"]["seat"] == 1)
    assert "?" not in own_hand["payload"]["cards"]  # the stream is seat 1's, not a spectator's
    again = api.get(f"/v1/games/{game_id}/stream?ticket={once}")
    assert again.status_code == 401 and again.json["reason"] == "ticket_invalid"
    assert again.headers["WWW-Authenticate"].startswith('Bearer realm="meeple", error="invalid_token"')


def test_a_reopened_stream_resumes_after_the_last_event_it_had(api: ContractClient) -> None:
    game_id, tokens = started(api)
    fresh = ticket(api, tokens[0], stream="game", game_id=game_id)
    resumed = first_messages(api, f"/v1/games/{game_id}/stream?ticket={fresh}&after=3", 1)
    assert resumed[0].id == "4"
    kept = ticket(api, tokens[0], stream="game", game_id=game_id)
    assert api.get(f"/v1/games/{game_id}/stream?ticket={kept}&after=x").status_code == 422
    assert first_messages(api, f"/v1/games/{game_id}/stream?ticket={kept}&after=4", 1)[0].id == "5"  # not used up
    fresh = ticket(api, tokens[0], stream="game", game_id=game_id)  # Last-Event-ID, when sent, wins
    resumed = first_messages(api, f"/v1/games/{game_id}/stream?ticket={fresh}&after=1", 1, headers={"Last-Event-ID": "2"})
    assert resumed[0].id == "3"


def test_a_ticket_expires_unused() -> None:
    api, store = app_client()
    game_id, tokens = started(api)
    issued = ticket(api, tokens[0], stream="game", game_id=game_id)
    assert 0 < store.ttl(keys.stream_ticket(hash_token(issued))) <= 30
    assert store.get(keys.stream_ticket(issued)) is None  # kept only as its hash
    brief = StreamTickets(store).issue(StreamGrant(hash_token(tokens[0]), game_id, 0), seconds=1)
    time.sleep(1.2)
    answer = api.get(f"/v1/games/{game_id}/stream?ticket={brief}")
    assert answer.status_code == 401 and answer.json["reason"] == "ticket_invalid"


def test_a_ticket_opens_only_its_own_stream(api: ContractClient) -> None:
    game_id, tokens = started(api)
    other_id, _ = started(api)
    wrong_game = ticket(api, tokens[0], stream="game", game_id=game_id)
    answer = api.get(f"/v1/games/{other_id}/stream?ticket={wrong_game}")
    assert answer.status_code == 401 and answer.json["reason"] == "ticket_invalid"
    for_inbox = ticket(api, api.post("/v1/players", json={"name": "cy"}).json["token"], stream="inbox")
    assert api.get(f"/v1/games/{game_id}/stream?ticket={for_inbox}").json["reason"] == "ticket_invalid"
    for_game = ticket(api, tokens[0], stream="game", game_id=game_id)
    assert api.get(f"/v1/players/me/inbox/stream?ticket={for_game}").json["reason"] == "ticket_invalid"
    for bad in ("x", "!" * 20, "a" * 200):
        assert api.get(f"/v1/games/{game_id}/stream?ticket={bad}").json["reason"] == "ticket_invalid"


def test_a_ticket_is_given_only_for_a_seat_the_token_holds(api: ContractClient) -> None:
    game_id, tokens = started(api)
    other_id, others = started(api)
    refused = api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id}, headers=bearer(others[0]))
    assert refused.status_code == 401 and refused.json["reason"] == "token_unknown"
    missing = api.post("/v1/stream-tickets", json={"stream": "game", "game_id": game_id})
    assert missing.status_code == 401 and missing.json["reason"] == "token_missing"
    not_a_player = api.post("/v1/stream-tickets", json={"stream": "inbox"}, headers=bearer(tokens[0]))
    assert not_a_player.status_code == 401 and not_a_player.json["reason"] == "token_unknown"
    assert api.post("/v1/stream-tickets", json={"stream": "game", "game_id": "nosuchgame"},
                    headers=bearer(tokens[0])).status_code == 404
    for body in ({"stream": "game"}, {"stream": "inbox", "game_id": game_id}, {"stream": "hand"}, {}):
        assert api.post("/v1/stream-tickets", json=body, headers=bearer(tokens[0])).status_code == 422


def test_a_seat_given_up_after_its_ticket_was_issued_is_not_opened(api: ContractClient) -> None:
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 3}).json["id"]
    token = api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}).json["token"]
    issued = ticket(api, token, stream="game", game_id=game_id)
    assert api.post(f"/v1/games/{game_id}/leave", headers=bearer(token)).status_code == 200
    api.post(f"/v1/games/{game_id}/join", json={"name": "eve", "seat": 0})
    assert api.get(f"/v1/games/{game_id}/stream?ticket={issued}").json["reason"] == "ticket_invalid"


def test_a_player_ticket_opens_the_players_seat_and_inbox(api: ContractClient) -> None:
    token = api.post("/v1/players", json={"name": "ann"}).json["token"]
    game_id = api.post("/v1/games", json={"game": "taki", "seats": 2}).json["id"]
    api.post(f"/v1/games/{game_id}/join", json={"name": "ann"}, headers=bearer(token))
    api.post(f"/v1/games/{game_id}/join", json={"name": "bo"})
    inbox = first_messages(api, f"/v1/players/me/inbox/stream?ticket={ticket(api, token, stream='inbox')}", 1)
    assert inbox[0].event == "inbox" and [e["game"]["id"] for e in inbox[0].data["games"]] == [game_id]
    version = api.get(f"/v1/games/{game_id}").json["version"]
    seat = first_messages(api, f"/v1/games/{game_id}/stream?ticket={ticket(api, token, stream='game', game_id=game_id)}", version)
    own_hand = next(m.data for m in seat if m.data["type"] == "hand_dealt" and m.data["payload"]["seat"] == 0)
    assert "?" not in own_hand["payload"]["cards"]


def test_a_stream_takes_a_token_or_a_ticket_not_both_and_a_spectator_neither(api: ContractClient) -> None:
    game_id, tokens = started(api)
    issued = ticket(api, tokens[0], stream="game", game_id=game_id)
    both = api.get(f"/v1/games/{game_id}/stream?ticket={issued}", headers=bearer(tokens[0]))
    assert both.status_code == 422
    spectator = first_messages(api, f"/v1/games/{game_id}/stream", 1)
    assert spectator[0].id == "1"


def test_no_log_line_holds_a_ticket_or_a_token(api: ContractClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    game_id, tokens = started(api)
    issued = ticket(api, tokens[0], stream="game", game_id=game_id)
    first_messages(api, f"/v1/games/{game_id}/stream?ticket={issued}&after=2", 1)
    api.get(f"/v1/games/{game_id}/stream?ticket={issued}")  # refused: used
    lines = [record for record in caplog.records if record.getMessage() == "request"]
    assert [r.path for r in lines[-2:]] == [f"/v1/games/{game_id}/stream"] * 2  # type: ignore[attr-defined]
    logged = " ".join(f"{record.getMessage()} {record.__dict__}" for record in caplog.records)
    assert issued not in logged and tokens[0] not in logged
