"""A client of the real HTTP API whose every answer is checked against openapi.yaml."""

from __future__ import annotations

from typing import Any

import requests

from tests.contract import check_http_response


class Client:
    """A client of the API whose every answer is checked against openapi.yaml."""

    def __init__(self, http: requests.Session, base: str) -> None:
        self.http, self.base = http, base

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return check_http_response(self.http.request(method, self.base + path, headers=headers, timeout=30, **kwargs))

    def new_game(self, seats: int, game: str = "taki", **options: Any) -> tuple[str, list[str]]:
        game_id = self.call("POST", "/v1/games", json={"game": game, "seats": seats, "options": options}).json()["id"]
        tokens = [self.call("POST", f"/v1/games/{game_id}/join", json={"name": f"p{s}"}).json()["token"] for s in range(seats)]
        return game_id, tokens

    def all_events(self, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = self.call("GET", f"/v1/games/{game_id}/events?after={after}&limit=1000", token).json()
            events += page["events"]
            after = page["next"]
        return events


def preferred(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What a sensible random player sends: Djambi plays, Bahama Taxi pickups whenever it can."""
    for kinds in (("pick_up", "collect_from_god"), ("play", "move", "stay", "step", "place_police", "end_turn")):
        if chosen := [c for c in commands if c["type"].split(".", 1)[1] in kinds]:
            return chosen
    return commands
