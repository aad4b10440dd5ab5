from __future__ import annotations

import fakeredis
import pytest

from service.app import create_app
from service.config import Config
from tests.contract import ContractClient


@pytest.fixture
def api() -> ContractClient:
    app = create_app(Config(), client=fakeredis.FakeRedis())
    return ContractClient(app.test_client())
