"""Imports you can trust (issue 28): a log is checked as strictly as a live game before anything
is stored — every payload against its event's type, every shuffle against its commitment, every
card, seat and citizen against what is there, every result against the rules — and the game it
makes says it was imported and answers every read."""

from __future__ import annotations

import json
from typing import Any

import fakeredis
import pytest

from domain.bahama_taxi.commands import Forfeit
from service.app import create_app
from tests.contract import ContractClient
from tests.logs import entries, genuine_export, joined
from tests.service.conftest import unlimited

NDJSON = {"Content-Type": "application/x-ndjson"}
SHORT_TAXI = {"max_rounds": 20}  # a Bahama Taxi game of a few hundred events


def send(api: ContractClient, body: bytes) -> Any:
    return api.post("/v1/games/import", data=body, headers=NDJSON)


def refused(api: ContractClient, header: str, events: list[dict[str, Any]], version: int, why: str) -> None:
    """The tampered log is refused 422, its problem naming event `version` and saying `why`."""
    answer = send(api, joined(header, events))
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] == "invalid_log" and f"Event {version} " in answer.json["detail"], answer.json
    assert why in answer.json["detail"], answer.json
    assert api.get("/v1/games").json["games"] == []  # nothing was stored


def every_read(api: ContractClient, game_id: str) -> int:
    """Read the game every way a reader may, each read answered 2xx; the number of reads."""
    game = api.get(f"/v1/games/{game_id}")
    assert game.status_code == 200, game.json
    reads = 1
    for version in range(game.json["version"] + 1):
        assert api.get(f"/v1/games/{game_id}/states/{version}").status_code == 200, version
        reads += 1
    after: int | None = 0
    while after is not None:
        page = api.get(f"/v1/games/{game_id}/events?after={after}&limit=1000")
        assert page.status_code == 200
        after, reads = page.json["next"], reads + 1
    for path in ("export", "legal-commands", "legal-commands?form=grouped"):
        # an imported game's seats hold no token: its legal commands are a seat's read, answered 401
        answer = api.get(f"/v1/games/{game_id}/{path}")
        assert answer.status_code == (200 if path == "export" else 401), (path, answer.json)
        reads += 1
    return reads


@pytest.fixture(scope="module")
def taxi() -> list[str]:
    return genuine_export("bahama_taxi", 2, 7, SHORT_TAXI)


@pytest.fixture(scope="module")
def taki() -> list[str]:
    return genuine_export("taki", 3, 3)


# item 1: payloads of the wrong type or naming what is not there

@pytest.mark.parametrize("destination", [["?"], -1, "?"])
def test_a_citizen_appeared_with_destination_changed_is_refused(
        api: ContractClient, taxi: list[str], destination: Any) -> None:
    header, events = entries(taxi)
    appeared = [e for e in events if e["type"] == "citizen_appeared" and e["payload"]["destination"]][-1]
    appeared["payload"]["destination"] = destination
    why = "committed order" if destination == "?" else "`destination` must be null or a string"
    refused(api, header, events, appeared["version"], why)


@pytest.mark.parametrize(("seat", "why"), [(-1, "there is no seat -1"), (2, "there is no seat 2"),
                                           (1.5, "`seat` must be an integer"), (True, "`seat` must be an integer"),
                                           (None, "`seat` must be an integer")])
def test_a_seat_out_of_range_or_not_an_integer_is_refused(api: ContractClient, taxi: list[str], seat: Any, why: str) -> None:
    header, events = entries(taxi)
    ended = next(e for e in events if e["type"] == "turn_ended")
    ended["payload"]["seat"] = seat
    refused(api, header, events, ended["version"], why)


@pytest.mark.parametrize(("card", "why"), [(None, "`card` must be a string"), (7, "`card` must be a string"),
                                           ("red.13.1", "there is no card red.13.1")])
def test_a_played_card_null_or_unknown_is_refused(api: ContractClient, taki: list[str], card: Any, why: str) -> None:
    header, events = entries(taki)
    played = next(e for e in events if e["type"] == "card_played")
    played["payload"]["card"] = card
    refused(api, header, events, played["version"], why)


def test_a_card_played_from_another_seats_hand_is_refused(api: ContractClient, taki: list[str]) -> None:
    header, events = entries(taki)
    played = next(e for e in events if e["type"] == "card_played")
    dealt = next(e for e in events if e["type"] == "hand_dealt" and e["payload"]["seat"] != played["payload"]["seat"])
    played["payload"]["card"] = dealt["payload"]["cards"][0]
    refused(api, header, events, played["version"], "does not hold")


def test_a_payload_with_a_field_missing_or_unknown_is_refused(api: ContractClient, taki: list[str]) -> None:
    header, events = entries(taki)
    played = next(e for e in events if e["type"] == "card_played")
    played["payload"]["bonus"] = 1
    refused(api, header, events, played["version"], "`bonus` is no field of CardPlayed")
    del played["payload"]["bonus"], played["payload"]["seat"]
    refused(api, header, events, played["version"], "`seat` is missing")


# item 2: shuffles and results

@pytest.mark.parametrize("name", ["taki", "bahama_taxi"])
def test_a_swapped_deck_shuffled_order_is_refused(api: ContractClient, name: str) -> None:
    header, events = entries(genuine_export(name, 2, 1, SHORT_TAXI if name == "bahama_taxi" else None))
    order = events[0]["payload"]["order"]
    order[0], order[1] = order[1], order[0]
    refused(api, header, events, 1, "do not match the commitment")


