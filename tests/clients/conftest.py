"""Clients generated from the spec a real `meeple serve` serves, as a new user would make them."""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

import pytest
import requests

from tests.integration.conftest import server  # noqa: F401  (the session's server, reused)

HERE = Path(__file__).parent
NODE_BIN = HERE / "node_modules" / ".bin"  # the npm tools of package-lock.json, installed by the first test that needs one
GAMES = ("taki", "djambi-4", "djambi-3", "bahama-taxi")  # the setups each bot plays, by name
MOVE_CAP = 1000  # a bot's moves in one game; a game not over by then fails its test


@pytest.fixture(scope="session")
def spec(server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """The spec as `GET /openapi.json` serves it, in a file."""
    response = requests.get(f"{server}/openapi.json", timeout=10)
    response.raise_for_status()
    path = tmp_path_factory.mktemp("spec") / "openapi.json"
    path.write_bytes(response.content)
    return path


def run(*command: str | Path, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a generator or a checker; unless told not to `check`, fail the test with its output if it fails."""
    env = os.environ | {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if check and done.returncode:
        pytest.fail(f"{Path(command[0]).name} failed:\n{done.stdout}\n{done.stderr}")
    return done


def node_tool(name: str, *args: str | Path, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run one of the npm tools of tests/clients (as `run` does), installing them first if they are not."""
    with (HERE / ".npm-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the test processes install them once, one at a time
        if not (NODE_BIN / name).exists():
            run("npm", "ci", "--prefix", str(HERE), "--silent", "--no-audit", "--no-fund")
    return run(NODE_BIN / name, *args, cwd=cwd, check=check)
