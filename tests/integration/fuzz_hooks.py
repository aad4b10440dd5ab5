"""Hooks for `schemathesis run` against a live server (see test_fuzzing.py): the tokens of
every seat taken so far, a game in play for operations that need one, a token the player holds
for those that rename or revoke one, and, about half the time, a sensible request (a real game,
a plain name, a command the game lists as legal, from the seat that may send it) so that chains
of calls reach into games in play; the player the chains write as is unmuted after each mute. A seat is given
up, or its token replaced, only in a lobby of its own, so that no chain's game loses the seats it is
filling or the tokens it plays with."""

from __future__ import annotations

import os
import time
from typing import Any

import requests
import schemathesis
from schemathesis import Case

URL = os.environ["MEEPLE_FUZZ_URL"]
ADMIN_TOKEN = os.environ["MEEPLE_FUZZ_ADMIN_TOKEN"]  # the server's MEEPLE_ADMIN_TOKEN
TOKENS: dict[str, list[str]] = {}  # game id → its seats' tokens, as they are taken
SENSIBLE_GAMES = [{"game": "taki", "seats": 2}, {"game": "djambi", "seats": 3}, {"game": "bahama_taxi", "seats": 2}]

schemathesis.serializer.alias("application/x-ndjson", "text/plain")  # a game log is text, one event a line


def _table() -> tuple[str, str]:
    """A TAKI game in play and a registered player's token."""
    game_id = requests.post(f"{URL}/v1/games", json={"game": "taki", "seats": 2}, timeout=10).json()["id"]
    TOKENS[game_id] = [requests.post(f"{URL}/v1/games/{game_id}/join", json={"name": name}, timeout=10).json()["token"]
                       for name in ("ann", "bo")]
    return game_id, requests.post(f"{URL}/v1/players", json={"name": "cy"}, timeout=10).json()["token"]


TABLE, PLAYER = _table()
PLAYER_ID = requests.get(f"{URL}/v1/players/me", headers={"Authorization": f"Bearer {PLAYER}"}, timeout=10).json()["id"]


