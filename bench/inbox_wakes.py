"""How many times the open inbox streams count their player's unread messages when one private
message is delivered: with `streams` players each holding an inbox stream open in one API process
(Flask's test client, on fakeredis, each stream read by a thread of its own), one player writes to
another, and the run prints how many counts the delivery caused (heartbeats set far apart, so that
only the message wakes anyone).

    python -m bench.inbox_wakes [--streams 50]"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any

import fakeredis

import application.conversations
from runtime.config import Config
from service.app import create_app

counted = 0
_lock = threading.Lock()
_counting = application.conversations.unread


def _unread(*args: Any) -> int:
    """application.conversations.unread, counted."""
    global counted
    with _lock:
        counted += 1
    return _counting(*args)


def _address(number: int) -> str:
    """A client address of its own for each player, whom no per-address limit then holds back."""
    return f"10.0.{number // 250}.{number % 250 + 1}"


def _follow(client: Any, token: str, opened: threading.Barrier) -> None:
    """Hold the player's inbox stream open, reading what it sends."""
    answer = client.get("/v1/players/me/inbox/stream", headers={"Authorization": f"Bearer {token}"}, buffered=False)
    chunks = iter(answer.response)
    next(chunks)
    next(chunks)  # the retry and the inbox: the stream is open
    opened.wait()
    for _ in chunks:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=50)
    streams = parser.parse_args().streams
    application.conversations.unread = _unread
    config = Config(rate_per_token=None, rate_per_address=None, games_per_address=None, stream_heartbeat_ms=60_000)
    client = create_app(config, client=fakeredis.FakeRedis()).test_client()
    players = [client.post("/v1/players", json={"name": f"p{number}"}, environ_base={"REMOTE_ADDR": _address(number)})
               .get_json() for number in range(streams + 1)]
    opened = threading.Barrier(streams + 1)
    for player in players[:streams]:
        threading.Thread(target=_follow, args=(client, player["token"], opened), daemon=True).start()
    opened.wait()
    time.sleep(0.5)
    before = counted
    writer, recipient = players[streams], players[0]
    client.post(f"/v1/players/me/conversations/{recipient['id']}", json={"text": "TAKI tonight?"},
                headers={"Authorization": f"Bearer {writer['token']}"})
    time.sleep(2)
    print(f"{streams} open inbox streams, one message delivered: {counted - before} counts of unread messages")


if __name__ == "__main__":
    main()
