"""A player's mail address: made theirs and mailed a link that confirms it (nothing else is sent to
an address until it is confirmed)."""

from __future__ import annotations

import redis

from application.outbox import expires_in, mail_address
from events.seats import hash_token
from players.accounts import Player
from players.mail import CONFIRM_SECONDS, CONFIRMATIONS_PER_DAY, Mailboxes


def confirmation_link(public_url: str, token: str) -> str:
    """The web client's page that confirms an address: the token rides in the fragment, which reaches no server log."""
    return f"{public_url}/#confirm-mail={token}"


def ask_confirmation(client: redis.Redis, player: Player, address: str, public_url: str,
                     per_day: int = CONFIRMATIONS_PER_DAY) -> bool:
    """Make `address` the player's, unconfirmed, and mail it the link that confirms it; False past `per_day` asked today."""
    token = Mailboxes(client).ask_confirmation(player.id, address, per_day)
    if token is None:
        return False
    # the address is not the player's yet: the mail greets no one, and quotes the account's name as the player wrote it
    mail_address(client, address, "confirm_address", f"confirm-{hash_token(token)}", account=player.name,
                 link=confirmation_link(public_url, token), expires=expires_in(CONFIRM_SECONDS))
    return True
