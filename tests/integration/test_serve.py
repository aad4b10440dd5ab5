"""`meeple serve` on the embedded store: it starts the store, starts it again when it dies, stops
it with itself (no orphan process, even after kill -9), and finds its data again on the next
start; its API processes share out the clients' connections."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import redis
import requests

from bench.server import Server, free_port
from cli.main import WORKER_NICENESS
from events.store import EventStore
from tests.integration.conftest import wait_until_healthy
from tests.integration.test_faults import Player
from tests.workers.conftest import wait_for

ROOT = Path(__file__).parents[2]

pytestmark = [pytest.mark.redis, pytest.mark.http]


def start(data: Path, *options: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """`meeple serve` on the embedded store in `data` (with `MEEPLE_*` settings `env`), answering; its
    output goes to serve.log beside `data`."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"} | (env or {})
    log = data.parent / "serve.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data-dir", str(data), *options],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    wait_until_healthy(url, process, log)
    return process, url


def store_processes(data: Path) -> list[str]:
    # Redis titles its process "redis-server unixsocket:<path>".
    listing = subprocess.run(["pgrep", "-f", f"unixsocket:{data.resolve()}/"], capture_output=True, text=True)
    return listing.stdout.split()


def gone(data: Path) -> bool:
    return wait_for(lambda: not store_processes(data), 15)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_the_store_stops_with_serve_and_keeps_its_data(tmp_path: Path, stop: signal.Signals) -> None:
    data = tmp_path / "var"
    process, url = start(data)
    try:
        assert store_processes(data)
        game_id = requests.post(f"{url}/v1/games", json={"game": "taki", "seats": 2}, timeout=5).json()["id"]
    finally:
        process.send_signal(stop)
        process.wait(timeout=20)
    assert gone(data), "the embedded store outlived meeple serve"
    if stop != signal.SIGKILL:  # stopped as asked, each process quietly
        assert "Traceback" not in (tmp_path / "serve.log").read_text()
    assert (data / "appendonlydir").is_dir()
    process, url = start(data)
    try:
        assert requests.get(f"{url}/v1/games/{game_id}", timeout=5).json()["status"] == "waiting"
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert gone(data)


def test_a_killed_embedded_store_is_started_again_and_loses_no_acknowledged_event(tmp_path: Path) -> None:
    data = tmp_path / "var"
    process, url = start(data)
    try:
        players = [Player(url, "taki", 2, {}) for _ in range(3)]
        for player in players:
            player.start()
        # each write flushed to the disk before it is answered: `everysec` answers writes it has not written yet
        # while a flush is slow, and a kill then loses them
        assert redis.Redis(unix_socket_path=str(data / "redis.sock")).config_get("appendfsync") == {"appendfsync": "always"}
        assert wait_for(lambda: sum(len(player.accepted) for player in players) >= 20, 60)
        killed = store_processes(data)
        os.kill(int(killed[0]), signal.SIGKILL)  # mid-game: the players keep sending, and retry what was not answered
        assert wait_for(lambda: store_processes(data) not in ([], killed), 30), "the embedded store was not started again"
        for player in players:
            player.join(timeout=240)
            assert not player.is_alive() and player.error is None, player.error
        assert requests.get(f"{url}/v1/health", timeout=5).status_code == 200
        events = EventStore(redis.Redis(unix_socket_path=str(data / "redis.sock")))
        for player in players:
            stored = {event.version: event for event in events.streams.read(player.game_id)}
            assert list(stored) == list(range(1, len(stored) + 1))
            for answer in player.accepted:
                for event in answer["events"]:
                    assert (stored[event["version"]].command_id, stored[event["version"]].type) == \
                        (event["command_id"], event["type"])
        assert "the embedded store died" in (tmp_path / "serve.log").read_text()
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert gone(data)


def test_a_store_that_cannot_be_started_again_makes_serve_exit_1(tmp_path: Path) -> None:
    data = tmp_path / "var"
    process, _ = start(data, env={"MEEPLE_STORE_RESTART_SECONDS": "2"})
    try:
        (data / "appendonlydir" / "appendonly.aof.manifest").write_text("not a manifest\n")  # read at the next start
        os.kill(int(store_processes(data)[0]), signal.SIGKILL)
        assert process.wait(timeout=60) == 1
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "the embedded store died and could not be started again in 2 s" in (tmp_path / "serve.log").read_text()
    assert gone(data)


def test_the_worker_beside_the_api_yields_the_cpu_to_it(tmp_path: Path) -> None:
    process, _ = start(tmp_path / "var")
    try:
        children = psutil.Process(process.pid).children(recursive=True)
        worker = next(child for child in children if "workers" in child.cmdline())
        api = [child for child in children if "serve" in child.cmdline()]
        assert api and all(child.nice() == 0 for child in api)
        assert worker.nice() == WORKER_NICENESS > 0
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_serve_starts_without_warnings(tmp_path: Path) -> None:
    """gevent warns of a module imported before its workers fork that took names from `ssl`."""
    process, url = start(tmp_path / "var", "--workers", "1")
    try:
        assert requests.get(f"{url}/v1/health", timeout=5).ok  # answered by the one worker, patched
    finally:
        process.terminate()
        process.wait(timeout=20)
    log = (tmp_path / "serve.log").read_text()
    assert "Booting worker" in log and "Warning" not in log, log


@pytest.mark.parametrize(("settings", "said"), [
    ({"MEEPLE_REDIS_CLUSTER": "1", "MEEPLE_REDIS_URL": "redis://127.0.0.1:7000"}, "MEEPLE_QUEUE_URL"),
    ({"MEEPLE_REDIS_CLUSTER": "1"}, "MEEPLE_REDIS_URL"),
    ({"MEEPLE_RATE_PER_TOKEN": "often"}, "requests/seconds"),
])
@pytest.mark.parametrize("command", ["serve", "worker"])
def test_settings_that_cannot_work_stop_meeple_with_a_line_saying_why(command: str, settings: dict[str, str],
                                                                     said: str) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MEEPLE_")} | settings
    done = subprocess.run([sys.executable, "-m", "cli.main", command], env=env, capture_output=True, text=True,
                          timeout=30, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.startswith("meeple: ") and said in done.stderr
    assert "Traceback" not in done.stderr


def test_clients_connecting_at_once_are_shared_out_between_the_api_processes() -> None:
    with Server(workers=2, no_worker=True) as server:
        assert wait_for(lambda: len(server.api_cpu_seconds()) == 2, 30)
        serving: set[int] = set()

        def both_serve() -> bool:  # each process has taken a connection
            with socket.create_connection(("127.0.0.1", server.port)) as probe:
                probe.sendall(b"GET /v1/health HTTP/1.1\r\nHost: meeple\r\n\r\n")
                probe.recv(1)
                serving.update(pid for pid, held in server.api_connections().items() if held)
            return len(serving) == 2
        assert wait_for(both_serve, 30)
        splits = []
        for _ in range(3):  # a process held up 20 ms or more by the machine misses a burst
            assert wait_for(lambda: sum(server.api_connections().values()) == 0, 30)
            clients = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(10)]  # kept open, like players'
            try:
                assert wait_for(lambda: sum(server.api_connections().values()) == 10, 30)
                splits.append(sorted(server.api_connections().values()))
            finally:
                for client in clients:
                    client.close()
            if splits[-1][0] >= 3:
                break
        assert splits[-1][0] >= 3, splits  # 5 each, but for a process slow to wake (all on one: 0/10)
