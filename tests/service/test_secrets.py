"""No answer of the API to one seat, nor to a spectator, holds a card of another seat's hand or
the draw pile's order, until the game is finished. The answers' shapes are the contract tests'
concern; these thousands of answers are read unchecked."""

from __future__ import annotations

import random

import fakeredis
from hypothesis import given, settings
from hypothesis import strategies as st

from events.execute import Executor
from service.app import create_app
from tests.domain.taki.positions import card_ids
from tests.service.conftest import unlimited


def secrets_from(executor: Executor, game_id: str, seat: int | None) -> set[str]:
    """Other hands and the draw pile, less the cards turned face up and buried under it (§3.3)."""
    state = executor.load(game_id).state
    turned = {e.payload["card"] for e in executor.store.streams.read(game_id, limit=20) if e.type == "leading_card_turned"}
    hidden = {card.id for card in state.draw_pile} - turned
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {card.id for card in hand}
    return hidden


@settings(max_examples=4, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_no_answer_leaks_a_secret(seats: int, seed: int) -> None:
    app = create_app(unlimited(), client=fakeredis.FakeRedis())
    api, executor = app.test_client(), app.extensions["meeple"]
    chooser = random.Random(seed)
    game_id = api.post("/v1/games", json={"game": "taki", "seats": seats}).json["id"]
    tokens = [api.post(f"/v1/games/{game_id}/join", json={"name": f"p{s}"}).json["token"] for s in range(seats)]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    seen = 0
    while True:
        game = api.get(f"/v1/games/{game_id}").json
        if game["status"] == "finished":
            break
        for seat in (*range(seats), None):
            headers = auth[seat] if seat is not None else {}
            secret = secrets_from(executor, game_id, seat)
            answers = [api.get(f"/v1/games/{game_id}", headers=headers).json,
                       api.get(f"/v1/games/{game_id}/events?after={seen}&limit=1000", headers=headers).json]
            if seat is not None:
                answers.append(api.get(f"/v1/games/{game_id}/legal-commands", headers=headers).json)
            assert not card_ids(answers) & secret
        seen = game["version"]
        seat = chooser.choice(game["to_move"])
        legal = api.get(f"/v1/games/{game_id}/legal-commands", headers=auth[seat]).json["commands"]
        plays = [c for c in legal if c["type"].endswith(".play")]
        command = chooser.choice(plays if plays and chooser.random() < 0.9 else legal)
        reply = api.post(f"/v1/games/{game_id}/commands", json=command, headers=auth[seat])
        assert reply.status_code == 201
        if api.get(f"/v1/games/{game_id}").json["status"] != "finished":
            assert not card_ids(reply.json) & secrets_from(executor, game_id, seat)
