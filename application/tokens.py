"""The secrets the server hands out: bearer tokens, and ids that only who is told of them knows."""

from __future__ import annotations

import secrets


def new_token() -> str:
    """A bearer token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A new id of a game or a player: a token's first 16 characters, as hard to guess."""
    return new_token()[:16]
