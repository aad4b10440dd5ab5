"""Checking every HTTP answer a test sees against openapi.yaml (or against the document a
server built otherwise would serve)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.testing import MockRequest, MockResponse
from werkzeug.test import TestResponse

CONFIG = Config(extra_media_type_deserializers={"application/problem+json": json.loads,
                                               "application/x-ndjson": lambda body: body.decode(),
                                               "text/event-stream": lambda body: body.decode()})
SPEC = OpenAPI.from_file_path(str(Path(__file__).parent.parent / "openapi.yaml"), config=CONFIG)


def contract(document: dict[str, Any]) -> OpenAPI:
    """The contract a document states, for a server built otherwise than openapi.yaml says."""
    return OpenAPI.from_dict(document, config=CONFIG)


def check_test_response(response: TestResponse, spec: OpenAPI = SPEC) -> TestResponse:
    """Fails when a Flask test-client answer breaks the contract."""
    request = response.request
    asked = MockRequest(request.host_url, request.method.lower(), request.path, args=dict(request.args))
    answer = MockResponse(response.get_data(), response.status_code, dict(response.headers),
                          response.mimetype or "application/json")
    spec.validate_response(asked, answer)
    return response


def check_http_response(response: requests.Response) -> requests.Response:
    """Fails when a real HTTP answer breaks the contract."""
    SPEC.validate_response(RequestsOpenAPIRequest(response.request), RequestsOpenAPIResponse(response))
    return response


class ContractClient:
    """A Flask test client whose every answer is checked against the contract."""

    def __init__(self, client: Any, spec: OpenAPI = SPEC) -> None:
        self.client, self.spec = client, spec

    def __getattr__(self, method: str) -> Any:
        call = getattr(self.client, method)

        def checked(*args: Any, **kwargs: Any) -> TestResponse:
            return check_test_response(call(*args, **kwargs), self.spec)

        return checked
