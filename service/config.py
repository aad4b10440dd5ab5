"""Settings, read once from `MEEPLE_*` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    redis_url: str | None = None  # None: `meeple serve` starts the embedded store
    data_dir: str = "var"  # where the embedded store keeps its data and append-only file
    max_body_bytes: int = 64 * 1024
    page_limit: int = 100  # the largest page of events or games one request returns

    @classmethod
    def from_env(cls) -> Config:
        env = os.environ
        return cls(
            redis_url=env.get("MEEPLE_REDIS_URL") or None,
            data_dir=env.get("MEEPLE_DATA_DIR", cls.data_dir),
            max_body_bytes=int(env.get("MEEPLE_MAX_BODY_BYTES", cls.max_body_bytes)),
            page_limit=int(env.get("MEEPLE_PAGE_LIMIT", cls.page_limit)),
        )
