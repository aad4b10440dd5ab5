"""The local cluster the cluster tests run on starts even when a port it picked is taken."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from bench import local_cluster
from bench.local_cluster import LocalCluster
from bench.server import free_port


def test_a_node_whose_port_is_taken_starts_again_on_another(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        ports: Iterator[int] = iter([taken.getsockname()[1]])
        monkeypatch.setattr(local_cluster, "free_port", lambda: next(ports, None) or free_port())
        with LocalCluster(masters=1, replicas=0) as cluster:
            assert cluster.nodes[0].port != taken.getsockname()[1]
            assert cluster.nodes[0].client.ping()
