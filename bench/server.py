"""`meeple serve` on its embedded store, started for a benchmark as a user would start it."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import psutil
import redis

ROOT = Path(__file__).parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`meeple serve` with a fresh embedded store in a temporary folder; stopped on exit.
    Rate limits are off: a benchmark is one address making far more requests than a client may."""

    def __init__(self, workers: int = 2, no_worker: bool = False) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.folder / "serve.log"
        env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
        env |= {"MEEPLE_RATE_PER_TOKEN": "off", "MEEPLE_RATE_PER_ADDRESS": "off", "MEEPLE_GAMES_PER_ADDRESS": "off",
                "MEEPLE_REGISTRATIONS_PER_ADDRESS": "off", "MEEPLE_CHAT_PER_ADDRESS": "off"}
        command = [sys.executable, "-m", "cli.main", "serve", "--port", str(self.port),
                   "--workers", str(workers), "--data-dir", str(self.folder / "var")]
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(command + (["--no-worker"] if no_worker else []), cwd=ROOT, env=env,
                                            stdout=log, stderr=subprocess.STDOUT)
        self.redis_url = self._wait()
        self.redis = redis.Redis.from_url(self.redis_url)

    def _wait(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            if found := re.search(r"embedded store at (\S+)", self.log.read_text()):
                try:
                    with urllib.request.urlopen(f"{self.url}/v1/health", timeout=1):
                        return found.group(1).rstrip(",")
                except OSError:
                    pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"meeple serve did not start:\n{self.log.read_text()}")

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time spent so far by the server's parts: the API processes, the worker (reactor and
        jobs) and the store."""
        spent = {"api": 0.0, "worker": 0.0, "store": 0.0}
        for part, _, seconds in self._processes():
            spent[part] += seconds
        return spent

    def api_cpu_seconds(self) -> dict[int, float]:
        """CPU time spent so far by each API process (gunicorn's workers), by process id."""
        return {pid: seconds for part, pid, seconds in self._processes() if part == "api" and pid != self.process.pid}

    def api_connections(self) -> dict[int, int]:
        """The client connections each API process holds open now, by process id: whichever
        process accepts a connection serves every request sent over it."""
        held = {}
        for pid in self.api_cpu_seconds():  # its keys: the API processes
            try:
                held[pid] = sum(1 for connection in psutil.Process(pid).net_connections("tcp")
                                if connection.status == psutil.CONN_ESTABLISHED and connection.laddr.port == self.port)
            except psutil.NoSuchProcess:
                continue
        return held

    def _processes(self) -> Iterator[tuple[str, int, float]]:
        """Each process of the server: its part, its id and the CPU seconds it spent so far."""
        root = psutil.Process(self.process.pid)
        for process in [root, *root.children(recursive=True)]:
            try:
                command, times = " ".join(process.cmdline()), process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            part = "store" if "redis-server" in command else "worker" if "-m workers" in command else "api"
            yield part, process.pid, times.user + times.system

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()
