"""The workers' own errors."""

from __future__ import annotations


class DeliveryFailed(Exception):
    """A webhook that did not take a notification; raised so that RQ tries the delivery again."""
