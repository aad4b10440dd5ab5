"""Imports over real HTTP: a padded import is refused by its event limit while the same API
process goes on answering its health check (issue 28, item 3)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.integration.conftest import serving
from tests.logs import entries, genuine_export, joined

pytestmark = pytest.mark.http


def test_a_padded_import_is_refused_by_its_limit_while_health_goes_on_answering(tmp_path: Path) -> None:
    header, events = entries(genuine_export("taki", 2, 5))
    noop = {"type": "turn_started", "schema_version": 1, "payload": {"seat": 0, "turn_no": 1}, "actor": "system", "time": 0}
    padded = events + [{"version": version, **noop} for version in range(len(events) + 1, 110_001)]
    body = joined(header, padded)
    assert len(body) > 10_000_000
    (tmp_path / "padded.jsonl").write_bytes(body)
    # sent by a process of its own, so that sending 14 MB does not hold up this one's probes
    post = ("import requests, sys, time; data = open(sys.argv[2], 'rb').read(); started = time.perf_counter(); "
            "answer = requests.post(sys.argv[1], data=data, headers={'Content-Type': 'application/x-ndjson'}, timeout=60); "
            "print(time.perf_counter() - started, answer.status_code, answer.text)")
    # one API process, so that the health checks share it with the import
    with serving(tmp_path, {}, "--workers", "1", "--no-worker") as url:
        waits: list[float] = []
        done = threading.Event()

        def probe() -> None:
            with requests.Session() as session:
                while not done.is_set():
                    started = time.perf_counter()
                    assert session.get(f"{url}/v1/health", timeout=10).status_code == 200
                    waits.append(time.perf_counter() - started)
                    time.sleep(0.005)

        prober = threading.Thread(target=probe)
        prober.start()
        try:
            time.sleep(0.1)
            sent = subprocess.run([sys.executable, "-c", post, f"{url}/v1/games/import", str(tmp_path / "padded.jsonl")],
                                  capture_output=True, text=True, timeout=120)
        finally:
            done.set()
            prober.join()
        took, status, answer = sent.stdout.split(" ", 2)
        assert status == "413" and json.loads(answer)["code"] == "log_too_long", sent.stdout + sent.stderr
        assert json.loads(answer)["limit"] == 100_000
        # answered while the import was read and refused; how soon is measured by `python -m bench.imports`,
        # not here, where other tests' processes share the cores
        assert len(waits) >= 3, (took, waits)
