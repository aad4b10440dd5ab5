"""The store's Lua scripts, shipped beside this module: each runs atomically in one game's slot."""

from __future__ import annotations

from importlib import resources

import redis
from redis.commands.core import Script


def register(client: redis.Redis, name: str) -> Script:
    """The script `name` (e.g. `append.lua`), ready to run on `client`."""
    return client.register_script(resources.files("events").joinpath(name).read_text())
