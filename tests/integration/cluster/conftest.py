"""A real Redis Cluster — 3 masters and 3 replicas from the embedded store's `redis-server` — with
the queues on a Redis server of their own, and `meeple serve` (its worker beside it) on both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.local_cluster import LocalCluster
from runtime.embedded import EmbeddedRedis
from tests.integration.conftest import serving


def cluster_settings(cluster: LocalCluster, queues: EmbeddedRedis, **more: str) -> dict[str, str]:
    """The settings that put `meeple serve` on the cluster, with the queues on `queues`."""
    return {"MEEPLE_REDIS_URL": cluster.url, "MEEPLE_REDIS_CLUSTER": "1", "MEEPLE_QUEUE_URL": queues.url} | more


@pytest.fixture(scope="session")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(masters=3, replicas=1) as started:
        yield started


@pytest.fixture(scope="session")
def queues(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path_factory.mktemp("queues")) as server:
        yield server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, cluster: LocalCluster, queues: EmbeddedRedis) -> Iterator[str]:
    """The base URL of `meeple serve` on the cluster (the suites of tests/integration run on it)."""
    data: Path = tmp_path_factory.mktemp("serve-cluster")
    with serving(data, cluster_settings(cluster, queues, MEEPLE_SWEEP_SECONDS="1")) as url:
        yield url
