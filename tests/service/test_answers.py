"""The API's answers are the JSON Flask's own writer gives, whatever writes them."""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import Any

import fakeredis
import pytest
from flask.json.provider import DefaultJSONProvider

from service.answers import Answers
from service.app import create_app
from tests.service.conftest import unlimited


@dataclasses.dataclass
class Seat:
    name: str


@pytest.mark.parametrize("value", [
    {"b": 1, "a": [True, None, 1.5, "é"], "c": {"z": 1, "y": 2}},
    {"at": datetime.datetime(2026, 11, 25, 8, 0, tzinfo=datetime.timezone.utc), "seat": Seat("ann")},
    {"big": 2**64}, {"lone": "\ud800"}, {1: "a key that is not a string"},
], ids=["plain", "date and dataclass", "beyond 64 bits", "lone surrogate", "int key"])
def test_an_answer_reads_as_flasks_own_would(value: Any) -> None:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    assert isinstance(app.json, Answers)
    with app.app_context():
        ours = app.json.response(value).get_data(as_text=True)
        flasks = DefaultJSONProvider(app).response(value).get_data(as_text=True)
    assert json.loads(ours) == json.loads(flasks)
    assert list(json.loads(ours)) == list(json.loads(flasks))  # keys in the same order


def test_debug_mode_still_indents() -> None:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    app.debug = True
    with app.app_context():
        assert app.json.response({"a": 1}).get_data(as_text=True) == '{\n  "a": 1\n}\n'
