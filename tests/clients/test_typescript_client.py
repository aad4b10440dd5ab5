"""A bot on openapi-fetch, typed by what openapi-typescript makes of the served spec and checked
with `tsc --strict`, plays each game to its end."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import requests

from tests.clients.conftest import GAMES, NODE_BIN, node_tool

pytestmark = [pytest.mark.redis, pytest.mark.http]

BOT = Path(__file__).with_name("bot.ts")
# the bot is checked strictly; the .d.ts files (the generated types, node's) are read, not checked themselves
TSC = ["--strict", "--noUncheckedIndexedAccess", "--skipLibCheck", "--noEmitOnError",
       "--target", "es2022", "--module", "nodenext", "--types", "node", "--outDir", "out", "bot.ts"]


@pytest.fixture(scope="session")
def bot(spec: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """bot.ts compiled against the types generated from the spec."""
    folder = tmp_path_factory.mktemp("openapi-typescript")
    (folder / "node_modules").symlink_to(NODE_BIN.parent)
    (folder / "package.json").write_text('{"type": "module"}')
    shutil.copy(BOT, folder)
    node_tool("openapi-typescript", spec, "--output", "schema.d.ts", cwd=folder)  # as a new user runs it
    node_tool("tsc", *TSC, cwd=folder)
    return folder / "out" / "bot.js"


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_on_the_typescript_client_plays_to_the_end(bot: Path, server: str, name: str) -> None:
    done = subprocess.run(["node", bot, server, name], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    game = requests.get(f"{server}/v1/games/{done.stdout.strip()}", timeout=10).json()
    assert game["status"] == "finished" and game["result"]