@pytest.mark.parametrize("field", ["salt", "commitment"])
def test_a_changed_salt_or_commitment_is_refused(api: ContractClient, taki: list[str], field: str) -> None:
    header, events = entries(taki)
    shuffled = events[0]
    shuffled["payload"][field] = ("0" if shuffled["payload"][field][0] != "0" else "1") + shuffled["payload"][field][1:]
    refused(api, header, events, 1, "do not match the commitment")


def test_a_changed_drawn_card_is_refused(api: ContractClient, taki: list[str]) -> None:
    header, events = entries(taki)
    drawn = next(e for e in events if e["type"] == "cards_drawn" and e["payload"]["cards"])
    other = next(card for e in events if e["type"] == "hand_dealt" for card in e["payload"]["cards"])
    drawn["payload"]["cards"][0] = other
    refused(api, header, events, drawn["version"], "where the committed order gives")


def test_a_reversed_game_ended_ranking_is_refused(api: ContractClient) -> None:
    """Seat 0 forfeits at once; reversed, the ranking would put it first."""
    header, events = entries(genuine_export("bahama_taxi", 3, 2, SHORT_TAXI, first=(lambda state: Forfeit(0),)))
    ended = events[-1]
    assert ended["type"] == "game_ended" and ended["payload"]["ranking"][-1] == [0]
    ended["payload"]["ranking"].reverse()
    refused(api, header, events, ended["version"], "the rules end this game")


def test_a_reversed_game_ended_ranking_is_refused_in_taki(api: ContractClient) -> None:
    header, events = entries(genuine_export("taki", 3, 4))
    ended = events[-1]
    ended["payload"]["ranking"].reverse()
    refused(api, header, events, ended["version"], "the rules rank this game")


def test_a_game_ended_naming_another_winner_is_refused_in_djambi(api: ContractClient) -> None:
    header, events = entries(genuine_export("djambi", 3, 4))
    ended = events[-1]
    ended["payload"]["winners"] = [(seat + 1) % 3 for seat in ended["payload"]["winners"]]
    refused(api, header, events, ended["version"], "the rules do not end this game")


def test_an_event_after_the_game_ended_is_refused(api: ContractClient, taki: list[str]) -> None:
    header, events = entries(taki)
    events.append(dict(events[-1], version=len(events) + 1))
    refused(api, header, events, len(events), "the game is already over")


def test_an_imported_game_says_so_with_its_original_id(api: ContractClient, taxi: list[str]) -> None:
    answer = send(api, "\n".join(taxi).encode())
    assert answer.status_code == 201, answer.json
    assert answer.json["imported"] is True and answer.json["original_id"] == "original7"
    game = api.get(f"/v1/games/{answer.json['id']}").json
    assert game["imported"] is True and game["original_id"] == "original7" and game["status"] == "finished"
    header = json.loads(taxi[0])
    del header["id"]
    anonymous = send(api, "\n".join([json.dumps(header), *taxi[1:]]).encode()).json
    assert anonymous["imported"] is True and anonymous["original_id"] is None
    played = api.post("/v1/games", json={"game": "taki", "seats": 2}).json
    assert played["imported"] is False and played["original_id"] is None and played["checked"] is None


def test_an_imported_game_keeps_how_its_log_was_checked_and_shows_it_in_every_read(api: ContractClient) -> None:
    for old, checked in ((False, "redecided"), (True, "events")):
        answer = send(api, "\n".join(genuine_export("taki", 2, 1, old=old)).encode())
        assert answer.status_code == 201 and answer.json["checked"] == checked, answer.json
        assert api.get(f"/v1/games/{answer.json['id']}").json["checked"] == checked
        listed = api.get("/v1/games?status=finished").json["games"]
        assert {game["checked"] for game in listed if game["id"] == answer.json["id"]} == {checked}


# item 3: limits

def test_a_padded_import_is_refused_by_its_event_limit() -> None:
    api = ContractClient(create_app(unlimited(max_import_events=500), client=fakeredis.FakeRedis()).test_client())
    header, events = entries(genuine_export("taki", 2, 5))
    padded = events + [dict(events[-1], version=version) for version in range(len(events) + 1, len(events) + 1_001)]
    answer = send(api, joined(header, padded))
    assert answer.status_code == 413 and answer.json["code"] == "log_too_long" and answer.json["limit"] == 500
    assert f"holds {len(padded)} events" in answer.json["detail"]


def test_a_log_over_the_byte_limit_is_refused() -> None:
    api = ContractClient(create_app(unlimited(max_import_bytes=10_000), client=fakeredis.FakeRedis()).test_client())
    answer = send(api, "\n".join(genuine_export("taki", 2, 5)).encode())
    assert answer.status_code == 413 and answer.json["code"] == "request_entity_too_large"


# after the checks, no read of an imported game fails

@pytest.mark.parametrize(("name", "seats", "options", "seed"), [
    ("taki", 2, {}, 11), ("taki", 3, {"mode": "tournament"}, 3),  # the shortest tournament of six seeds: 3,078 events
    ("djambi", 3, {}, 11), ("djambi", 4, {}, 11),
    ("bahama_taxi", 2, SHORT_TAXI, 11), ("bahama_taxi", 3, SHORT_TAXI | {"dice": True}, 11),
    ("bahama_taxi", 2, SHORT_TAXI | {"unknown_destination": True, "hand_size": 4}, 11),
])
def test_every_read_of_an_imported_genuine_export_answers(
        api: ContractClient, name: str, seats: int, options: dict[str, Any], seed: int) -> None:
    lines = genuine_export(name, seats, seed, options)
    answer = send(api, "\n".join(lines).encode())
    assert answer.status_code == 201, answer.json
    assert every_read(api, answer.json["id"]) > len(lines)
