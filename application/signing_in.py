"""Signing in anywhere: a player asks for a sign-in link by their confirmed address, and the
link, opened on a new device within its time, gives that device a token of its own.

The link is `<public URL>/sign-in#link=<secret>`: the secret rides in the fragment, which a browser
never sends, so it reaches no server's log and no Referer; the page it opens POSTs it with the
device's name (POST /v1/sign-ins) and keeps the token it is given."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from application.outbox import Mail, expires_in, queue_mail
from application.tokens import new_id, new_token
from players.accounts import Player, PlayerStore
from players.devices import HeldToken, PlayerTokens
from players.mail import Mailboxes
from players.sign_in import LINK_SECONDS, SignInLinks

SIGN_IN_ASKED = "sign_in_asked"  # a request on the outbox for a sign-in link to an address, not a mail itself


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A device signed in: its player, its new token (told once) and that token as the player's list shows it."""

    player: Player
    token: str
    held: HeldToken


def sign_in_link(public_url: str, secret: str) -> str:
    """The page that signs a device in with `secret`."""
    return f"{public_url}/sign-in#link={secret}"


def request_sign_in_link(client: redis.Redis, address: str) -> None:
    """Ask for a sign-in link to `address`: one step on the outbox, the same whatever the address, so that
    neither the answer nor its time tells whether it is a player's; the workers answer it (mail_sign_in_link)."""
    queue_mail(client, Mail(SIGN_IN_ASKED, key=f"sign-in-{new_id()}", to_address=address))


def mail_sign_in_link(client: redis.Redis, asked: Mail, public_url: str) -> None:
    """Answer a request for a sign-in link: mail a new one, under the request's key, if its address is a player's
    confirmed address and they were not mailed as many as an hour allows (players.sign_in.LINKS_PER_HOUR); else
    nothing."""
    player_id = Mailboxes(client).player_of(asked.to_address or "")
    secret = new_token()
    if player_id is None or not SignInLinks(client).issue(player_id, secret):
        return
    queue_mail(client, Mail("sign_in", key=asked.key, to_player=player_id,
                            data={"link": sign_in_link(public_url, secret), "expires": expires_in(LINK_SECONDS)}))


def revoke(client: redis.Redis, tokens: PlayerTokens, player_id: str, token_id: str) -> bool:
    """Revoke one of the player's tokens, whether they held it; their only one just when they have a confirmed
    address to sign in by again (else raises LastToken)."""
    return tokens.revoke(player_id, token_id, last=Mailboxes(client).of(player_id).confirmed)


def sign_in(client: redis.Redis, tokens: PlayerTokens, secret: str, device: str) -> SignedIn:
    """Use the link's `secret` up and give the device named `device` a new token of its player's.

    Raises SignInLinkRefused for a link used, expired or unknown; TokenLimitReached when the
    player holds as many tokens as they may (the link is then used: they revoke one and ask again)."""
    player_id = SignInLinks(client).redeem(secret)
    player = PlayerStore(client).get(player_id)
    assert player is not None, "a link is only issued to a registered player"
    token = new_token()
    return SignedIn(player, token, tokens.add(player_id, device, token))
