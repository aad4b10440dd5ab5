"""The IANA time zones a player's weekends may fall in: the host's database read once, less the
names that are no place (`localtime`, the host's own zone, which a log would replay differently
elsewhere; `posixrules`; `Factory`)."""

from __future__ import annotations

import zoneinfo
from functools import cache

NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})


@cache
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) - NOT_PLACES


def known(name: object) -> bool:
    """Whether `name` is an IANA time zone of a place."""
    return isinstance(name, str) and name in _zones()
