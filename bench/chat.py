"""A page of a game's chat read from a chat of 10 messages and from one of 10,000, on `meeple serve`
with its embedded store: the same page size, so the same time however long the chat is.

    python -m bench.chat [--reads 1000] [--sizes 10 10000]

For each chat, pages of 10 messages: GET /v1/games/{id}/chat/table (its first page and, for a longer
chat, a page from its middle and its last page) over HTTP, and ChatStore.page on the store alone, each the
median and 99th percentile of `reads` reads, in ms, and how many messages the page held (10, or the
run stops). The messages are written straight into the store (ChatStore.add, as the API writes them,
at the game's version), since one writer may send only 100 a minute."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import requests

from bench.server import Server
from events.chat import START, ChatStore

PAGE = 10  # messages a read asks for: the whole of the short chat, a page of the long one
TEXT = "Sorry, travelling till Friday; I'll play on the train if the signal holds."


def _fill(chat: ChatStore, game_id: str, version: int, size: int) -> list[str]:
    """Write `size` messages into the game's table room at its `version` (one past it would wait for a move
    before any reader sees it); their ids."""
    return [chat.add(game_id, "table", f"{n}: {TEXT}", "ann", n % 2, None, version).id for n in range(size)]


def _timed(read: Callable[[], object], reads: int) -> tuple[float, float]:
    """The median and 99th percentile of `reads` calls of `read`, in ms."""
    spent = []
    for _ in range(reads):
        begun = time.perf_counter()
        read()
        spent.append((time.perf_counter() - begun) * 1000)
    spent.sort()
    return statistics.median(spent), spent[min(len(spent) - 1, int(len(spent) * 0.99))]


def _game(http: requests.Session, url: str) -> tuple[str, int]:
    """A TAKI game under way, and its version."""
    game_id: str = http.post(f"{url}/v1/games", json={"game": "taki", "seats": 2}).json()["id"]
    for name in ("ann", "bo"):
        http.post(f"{url}/v1/games/{game_id}/join", json={"name": name}).raise_for_status()
    return game_id, http.get(f"{url}/v1/games/{game_id}").json()["version"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 10_000])
    args = parser.parse_args()
    server = Server(workers=1, no_worker=True)
    try:
        chat = ChatStore(server.redis, server.redis)
        with requests.Session() as http:
            print(f"page of {PAGE} messages (ms, median / p99 of {args.reads} reads)")
            print(f"{'messages':>9}  {'where':<6}  {'HTTP':>15}  {'store':>15}  {'held':>4}")
            for size in args.sizes:
                game_id, version = _game(http, server.url)
                ids = _fill(chat, game_id, version, size)
                pages = {"first": START, "middle": ids[len(ids) // 2], "last": ids[len(ids) - PAGE - 1]}
                for where, after in list(pages.items())[:1 if size <= PAGE else 3]:
                    path = f"{server.url}/v1/games/{game_id}/chat/table?after={after}&limit={PAGE}"
                    held = len(http.get(path).json()["messages"])
                    if held != PAGE or len(chat.page(game_id, "table", after, PAGE)) != PAGE:
                        raise SystemExit(f"the {where} page of {size:,} messages holds {held}, not {PAGE}")
                    over_http = _timed(lambda path=path: http.get(path).raise_for_status(), args.reads)
                    in_store = _timed(lambda after=after: chat.page(game_id, "table", after, PAGE), args.reads)
                    print(f"{size:>9,}  {where:<6}  {over_http[0]:>6.2f} / {over_http[1]:>6.2f}  "
                          f"{in_store[0]:>6.3f} / {in_store[1]:>6.3f}  {held:>4}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
