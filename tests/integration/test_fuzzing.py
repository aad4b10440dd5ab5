"""Schemathesis drives a live `meeple serve` from the spec it serves: the spec's examples, its
boundaries, generated and malformed input for every operation, then chains of calls along the
spec's links (create a game → join it → play commands in it). No answer may be a 500 or break
the spec, and a request the spec calls valid is answered 2xx but for the few exceptions, each
with its reason, that `schemathesis.toml` names per operation. `fuzz_hooks.py` gives it tokens
and sensible requests. MEEPLE_FUZZ_SEED and MEEPLE_FUZZ_EXAMPLES change the run."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import serving

pytestmark = pytest.mark.http

HERE = Path(__file__).parent
ADMIN_TOKEN = "fuzz-admin-token-0123456789"  # the admin's operations are fuzzed with it
STREAMS = ["streamGame", "streamInbox", "streamChat", "streamTournament"]  # answers that never end; tested in test_streams.py,
# test_chat_api.py and test_tournaments_api.py
# Every limit a client can reach lifted, so that no valid request is refused for the run's volume
# (each limit is tested on its own): the fuzzing expects no 429.
UNLIMITED = {"MEEPLE_GAMES_PER_ADDRESS": "off", "MEEPLE_INVITATIONS_PER_DAY": "1000000",
             "MEEPLE_REGISTRATIONS_PER_ADDRESS": "off", "MEEPLE_CHAT_PER_ADDRESS": "off",
             "MEEPLE_STREAMS_PER_ADDRESS": "100000", "MEEPLE_STREAMS_PER_TOKEN": "100000",
             "MEEPLE_WEBHOOKS_PER_PLAYER": "100000", "MEEPLE_CHAT_PER_MINUTE": "1000000",
             "MEEPLE_CONFIRMATIONS_PER_PLAYER": "1000000", "MEEPLE_CONFIRMATIONS_PER_ADDRESS": "off",
             "MEEPLE_CONFIRMATIONS_PER_CLIENT": "off", "MEEPLE_SIGN_IN_LINKS_PER_ADDRESS": "off",
             "MEEPLE_SIGN_IN_LINKS_PER_CLIENT": "off", "MEEPLE_TOKENS_PER_PLAYER": "1000000",
             "MEEPLE_VACATIONS_PER_PLAYER": "off",
             "MEEPLE_ADMIN_TOKEN": ADMIN_TOKEN}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("fuzzed"), UNLIMITED) as url:
        yield url


def test_no_request_breaks_the_server_or_the_spec(server: str, tmp_path: Path) -> None:
    log = tmp_path / "answers.log"
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(HERE / "schemathesis.toml"), "run",
         f"{server}/openapi.json", "--url", server, "--checks", "all",
         "--max-examples", os.environ.get("MEEPLE_FUZZ_EXAMPLES", "50"), "--seed", os.environ.get("MEEPLE_FUZZ_SEED", "1"),
         "--request-timeout", "10", "--no-color", *(arg for name in STREAMS for arg in ("--exclude-operation-id", name))],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,  # its cache goes there, not in the checkout
        env=os.environ | {"SCHEMATHESIS_HOOKS": "tests.integration.fuzz_hooks", "PYTHONPATH": str(HERE.parents[1]),
                          "MEEPLE_FUZZ_URL": server,
                          "MEEPLE_FUZZ_ADMIN_TOKEN": ADMIN_TOKEN,
                          "MEEPLE_FUZZ_LOG": str(log)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    answered = Counter(log.read_text().splitlines())
    # the chains reached into games: seats were taken and commands accepted, not only refused
    assert answered["joinGame 201"] and answered["submitCommand 201"], (answered, run.stdout[-4000:])
    assert answered["renameToken 200"] and answered["revokeToken 204"], answered  # held tokens, not only unknown ids
    assert not any(line.endswith(" 500") for line in answered)
