"""A bot on the client openapi-python-client generates from the served spec plays each game to its
end, with typed calls only; openapi-generator's Python models read every legal-commands answer it got."""

from __future__ import annotations

import functools
import importlib
import json
import random
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.clients.conftest import GAMES, MOVE_CAP, run

pytestmark = [pytest.mark.redis, pytest.mark.http]


@pytest.fixture(scope="session")
def meeple_client(spec: Path, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The package openapi-python-client makes of the spec, every operation and answer included
    (it warns of any it leaves out)."""
    folder = tmp_path_factory.mktemp("openapi-python-client")
    done = run(sys.executable, "-m", "openapi_python_client", "generate", "--path", spec, "--config",
               Path(__file__).with_name("python-client.yml"), "--output-path", folder / "meeple_client", "--meta", "none")
    assert "WARNING" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    importlib.import_module("meeple_client.models")
    return importlib.import_module("meeple_client")


@pytest.fixture(scope="session")
def legal_commands_model(spec: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The model openapi-generator's Python client reads a legal-commands answer into."""
    if not shutil.which("java"):
        pytest.fail("java is missing: `apt-get install default-jre-headless` (.ci/run does)")
    folder = tmp_path_factory.mktemp("openapi-generator")
    run(Path(sys.executable).with_name("openapi-generator-cli"), "generate", "-g", "python", "-i", spec,
             "-o", folder, "--package-name", "meeple_models", "--global-property", "models,modelDocs=false,modelTests=false")
    sys.path.insert(0, str(folder))
    return importlib.import_module("meeple_models.models.get_legal_commands200_response").GetLegalCommands200Response


def operation(client: ModuleType, name: str) -> Any:
    """The module of the operation `name` (its operationId in snake case), whatever its tag."""
    found = sorted(Path(client.__file__).parent.glob(f"api/*/{name}.py"))
    assert len(found) == 1, f"{name}: {found}"
    return importlib.import_module(f"meeple_client.api.{found[0].parent.name}.{name}")


def setup(client: ModuleType, name: str) -> tuple[Any, list[int]]:
    """The game `name` as the bot creates it, and the seats it plays (the others are the server's AI).
    Random TAKI players who forget "last card!" draw penalties and may play on for thousands of
    moves, so the rule is off."""
    m = client.models

    def ai(*seats: int) -> list[Any]:
        return [m.BotSeat(seat=seat, level="random") for seat in seats]

    return {
        "taki": (m.CreateTakiGame(game=m.CreateTakiGameGame.TAKI, seats=2,
                                  options=m.TakiOptions(draw_requires_no_legal_play=True,
                                                       last_card_rule=m.TakiOptionsLastCardRule.OFF)), [0, 1]),
        "djambi-4": (m.CreateDjambiGame(game=m.CreateDjambiGameGame.DJAMBI, seats=4,
                                        options=m.DjambiOptions(no_progress_limit=50), bots=ai(1, 3)), [0, 2]),
        "djambi-3": (m.CreateDjambiGame(game=m.CreateDjambiGameGame.DJAMBI, seats=3,
                                        options=m.DjambiOptions(no_progress_limit=50), bots=ai(2)), [0, 1]),
        "bahama-taxi": (m.CreateTaxiGame(game=m.CreateTaxiGameGame.BAHAMA_TAXI, seats=2,
                                         options=m.TaxiOptions(cabs_per_player=2, dice=True, max_rounds=20), bots=ai(1)), [0]),
    }[name]


def play(client: ModuleType, base: str, name: str) -> list[bytes]:
    """Play the game `name` to its end: each of the bot's seats sends one of its legal commands at
    random, as the typed command it was read into. Every legal-commands answer, as it came."""
    m, api = client.models, (lambda op: operation(client, op))
    anyone = client.Client(base_url=base, raise_on_unexpected_status=True)
    body, held = setup(client, name)
    game_id = api("create_game").sync(client=anyone, body=body).id
    seats = {seat: client.AuthenticatedClient(base_url=base, token=api("join_game").sync(
        game_id, client=anyone, body=m.JoinGame(name=f"bot {seat}", seat=seat)).token) for seat in held}
    answers: list[bytes] = []
    moves, rng = 0, random.Random()
    while (game := api("get_game").sync(game_id, client=anyone)).status == m.GameStatus.ACTIVE:
        assert moves < MOVE_CAP, f"{name} {game_id} is still going after {moves} moves"
        if not (ours := [seat for seat in game.to_move if seat in seats]):
            time.sleep(0.02)  # the server's AI is moving
        for seat in ours:
            answer = api("get_legal_commands").sync_detailed(game_id, client=seats[seat])
            assert answer.status_code == 200, answer.content
            answers.append(answer.content)
            if commands := answer.parsed.commands:
                sent = api("submit_command").sync_detailed(game_id, client=seats[seat], body=rng.choice(commands))
                assert sent.status_code == 201, sent.content
                moves += 1
    assert game.status == m.GameStatus.FINISHED, game.status
    return answers


@pytest.fixture(scope="session")
def played(meeple_client: ModuleType, server: str) -> Callable[[str], list[bytes]]:
    """The legal-commands answers of the Python bot's game of each setup (each played once)."""
    return functools.cache(lambda name: play(meeple_client, server, name))


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_on_the_openapi_python_client_plays_to_the_end(played: Callable[[str], list[bytes]], name: str) -> None:
    assert played(name)


@pytest.mark.parametrize("name", GAMES)
def test_openapi_generator_reads_every_legal_commands_answer(
        played: Callable[[str], list[bytes]], legal_commands_model: Any, name: str) -> None:
    for answer in played(name):
        assert legal_commands_model.from_json(answer).to_dict() == json.loads(answer)
