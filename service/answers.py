"""The JSON of the API's answers, written by orjson."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class Answers(DefaultJSONProvider):
    """Flask's JSON provider, writing compact answers with orjson exactly as Flask's own writer would."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        # keys sorted, dates and dataclasses by Flask's `default`; what orjson writes otherwise (an integer
        # beyond 64 bits, a lone surrogate, a key that is not a string) and any other form go to Flask
        if kwargs == {"separators": (",", ":")}:
            try:
                return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()
            except TypeError:  # orjson.JSONEncodeError is one
                pass
        return super().dumps(obj, **kwargs)
