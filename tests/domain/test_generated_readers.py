"""The codec's generated record readers read every game's recorded events as the plain readers
do, and refuse what the plain readers refuse with the same complaint."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from domain import GAMES
from domain.core.codec import Structure, plain_readers, readers
from domain.core.errors import PayloadInvalid
from tests.logs import GENUINE, entries, genuine_export

RECORDED = [(name, index) for name, games in GENUINE.items() for index in range(len(games))]
ODD: tuple[Any, ...] = (None, 1.5, True, "?", [])  # a value of another kind than a field's


@functools.cache
def _recorded(name: str, index: int) -> list[tuple[str, dict[str, Any]]]:
    """Each event of a recorded game: its wire name and its payload as the current version writes it."""
    codec = GAMES[name].events
    return [(event["type"], codec.upcast(event["type"], event["schema_version"], event["payload"]))
            for event in entries(genuine_export(name, *GENUINE[name][index]))[1]]


def _outcome(read: Structure, payload: Any) -> Any:
    try:
        return read(payload)
    except PayloadInvalid as problem:
        return f"refused: {problem}"


def _spoilt(payload: dict[str, Any]) -> list[Any]:
    """The payload with each field missing, each field of another kind, a field too many, and not an object."""
    return [*({key: value for key, value in payload.items() if key != name} for name in payload),
            *({**payload, name: odd} for name in payload for odd in ODD),
            {**payload, "extra": 1}, list(payload.values())]


@pytest.mark.parametrize(("name", "index"), RECORDED)
def test_every_recorded_event_is_read_by_the_generated_readers_as_by_the_plain_ones(name: str, index: int) -> None:
    kinds = {wire: kind for kind, wire in GAMES[name].events.names.items()}
    recorded = _recorded(name, index)
    assert len(recorded) > 10
    for wire, payload in recorded:
        generated = readers(kinds[wire])(payload)
        assert type(generated) is kinds[wire] and generated == plain_readers(kinds[wire])(payload)


@pytest.mark.parametrize(("name", "index"), RECORDED)
def test_a_spoilt_recorded_event_gets_the_same_answer_from_both_readers(name: str, index: int) -> None:
    kinds = {wire: kind for kind, wire in GAMES[name].events.names.items()}
    refused = 0
    for wire, payload in dict(_recorded(name, index)).items():  # one event of each kind
        for spoilt in _spoilt(payload):
            expected = _outcome(plain_readers(kinds[wire]), spoilt)
            assert _outcome(readers(kinds[wire]), spoilt) == expected
            refused += str(expected).startswith("refused: ")
    assert refused > 0
