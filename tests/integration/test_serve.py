"""`meeple serve` on the embedded store: it starts the store, stops it with itself (no orphan
process, even after kill -9), and finds its data again on the next start."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import requests

from bench.server import free_port
from service.cli import WORKER_NICENESS
from tests.integration.conftest import wait_until_healthy

ROOT = Path(__file__).parents[2]

pytestmark = [pytest.mark.redis, pytest.mark.http]


def start(data: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """`meeple serve` on the embedded store in `data`, answering; its output goes to serve.log beside `data`."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
    log = data.parent / "serve.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir", str(data), *options],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    wait_until_healthy(url, process, log)
    return process, url


def store_processes(data: Path) -> list[str]:
    # Redis titles its process "redis-server unixsocket:<path>".
    listing = subprocess.run(["pgrep", "-f", f"unixsocket:{data.resolve()}/"], capture_output=True, text=True)
    return listing.stdout.split()


def gone(data: Path, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while store_processes(data):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


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
    assert (data / "appendonlydir").is_dir()
    process, url = start(data)
    try:
        assert requests.get(f"{url}/v1/games/{game_id}", timeout=5).json()["status"] == "waiting"
    finally:
        process.terminate()
        process.wait(timeout=20)
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
    done = subprocess.run([sys.executable, "-m", "service.cli", command], env=env, capture_output=True, text=True,
                          timeout=30, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.startswith("meeple: ") and said in done.stderr
    assert "Traceback" not in done.stderr


def test_a_taken_port_stops_serve_with_a_line_saying_why(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir",
                               str(tmp_path / "var")], env=env, capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert done.returncode == 1
    assert done.stderr == f"meeple: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_each_api_process_listens_on_a_socket_of_its_own_and_the_port_stays_held(tmp_path: Path) -> None:
    """With a socket each (SO_REUSEPORT), the kernel spreads connections between the processes;
    no other server may share the port, nor take it while the processes are replaced."""
    process, url = start(tmp_path / "var", "--workers", "2")
    try:
        port = int(url.rsplit(":", 1)[1])
        api = _api_listeners(process, port)
        assert all(len(sockets) == 1 for sockets in api.values()) and len(set.union(*api.values())) == 2
        env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
        second = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--data-dir",
                                 str(tmp_path / "other")], env=env, capture_output=True, text=True, timeout=30, cwd=ROOT)
        assert second.returncode == 1 and "Address already in use" in second.stderr
        process.send_signal(signal.SIGSTOP)  # no process is replaced while none listens
        try:
            processes = [psutil.Process(pid) for pid in api]
            for api_process in processes:
                api_process.kill()
            psutil.wait_procs(processes, timeout=10)
            with socket.socket() as intruder, pytest.raises(OSError, match="Address already in use"):
                intruder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                intruder.bind(("127.0.0.1", port))
        finally:
            process.send_signal(signal.SIGCONT)
        assert set(_api_listeners(process, port)).isdisjoint(api)
        assert requests.get(f"{url}/v1/health", timeout=10).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)


def _api_listeners(serve: subprocess.Popen[bytes], port: int, timeout: float = 30) -> dict[int, set[int]]:
    """The inodes of the sockets each API process listens on `port` with, once both listen."""
    deadline = time.monotonic() + timeout
    while True:
        listening = {child.pid: _listening_sockets(child.pid, port) for child in psutil.Process(serve.pid).children()}
        api = {pid: sockets for pid, sockets in listening.items() if sockets}
        if len(api) == 2 or time.monotonic() > deadline:
            assert len(api) == 2
            return api
        time.sleep(0.1)


def _listening_sockets(pid: int, port: int) -> set[int]:
    """The inodes of the sockets that process `pid` listens on `port` with."""
    inodes = {connection.fd for connection in psutil.Process(pid).net_connections("tcp")
              if connection.status == psutil.CONN_LISTEN and connection.laddr.port == port}
    return {os.stat(f"/proc/{pid}/fd/{fd}").st_ino for fd in inodes}
