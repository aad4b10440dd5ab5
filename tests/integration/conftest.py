"""A real `meeple serve` process on the embedded store, reached over real HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from bench.server import free_port
from tests.integration.clients import Client


def wait_until_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until the server started as `process` answers its health check; if it dies or hangs,
    stop it (so that no server outlives its test) and fail with its log."""
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(f"{url}/v1/health", timeout=1).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):  # not listening yet, or not yet serving
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise RuntimeError(log.read_text())
        time.sleep(0.1)


@contextmanager
def serving(data: Path, settings: dict[str, str] | None = None, *options: str) -> Iterator[str]:
    """`meeple serve` with its own embedded store under `data` (its output in `data/serve.log`),
    with `MEEPLE_*` `settings` and command-line `options`; its base URL while it runs."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
    # the tests make far more requests from one address than a client should (limits: test_operations.py)
    env |= {"MEEPLE_RATE_PER_TOKEN": "off", "MEEPLE_RATE_PER_ADDRESS": "off", "MEEPLE_GAMES_PER_ADDRESS": "off",
            "MEEPLE_REGISTRATIONS_PER_ADDRESS": "off", "MEEPLE_CHAT_PER_ADDRESS": "off"} | (settings or {})
    with (data / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data-dir", str(data / "var"), *options],
            cwd=Path(__file__).parents[2], env=env, stdout=log, stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        wait_until_healthy(url, process, data / "serve.log")
        try:
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server started as a user would, with its own embedded store."""
    with serving(tmp_path_factory.mktemp("serve")) as url:
        yield url


@pytest.fixture
def http(server: str) -> Iterator[requests.Session]:
    with requests.Session() as session:
        yield session


@pytest.fixture
def client(http: requests.Session, server: str) -> Client:
    return Client(http, server)
