from __future__ import annotations

from typing import Any

import fakeredis
import pytest

from runtime.config import Config
from service.app import create_app
from tests.contract import ContractClient


def unlimited(**settings: Any) -> Config:
    """Settings for tests, which make far more requests than a client may (limits: test_operations.py)."""
    return Config(**{"rate_per_token": None, "rate_per_address": None, "games_per_address": None,
                     "registrations_per_address": (), "chat_per_address": None} | settings)


@pytest.fixture
def api() -> ContractClient:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    return ContractClient(app.test_client())
