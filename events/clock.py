"""The store's clock: every time it writes is in milliseconds since the epoch."""

from __future__ import annotations

import time


def now() -> int:
    return int(time.time() * 1000)
