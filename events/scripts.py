"""The store's Lua scripts, shipped beside this module: each runs atomically in one game's slot."""

from __future__ import annotations

from importlib import resources

import redis
from redis.commands.core import Script


def source(name: str) -> str:
    """The text of the script `name`, for an EVAL queued on a pipeline (a cluster's runs no registered script)."""
    return resources.files("events").joinpath(name).read_text()


def register(client: redis.Redis, name: str) -> Script:
    """The script `name` (e.g. `append.lua`), ready to run on `client`."""
    return client.register_script(source(name))