@schemathesis.auth(refresh_interval=None, retry_on=[])
class Tokens:
    """A player's token for /v1/players/me, the tournaments, a report of a player and as a new game's creator (who may
    reserve seats), none to join (a seat is taken anonymously), the token a stream ticket's body asks for, else the
    first seat's of the game in the path."""

    def get(self, case: Case, ctx: object) -> str | None:
        operation = case.operation.definition.raw.get("operationId")
        if case.path.startswith(("/v1/players/me", "/v1/tournaments")) or operation in ("createGame", "reportPlayer"):
            return PLAYER
        if case.path.startswith("/v1/admin/"):
            return ADMIN_TOKEN
        if operation == "joinGame":
            return None
        if operation == "createStreamTicket":
            inbox = isinstance(case.body, dict) and case.body.get("stream") == "inbox"
            return PLAYER if inbox else TOKENS[TABLE][0]
        return TOKENS.get((case.path_parameters or {}).get("game_id", ""), [None])[0]

    def set(self, case: Case, token: str | None, ctx: object) -> None:
        if token is not None:  # else the request goes without one, as the spec allows where it does
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@schemathesis.hook
def map_path_parameters(ctx: object, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
    if path_parameters and str(path_parameters.get("game_id", "")).isalnum():
        path_parameters["game_id"] = TABLE  # a real game about half the time
    return path_parameters


def _lobby() -> tuple[str, str]:
    """A game waiting for players, and the token of the one seat taken in it."""
    game_id = requests.post(f"{URL}/v1/games", json={"game": "taki", "seats": 2}, timeout=10).json()["id"]
    return game_id, requests.post(f"{URL}/v1/games/{game_id}/join", json={"name": "dee"}, timeout=10).json()["token"]


def _spare_token() -> str:
    """The id of a token made now for the player, one of the ids their list of tokens would show."""
    return requests.post(f"{URL}/v1/players/me/tokens", json={"name": "spare"},
                         headers={"Authorization": f"Bearer {PLAYER}"}, timeout=10).json()["id"]


@schemathesis.hook
def before_call(ctx: object, case: Case, kwargs: dict[str, Any]) -> None:
    if case.operation.definition.raw.get("operationId") in ("renameToken", "revokeToken"):
        # about half the time a token the player holds (never the one the requests send), unless the request is
        # about bad credentials
        if len(case.path_parameters["token_id"]) % 2 == 0 and (case.headers or {}).get("Authorization") == f"Bearer {PLAYER}":
            case.path_parameters = {**case.path_parameters, "token_id": _spare_token()}
        return
    if case.operation.definition.raw.get("operationId") == "unblockPlayer":
        # a block is removed where there is one: schemathesis takes a player just registered for the
        # block to remove (the path names the player, not the block), so the player is blocked first
        requests.put(f"{URL}/v1/players/me/blocks/{case.path_parameters['player_id']}",
                     headers={"Authorization": f"Bearer {PLAYER}"}, timeout=10)
        return
    if case.operation.definition.raw.get("operationId") in ("leaveGame", "replaceSeatToken") \
            and case.path_parameters["game_id"] in TOKENS:
        game_id, token = _lobby()
        ours = (case.headers or {}).get("Authorization") == f"Bearer {TOKENS[case.path_parameters['game_id']][0]}"
        case.path_parameters = {**case.path_parameters, "game_id": game_id}
        if ours:  # a request about bad credentials keeps them
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        return
    pick = len(repr(case.body))
    if pick % 2:
        return
    match case.operation.definition.raw.get("operationId"):
        case "createGame":
            case.body = SENSIBLE_GAMES[pick // 2 % len(SENSIBLE_GAMES)]
        case "joinGame":  # a seat of a game still waiting for players, which TABLE (full) is not
            case.body = {"name": "fuzz"}
            if case.path_parameters["game_id"] == TABLE:
                case.path_parameters = {**case.path_parameters, "game_id": _lobby()[0]}
        case "createStreamTicket":
            case.body = {"stream": "game", "game_id": TABLE}
        case "createTournament":  # one that starts in an hour, which the chains then read and enter
            case.body = {"name": "fuzz cup", "game": "taki", "seats": 2, "format": "round_robin",
                         "starts": int(time.time() * 1000) + 3_600_000, "turn_deadline": {"seconds": 60, "policy": "forfeit"}}
        case "submitCommand":
            game_id = case.path_parameters["game_id"]
            ours = {f"Bearer {token}" for token in TOKENS.get(game_id, [])}
            if (case.headers or {}).get("Authorization") not in ours:
                return  # a request about bad credentials keeps them
            for token in TOKENS[game_id]:
                legal = requests.get(f"{URL}/v1/games/{game_id}/legal-commands",
                                     headers={"Authorization": f"Bearer {token}"}, timeout=10)
                if legal.status_code == 200 and legal.json()["commands"]:
                    kept = {name: value for name, value in (case.headers or {}).items() if name.lower() != "if-match"}
                    case.headers = kept | {"Authorization": f"Bearer {token}"}  # no stale If-Match: the command is for now
                    case.body = legal.json()["commands"][0]
                    return


@schemathesis.hook
def after_call(ctx: object, case: Case, response: Any) -> None:
    with open(os.environ["MEEPLE_FUZZ_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{case.operation.definition.raw.get('operationId')} {response.status_code}\n")
    if case.operation.definition.raw.get("operationId") in ("mutePlayer", "muteWriter") and response.status_code == 200:
        # the player whose token the chains write with is never left muted: its writes after would all be 403
        requests.delete(f"{URL}/v1/admin/mutes/{PLAYER_ID}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10)
    if case.operation.definition.raw.get("operationId") == "joinGame" and response.status_code == 201:
        joined = response.json()
        if joined["token"] is not None:  # an AI seat has none
            TOKENS.setdefault(joined["game_id"], []).append(joined["token"])
