"""The players' own errors, each a PlayersError."""

from __future__ import annotations

from domain.core.errors import MeepleError


class PlayersError(MeepleError):
    """An error the players' layer raises on purpose, as opposed to a bug."""


class UrlInvalid(PlayersError):
    """A webhook URL that cannot be read; the message says why."""


class AddressRefused(PlayersError):
    """The webhook's host is, or resolves only to, an address that is not public."""


class WebhookLimitReached(PlayersError):
    """The player has as many webhooks as a player may have."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a player has at most {limit} webhooks")
        self.limit = limit
