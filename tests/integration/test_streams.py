"""Live event streams over real HTTP: every event once and in order across a reconnect, no
secret to a spectator, many open streams beside a game being played."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import requests

from tests.integration.clients import Client, preferred
from tests.sse import Message, messages

pytestmark = [pytest.mark.redis, pytest.mark.http]


def open_stream(base: str, game_id: str, token: str | None = None, last: str | None = None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if last is not None:
        headers["Last-Event-ID"] = last
    answer = requests.get(f"{base}/v1/games/{game_id}/stream", headers=headers, stream=True, timeout=60)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/event-stream")
    return answer


def read(answer: requests.Response) -> Iterator[Message]:
    return messages(answer.iter_lines(decode_unicode=True))


def play_to_end(client: Client, game_id: str, tokens: list[str], seed: int = 1) -> list[float]:
    """Random sensible moves until the game is over; how long each command took to answer."""
    chooser, took = random.Random(seed), []
    game = client.call("GET", f"/v1/games/{game_id}").json()
    while game["status"] == "active":
        seat = game["to_move"][0]
        legal = client.call("GET", f"/v1/games/{game_id}/legal-commands", tokens[seat]).json()
        started = time.monotonic()
        answer = client.call("POST", f"/v1/games/{game_id}/commands", tokens[seat],
                             json=chooser.choice(preferred(legal["commands"])))
        took.append(time.monotonic() - started)
        assert answer.status_code == 201, answer.json()
        game = client.call("GET", f"/v1/games/{game_id}").json()
    return took


def test_a_stream_delivers_every_event_once_in_order_across_a_reconnect(client: Client) -> None:
    game_id, tokens = client.new_game(3)
    received: list[Message] = []

    def follow() -> None:
        first = open_stream(client.base, game_id, tokens[0])
        for message in read(first):
            received.append(message)
            if len(received) == 40:
                first.close()  # the connection drops mid-game
                break
        for message in read(open_stream(client.base, game_id, tokens[0], last=received[-1].id)):
            received.append(message)

    follower = threading.Thread(target=follow)
    follower.start()
    play_to_end(client, game_id, tokens)
    follower.join(timeout=60)
    assert not follower.is_alive()
    *events, end = received
    log = client.all_events(game_id, tokens[0])
    assert [m.id for m in events] == [str(e["version"]) for e in log] and end.event == "end"
    assert [(m.data["type"], m.data["command_id"]) for m in events] == [(e["type"], e["command_id"]) for e in log]
    own_hand = next(m.data for m in events if m.data["type"] == "hand_dealt" and m.data["payload"]["seat"] == 0)
    assert "?" not in own_hand["payload"]["cards"]


def secrets_shown(message: Message) -> bool:
    payload = message.data["payload"]
    if message.data["type"] in ("deck_shuffled", "discard_reshuffled"):
        return set(payload["order"]) != {"?"}
    if message.data["type"] in ("hand_dealt", "cards_drawn"):
        return bool(payload["cards"]) and set(payload["cards"]) != {"?"}
    return False


def test_a_spectators_stream_holds_no_secret(client: Client) -> None:
    game_id, tokens = client.new_game(2)
    stream = open_stream(client.base, game_id)
    play_to_end(client, game_id, tokens, seed=2)
    *events, _ = list(read(stream))
    log = client.all_events(game_id)
    last_command = log[-1]["command_id"]
    during = [m for m in events if m.data["command_id"] != last_command]  # sent while the game was on
    assert len(events) == len(log) and during and not any(secrets_shown(m) for m in during)


def test_two_hundred_open_streams_do_not_hold_up_commands(client: Client) -> None:
    game_id, tokens = client.new_game(2)
    streams = [open_stream(client.base, game_id) for _ in range(200)]
    counts: list[int] = []

    def drain(answer: requests.Response) -> None:
        counts.append(sum(1 for message in read(answer) if message.event == "message"))

    readers = [threading.Thread(target=drain, args=(answer,)) for answer in streams]
    for reader in readers:
        reader.start()
    took = play_to_end(client, game_id, tokens, seed=3)
    for reader in readers:
        reader.join(timeout=60)
    version = client.call("GET", f"/v1/games/{game_id}").json()["version"]
    assert counts == [version] * 200
    print(f"\n{len(took)} commands beside 200 open streams: median {sorted(took)[len(took) // 2] * 1000:.1f} ms, "
          f"slowest {max(took) * 1000:.1f} ms")


def test_the_inbox_stream_tells_a_player_each_time_their_turn_comes(client: Client) -> None:
    player = client.call("POST", "/v1/players", json={"name": "ann"}).json()
    game_id = client.call("POST", "/v1/games", json={"game": "taki", "seats": 2, "options": {"first_seat": 1}}).json()["id"]
    client.call("POST", f"/v1/games/{game_id}/join", player["token"], json={"name": "ann"})
    answer = requests.get(f"{client.base}/v1/players/me/inbox/stream", stream=True, timeout=60,
                          headers={"Authorization": f"Bearer {player['token']}"})
    assert answer.status_code == 200
    inbox = read(answer)
    first = next(inbox)
    assert first.event == "inbox" and [entry["game"]["id"] for entry in first.data["games"]] == [game_id]
    assert first.data["games"][0]["game"]["status"] == "waiting"
    other = client.call("POST", f"/v1/games/{game_id}/join", json={"name": "bob"}).json()["token"]
    started = next(inbox)
    assert started.event == "game" and started.data["game"]["status"] == "active" and not started.data["your_turn"]
    client.call("POST", f"/v1/games/{game_id}/commands", other, json={"type": "draw"})
    turn = next(inbox)
    assert turn.data["your_turn"] and turn.data["seat"] == 0 and turn.data["game"]["id"] == game_id
    client.call("POST", f"/v1/games/{game_id}/commands", player["token"], json={"type": "draw"})
    assert not next(inbox).data["your_turn"]
    answer.close()


def test_the_inbox_stream_tells_an_invitation_taken_elsewhere_and_one_declined(client: Client) -> None:
    host, guest = (client.call("POST", "/v1/players", json={"name": name}).json() for name in ("gil", "fay"))
    answer = requests.get(f"{client.base}/v1/players/me/inbox/stream", stream=True, timeout=60,
                          headers={"Authorization": f"Bearer {guest['token']}"})
    inbox = read(answer)
    assert next(inbox).data == {"games": [], "tournaments": [], "unread_messages": 0}
    games = [client.call("POST", "/v1/games", host["token"], json={
        "game": "taki", "seats": 3, "reserved": [{"seat": 1, "player": guest["id"]}]}).json()["id"] for _ in range(2)]
    invited = [next(inbox), next(inbox)]
    assert [(m.event, m.data["game"]["id"], m.data["invitation"]) for m in invited] == [("game", g, 1) for g in games]
    client.call("POST", f"/v1/games/{games[0]}/join", guest["token"], json={"name": "fay"})  # from another device
    taken = next(inbox)
    assert (taken.event, taken.data["game"]["id"], taken.data["seat"], taken.data["invitation"]) == ("game", games[0], 1, None)
    client.call("DELETE", f"/v1/players/me/invitations/{games[1]}", guest["token"])
    gone = next(inbox)
    assert (gone.event, gone.data) == ("gone", {"game_id": games[1]})
    answer.close()
