"""Each kind of the application's refusals is answered with its status, a kind of a kind as its
parent is, and the code, detail and extra fields it was raised with."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from application.errors import ApplicationError, Invalid, NotNow, NotReached, TooLong, Unreadable
from service.errors import handle_error


class LateForTheTable(NotNow):
    """A refusal of a kind the answers table does not name itself."""


@pytest.mark.parametrize(("refusal", "status"), [
    (Unreadable, 400), (NotReached, 404), (NotNow, 409), (TooLong, 413), (Invalid, 422),
    (LateForTheTable, 409), (ApplicationError, 422),
])
def test_a_refusal_is_answered_with_the_status_of_its_kind(refusal: type[ApplicationError], status: int) -> None:
    with Flask(__name__).test_request_context():
        answer = handle_error(refusal("some_code", "Not like this.", limit=3))
    assert answer.status_code == status
    assert answer.mimetype == "application/problem+json"
    assert json.loads(answer.get_data()) | {"title": None} == {
        "type": "about:blank", "title": None, "status": status, "code": "some_code", "detail": "Not like this.", "limit": 3}
