"""Faults under load. While HTTP clients and bots play, the store, an API process and a worker
are each killed with kill -9 (and the store and the worker started again). Afterwards every
command answered 201 is in its stream, no stream has a gap or a duplicate, and every game
reaches its end: no bot move and no deadline was lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from bench.server import free_port
from events.envelope import Lifecycle
from events.store import EventStore
from runtime.embedded import EmbeddedRedis
from tests.conftest import Start
from tests.integration.clients import preferred
from tests.integration.conftest import wait_until_healthy

pytestmark = [pytest.mark.redis, pytest.mark.http]
ROOT = Path(__file__).parents[2]


class Player(threading.Thread):
    """Plays every seat of one game over HTTP, retrying each command with its idempotency key
    until the server answers it; keeps every 201 it gets."""

    def __init__(self, base: str, game: str, seats: int, options: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.base, self.accepted, self.error = base, [], None
        self.game_id = self.retry("POST", "/v1/games", json={"game": game, "seats": seats, "options": options}).json()["id"]
        self.tokens = [self.retry("POST", f"/v1/games/{self.game_id}/join", json={"name": f"p{seat}"}).json()["token"]
                       for seat in range(seats)]

    def retry(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        """The answer to a request sent until it gets one that is not about the server being down."""
        headers = kwargs.pop("headers", {}) | ({"Authorization": f"Bearer {token}"} if token else {})
        for _ in range(600):
            try:
                answer = requests.request(method, self.base + path, headers=headers, timeout=10, **kwargs)
                if answer.status_code not in (502, 503, 504):
                    assert answer.status_code < 500, answer.text
                    return answer
            except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                pass  # no answer, or one cut off by the killed process: the same as none
            time.sleep(0.05)
        raise AssertionError(f"{method} {path}: no answer")

    def run(self) -> None:
        try:
            while (game := self.retry("GET", f"/v1/games/{self.game_id}").json())["status"] == "active":
                seat = game["to_move"][0]
                legal = self.retry("GET", f"/v1/games/{self.game_id}/legal-commands", self.tokens[seat]).json()
                answer = self.retry("POST", f"/v1/games/{self.game_id}/commands", self.tokens[seat],
                                    json=preferred(legal["commands"])[0],
                                    headers={"Idempotency-Key": uuid.uuid4().hex, "If-Match": f'"{legal["version"]}"'})
                if answer.status_code == 201:
                    self.accepted.append(answer.json())
                else:
                    assert answer.status_code == 412, answer.text  # a bot or deadline moved first
        except BaseException as error:  # reported by the test
            self.error = error


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_nothing_answered_is_lost_and_every_game_ends(tmp_path: Path, start_worker: Start) -> None:
    store = EmbeddedRedis(tmp_path / "store")
    env = os.environ | {"MEEPLE_REDIS_URL": store.start(), "MEEPLE_RATE_PER_TOKEN": "off", "MEEPLE_RATE_PER_ADDRESS": "off",
                        "MEEPLE_GAMES_PER_ADDRESS": "off", "MEEPLE_REGISTRATIONS_PER_ADDRESS": "off"}
    port = free_port()
    api = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--no-worker", "--port", str(port),
                            "--workers", "2", "--data-dir", str(tmp_path / "var")], cwd=ROOT, env=env,
                           stdout=(tmp_path / "api.log").open("wb"), stderr=subprocess.STDOUT)
    worker = start_worker(store.url)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(base, api, tmp_path / "api.log")
        players = [Player(base, "taki", 2, {}) for _ in range(3)] + [Player(base, "bahama_taxi", 2, {"max_rounds": 12})]
        bots = [requests.post(f"{base}/v1/games", timeout=10, json={
            "game": game, "seats": seats, "options": options,
            "bots": [{"seat": seat, "level": "greedy"} for seat in range(seats)]}).json()["id"]
            for game, seats, options in [("taki", 2, {}), ("taki", 4, {}), ("bahama_taxi", 3, {"max_rounds": 10})]]
        # nobody plays this one: its first deadline makes the seat to move leave, which ends it
        abandoned = requests.post(f"{base}/v1/games", timeout=10, json={
            "game": "taki", "seats": 2, "turn_deadline": {"seconds": 8, "policy": "forfeit"}}).json()["id"]
        for seat in range(2):
            requests.post(f"{base}/v1/games/{abandoned}/join", json={"name": f"a{seat}"}, timeout=10)
        for player in players:
            player.start()

        time.sleep(2)
        os.kill(children(api.pid)[0], signal.SIGKILL)  # an API process; gunicorn starts another
        time.sleep(2)
        worker.kill()
        worker.wait()
        start_worker(store.url)
        time.sleep(2)
        store.kill()
        time.sleep(1)
        store.start()

        for player in players:
            player.join(timeout=240)
            assert not player.is_alive() and player.error is None, player.error
        client = redis.Redis.from_url(store.url)
        games = [player.game_id for player in players] + bots + [abandoned]
        events = EventStore(client)
        deadline = time.monotonic() + 120
        while unfinished := [game_id for game_id in games if events.games.get(game_id).status is not Lifecycle.FINISHED]:
            assert time.monotonic() < deadline, {game_id: (events.games.get(game_id), events.streams.read(game_id)[-1:])
                                                 for game_id in unfinished}
            time.sleep(0.5)

        for game_id in games:
            stored = events.streams.read(game_id)
            assert [event.version for event in stored] == list(range(1, len(stored) + 1))  # no gap, no duplicate
            assert events.games.get(game_id).version == len(stored)
        for player in players:
            stored = {event.version: event for event in events.streams.read(player.game_id)}
            for answer in player.accepted:
                for event in answer["events"]:
                    assert (stored[event["version"]].command_id, stored[event["version"]].type) == \
                        (event["command_id"], event["type"])
        assert sum(len(player.accepted) for player in players) > 50
        assert any(event.actor.startswith("deadline:") for event in events.streams.read(abandoned))
    finally:
        api.terminate()
        api.wait(timeout=30)
        store.stop()
