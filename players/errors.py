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


class TokenLimitReached(PlayersError):
    """The player holds as many tokens as a player may hold."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a player holds at most {limit} tokens")
        self.limit = limit


class LastToken(PlayersError):
    """The player's only token, which may not be revoked: with no confirmed address to sign in by, they would be
    locked out for good."""

    def __init__(self) -> None:
        super().__init__("a player's only token is not revoked while they have no confirmed address")


class SignInLinkRefused(PlayersError):
    """A sign-in link that signs nobody in: `reason` is `link_used` or `link_expired` (unknown or past its time)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class VacationRefused(PlayersError):
    """A vacation longer than the days the player has left this year."""


class MailAddressTaken(PlayersError):
    """The mail address is another player's confirmed one: an address belongs to one account."""


class TooManyOpen(PlayersError):
    """A report refused as its reporter (`whose` is "reporter") or its client address ("address") holds `limit` open reports."""

    def __init__(self, whose: str, limit: int) -> None:
        super().__init__(f"The {whose} holds {limit} open reports.")
        self.whose, self.limit = whose, limit
