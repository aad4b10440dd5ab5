"""A worker asked to stop while a job runs stops within JOB_STOP_SECONDS, killing the job."""

from __future__ import annotations

import os
import signal
import time

import pytest
import redis
from rq import Queue

from events import keys
from tests.conftest import Start
from tests.workers.conftest import wait_for
from workers.queues import JOB_STOP_SECONDS

pytestmark = pytest.mark.redis


def test_a_worker_asked_to_stop_kills_a_job_still_running_after_job_stop_seconds(
    real_redis: redis.Redis, start_worker: Start  # type: ignore[type-arg]
) -> None:
    worker = start_worker()
    job = Queue(keys.BOT_QUEUE, connection=real_redis).enqueue("time.sleep", 120, job_timeout=300)
    assert wait_for(lambda: job.get_status(refresh=True) == "started", timeout=30)
    asked = time.monotonic()
    os.killpg(worker.pid, signal.SIGTERM)
    worker.wait(timeout=JOB_STOP_SECONDS + 10)
    assert time.monotonic() - asked >= JOB_STOP_SECONDS - 1  # the job had its time to end
