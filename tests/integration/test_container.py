"""The image as an orchestrator runs it: `meeple serve` stops, with every process it started,
within the 10 s it is given after SIGTERM, and the Dockerfile runs it as a user other than root,
checks its health on /v1/health and lets the signal reach it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]  # it ships no type information
import pytest
import requests
import yaml

from bench.server import free_port
from tests.integration.conftest import wait_until_healthy

ROOT = Path(__file__).parents[2]
STOP_SECONDS = 10  # what docker stop (and so most orchestrators' defaults) allows before kill -9


def running(process: psutil.Process) -> bool:
    """Whether the process still runs (a zombie has ended: only its exit status is left)."""
    try:
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


@pytest.mark.redis
@pytest.mark.http
def test_sigterm_stops_serve_and_everything_it_started_in_time(tmp_path: Path) -> None:
    """With an event stream open and an AI seat thinking (the longest a stop waits on), serve
    and all its descendants (gunicorn's workers, the worker and its job, the store) are gone
    within 10 s, and serve exits 0."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_REDIS_URL"}
    log = tmp_path / "serve.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port), "--data-dir", str(tmp_path / "var")],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process, log)
        assert requests.get(f"{url}/v1/health", timeout=5).json() == {"status": "ok"}
        bots: list[dict[str, Any]] = [
            {"seat": seat, "level": "search", "budget": {"seconds": 30, "iterations": 100_000}} for seat in range(2)]
        game = requests.post(f"{url}/v1/games", json={"game": "taki", "seats": 2, "bots": bots}, timeout=5).json()
        stream = requests.get(f"{url}/v1/games/{game['id']}/stream", stream=True, timeout=30)
        assert stream.status_code == 200
        serve, deadline = psutil.Process(process.pid), time.monotonic() + 20
        # the store, two API processes, the worker and its job (RQ runs each job in a child process)
        while len(descendants := serve.children(recursive=True)) < 5:
            assert time.monotonic() < deadline, "no AI seat started thinking"
            time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        returncode = process.wait(timeout=STOP_SECONDS)
        stopped_in = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    stream.close()
    assert returncode == 0, log.read_text()
    assert stopped_in < STOP_SECONDS
    assert [child for child in descendants if running(child)] == []


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (keyword, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", dockerfile)
    lines = (line.strip() for line in text.splitlines())
    return [(keyword.upper(), rest.strip()) for keyword, _, rest in
            (line.partition(" ") for line in lines if line and not line.startswith("#"))]


DOCKERFILE = instructions((ROOT / "Dockerfile").read_text())


def last(keyword: str) -> str:
    """The arguments of the last `keyword` instruction (the one that counts)."""
    found = [rest for name, rest in DOCKERFILE if name == keyword]
    assert found, f"the Dockerfile has no {keyword}"
    return found[-1]


def test_the_image_runs_as_a_user_other_than_root() -> None:
    assert last("USER").split(":")[0] not in ("root", "0")


def test_the_image_checks_its_health_on_the_health_endpoint() -> None:
    check = last("HEALTHCHECK")
    assert "/v1/health" in check
    assert all(f"--{option}=" in check for option in ("interval", "timeout", "start-period", "retries"))


def test_the_stop_signal_reaches_meeple_itself() -> None:
    """Exec form (JSON arrays): no shell stands between the signal and meeple, only tini, which
    passes it on."""
    assert json.loads(last("ENTRYPOINT")) == ["/usr/bin/tini", "--"]
    assert json.loads(last("CMD"))[:2] == ["meeple", "serve"]
    assert last("STOPSIGNAL") == "SIGTERM"


def test_the_compose_files_cluster_profile_runs_meeple_on_a_cluster_with_queues_apart() -> None:
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    nodes = [name for name, service in services.items() if "--cluster-enabled yes" in " ".join(service.get("command", []))]
    assert len(nodes) == 6 and all(services[name]["profiles"] == ["cluster"] for name in nodes)
    assert "--cluster-replicas 1" in " ".join(services["cluster-create"]["command"])
    for name in ("cluster-api", "cluster-worker"):
        settings = services[name]["environment"]
        assert settings["MEEPLE_REDIS_CLUSTER"] == "1" and settings["MEEPLE_REDIS_URL"].startswith("redis://node-")
        assert settings["MEEPLE_QUEUE_URL"] == "redis://cluster-queues:6379/0"
    assert all(services[name]["healthcheck"] == {"disable": True} for name in ("worker", "cluster-worker"))
