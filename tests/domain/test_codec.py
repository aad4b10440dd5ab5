"""Events are forever: a payload stored at an earlier schema version is read through the chain
of upcasters to the current version, never rewritten; a version the codec cannot reach is refused."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from domain import GAMES
from domain.core.codec import EventCodec
from domain.core.errors import UnknownEvent
from domain.taki.events import CardPlayed, Role


@dataclass(frozen=True, slots=True)
class DieRolled:  # v1 {"value"}; v2 {"seat", "value"}; v3 {"seat", "pips"}
    seat: int
    pips: int


@dataclass(frozen=True, slots=True)
class GameWon:
    seat: int


def with_seat(payload: dict[str, Any]) -> dict[str, Any]:
    return {"seat": 0, **payload}  # v1 knew one player only


def value_to_pips(payload: dict[str, Any]) -> dict[str, Any]:
    payload["pips"] = payload.pop("value")  # changes the copy handed in, which decode allows
    return payload


CODEC: EventCodec[DieRolled | GameWon] = EventCodec(
    names={DieRolled: "die_rolled", GameWon: "game_won"},
    schema_versions={"die_rolled": 3},
    upcasters={"die_rolled": {1: with_seat, 2: value_to_pips}},
)


def test_an_event_is_written_at_its_current_version() -> None:
    assert CODEC.encode(DieRolled(1, 4)) == ("die_rolled", 3, {"seat": 1, "pips": 4})
    assert CODEC.encode(GameWon(1)) == ("game_won", 1, {"seat": 1})


@pytest.mark.parametrize(("version", "payload"), [(1, {"value": 4}), (2, {"seat": 0, "value": 4}), (3, {"seat": 0, "pips": 4})])
def test_a_payload_of_any_earlier_version_is_upcast_step_by_step(version: int, payload: dict[str, Any]) -> None:
    stored = json.dumps(payload)
    assert CODEC.decode("die_rolled", version, payload) == DieRolled(0, 4)
    assert json.dumps(payload) == stored  # the stored payload is read, never rewritten


@pytest.mark.parametrize(("name", "version"), [
    ("die_rolled", 4), ("game_won", 2),  # newer than this server's
    ("die_rolled", 0),  # below the chain: no upcaster from 0
    ("die_rolled", True), ("die_rolled", "1"), ("meteor", 1),
])
def test_a_version_newer_than_the_current_or_out_of_the_chain_is_refused(name: str, version: Any) -> None:
    with pytest.raises(UnknownEvent, match=name):
        CODEC.decode(name, version, {"seat": 0, "pips": 4})


@pytest.mark.parametrize(("versions", "upcasters", "problem"), [
    ({"die_rolled": 3}, {"die_rolled": {1: with_seat}}, "needs an upcaster from each version 1 to 2"),
    ({"die_rolled": 3}, {"die_rolled": {2: value_to_pips}}, "needs an upcaster"),
    ({"die_rolled": 2}, {"die_rolled": {1: with_seat, 2: value_to_pips}}, "needs an upcaster"),  # one past the current
    ({"die_rolled": 2}, {}, "needs an upcaster"),
    ({"die_rolled": 0}, {}, "schema version 0"),
    ({"meteor": 2}, {"meteor": {1: with_seat}}, "no event's wire name"),
])
def test_a_codec_with_a_gap_in_a_chain_is_refused_when_built(
        versions: dict[str, int], upcasters: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        EventCodec(names={DieRolled: "die_rolled", GameWon: "game_won"}, schema_versions=versions, upcasters=upcasters)


# Every payload a past version of Meeple stored for an event whose schema version has since gone
# up: (game, wire name, version) → (payload as stored, the event it reads as today). An upcaster
# is added with a stored payload of the version it upcasts from.
STORED: dict[tuple[str, str, int], tuple[dict[str, Any], object]] = {}


def test_every_real_upcaster_is_tested_against_a_stored_payload() -> None:
    for game in GAMES.values():
        for name in game.events.names.values():
            for version in range(1, game.events.version(name)):
                payload, event = STORED[game.name, name, version]
                assert game.events.decode(name, version, payload) == event


@pytest.mark.parametrize(("name", "payload", "problem"), [
    ("citizen_appeared", {"citizen": "c1", "origin": "1A", "destination": ["?"]}, "`destination` must be null or a string"),
    ("citizen_appeared", {"citizen": "c1", "origin": "1A", "destination": -1}, "`destination` must be null or a string"),
    ("citizen_appeared", {"citizen": "c1", "origin": None, "destination": "2B"}, "`origin` must be a string"),
    ("citizen_appeared", {"citizen": "c1", "origin": "1A"}, "`destination` is missing"),
    ("citizen_appeared", {"citizen": "c1", "origin": "1A", "destination": None, "fare": 3}, "`fare` is no field"),
    ("turn_ended", {"seat": 1.5}, "`seat` must be an integer"),
    ("turn_ended", {"seat": True}, "`seat` must be an integer"),
    ("turn_ended", {"seat": "0"}, "`seat` must be an integer"),
    ("hand_dealt", {"seat": 0, "cards": "1A"}, "`cards` must be a list"),
    ("hand_dealt", {"seat": 0, "cards": ["1A", None]}, r"`cards\[1\]` must be a string"),
    ("turn_skipped", {"seat": 0, "pawn": 0, "reason": "bored"}, "`reason` must be one of"),
    ("game_ended", {"incomes": [1, 2], "ranking": [[1], 0], "reason": "won"}, r"`ranking\[1\]` must be a list"),
    ("citizen_appeared", ["c1", "1A", None], "`payload` must be an object"),
])
def test_a_payload_not_of_its_events_type_is_refused_naming_the_field(name: str, payload: Any, problem: str) -> None:
    with pytest.raises(UnknownEvent, match=problem):
        GAMES["bahama_taxi"].events.decode(name, 1, payload)


def test_a_nested_record_is_read_field_by_field() -> None:
    djambi = GAMES["djambi"].events
    payload = {"seat": 0, "move": "C9-D9", "moves": [{"piece": "red.militant1", "origin": "C9", "to": "D9"}], "kills": []}
    name, version, written = djambi.encode(djambi.decode("action_taken", 1, payload))
    assert written == payload
    with pytest.raises(UnknownEvent, match=r"`moves\[0\].to` must be a string"):
        djambi.decode("action_taken", 1, payload | {"moves": [{"piece": "red.militant1", "origin": "C9", "to": 9}]})


def test_an_event_is_made_as_its_init_makes_it_defaults_included() -> None:
    decoded = GAMES["taki"].events.decode("card_played", 1, {"seat": 1, "card": "red.5.1"})
    assert decoded == CardPlayed(1, "red.5.1") and hash(decoded) == hash(CardPlayed(1, "red.5.1"))
    assert decoded.role is Role.NORMAL and decoded.announce is False


@dataclass(frozen=True)
class Unslotted:
    seat: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int

    def __post_init__(self) -> None:
        assert self.seat >= 0


@dataclass(frozen=True, slots=True)
class Gathered:
    seats: tuple[int, ...] = field(default_factory=tuple)


@pytest.mark.parametrize("kind", [Unslotted, Checked, Gathered])
def test_an_event_the_decoder_could_not_make_as_its_init_does_is_refused_when_the_codec_is_built(kind: type) -> None:
    with pytest.raises(TypeError, match="a dataclass of slots"):
        EventCodec(names={kind: "odd"})
