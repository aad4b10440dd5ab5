"""The JSON of the API's answers, written by orjson."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class Answers(DefaultJSONProvider):
    """Flask's JSON provider, its compact answers written by orjson (about five times faster than
    the standard library): keys sorted and dates and dataclasses written by Flask's own `default`,
    as Flask writes them. Anything orjson cannot write as the standard library does (an integer
    beyond 64 bits, a lone surrogate, a key that is not a string) and any other form (debug
    mode's indentation) is left to Flask's own writer."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs == {"separators": (",", ":")}:
            try:
                return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()
            except TypeError:  # orjson.JSONEncodeError is one
                pass
        return super().dumps(obj, **kwargs)
