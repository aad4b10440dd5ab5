"""Who asks, as the application's operations know a caller (application.lobby.Caller): the
registered player the request's bearer token names, the admin token, and the API's bounds on
the games a client address creates and on the invitations a stranger sends."""

from __future__ import annotations

from flask import current_app

from service import auth, limits
from service.api.context import executor, players


class RequestCaller:
    """The caller of the request being served."""

    def creator(self, reserving: bool) -> str | None:
        """The registered player whose token the request sends, if any: who creates the game.
        Reserving a seat for a player needs one (401 otherwise), so that every invitation has a
        sender."""
        token = auth.bearer_token()
        found = None if token is None else players().by_token(token)
        if reserving and found is None:
            raise auth.unauthorized("token_missing" if token is None else "token_unknown",
                                    "Reserving a seat for a player needs the creator's player token: "
                                    "send 'Authorization: Bearer <player token>'.")
        return None if found is None else found.id

    def is_admin(self) -> bool:
        return auth.is_admin()

    def count_game(self) -> None:
        """Count one more game created from the request's client address (429 past
        MEEPLE_GAMES_PER_ADDRESS)."""
        limits.limit_games(executor().store.redis, current_app.config["MEEPLE_GAMES_PER_ADDRESS"])

    def count_invitations(self, strangers: list[str]) -> None:
        """Count one more invitation from a stranger to each of `strangers` (429 past
        MEEPLE_INVITATIONS_PER_DAY)."""
        limits.limit_invitations(executor().store.redis, strangers, current_app.config["MEEPLE_INVITATIONS_PER_DAY"])
