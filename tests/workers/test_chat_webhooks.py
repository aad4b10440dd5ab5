"""Webhooks made for a group's chat: a real `meeple worker` sends Discord and Slack the body their
incoming webhooks take, a line with the game's link, which Discord's documented schema accepts."""

from __future__ import annotations

import json
import os

import jsonschema
import pytest

from application.chat_lines import body
from domain.core.rng import SeededRng
from events.execute import Executor
from players.accounts import PlayerStore
from players.webhooks import Webhooks
from tests.conftest import Start
from tests.workers.conftest import wait_for
from tests.workers.test_webhooks import Receiver, receiver  # noqa: F401 - the fixture, used by name

pytestmark = pytest.mark.redis

# Discord's Execute Webhook, "JSON/Form Params" (discord.com/developers/docs/resources/webhook#execute-webhook),
# as its table documents them: every field optional but one of content, embeds, poll or files; content up to
# 2000 characters; username an override of 1 to 80; allowed_mentions.parse of roles, users and everyone; flags
# only SUPPRESS_EMBEDS (1 << 2) and SUPPRESS_NOTIFICATIONS (1 << 12); no other field
DISCORD_EXECUTE_WEBHOOK = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "content": {"type": "string", "maxLength": 2000},
        "username": {"type": "string", "minLength": 1, "maxLength": 80},
        "avatar_url": {"type": "string"},
        "tts": {"type": "boolean"},
        "embeds": {"type": "array", "maxItems": 10, "items": {"type": "object"}},
        "allowed_mentions": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "parse": {"type": "array", "uniqueItems": True, "items": {"enum": ["roles", "users", "everyone"]}},
                "roles": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
                "users": {"type": "array", "maxItems": 100, "items": {"type": "string"}},
                "replied_user": {"type": "boolean"},
            },
        },
        "components": {"type": "array"},
        "attachments": {"type": "array"},
        "payload_json": {"type": "string"},
        "flags": {"enum": [0, 4, 4096, 4100]},
        "thread_name": {"type": "string"},
        "applied_tags": {"type": "array", "items": {"type": "string"}},
        "poll": {"type": "object"},
    },
    "anyOf": [{"required": ["content"]}, {"required": ["embeds"]}, {"required": ["poll"]}, {"required": ["attachments"]}],
}


def test_discord_and_slack_hear_a_line_with_the_games_link(
    executor: Executor, start_worker: Start, receiver: str, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    monkeypatch.setitem(os.environ, "MEEPLE_PUBLIC_URL", "https://play.example")
    redis = executor.store.redis
    ann = PlayerStore(redis).register("ann", "ann", "ann-token-0123456789")
    hooks = Webhooks(redis)
    hooks.add(ann.id, "discord", f"{receiver}/discord", "s" * 64, "discord")
    hooks.add(ann.id, "slack", f"{receiver}/slack", "t" * 64, "slack")
    hooks.add(ann.id, "json", f"{receiver}/json", "u" * 64)
    executor.store.games.create("c", "taki", {"first_seat": 0}, 2)
    executor.store.seats.claim("c", 0, "ann", "seat-token-ann", player_id=ann.id)
    executor.store.seats.claim("c", 1, "bo", "seat-token-bo")
    executor.start("c", SeededRng(3))
    start_worker()

    def bodies(path: str) -> list[dict[str, object]]:
        return [json.loads(sent) for at, _, sent in Receiver.received if at == path]

    assert wait_for(lambda: all(bodies(path) for path in ("/discord", "/slack", "/json")), timeout=30)
    [discord], [slack], [signed] = bodies("/discord"), bodies("/slack"), bodies("/json")
    jsonschema.validate(discord, DISCORD_EXECUTE_WEBHOOK)
    assert discord == {"content": "ann, your move in TAKI — https://play.example/games/c", "allowed_mentions": {"parse": []}}
    assert slack == {"text": "ann, your move in TAKI — <https://play.example/games/c>"}
    assert signed["kind"] == "your_turn" and signed["game_id"] == "c"


def test_a_name_pings_no_one_and_stays_text() -> None:
    notification = {"kind": "game_over", "game": "djambi", "game_id": "g"}
    turn = {"kind": "your_turn", "game": "taki", "game_id": "g"}
    long_name = "@everyone <b>" + "x" * 3000
    discord = body("discord", turn, long_name, "https://play.example")
    jsonschema.validate(discord, DISCORD_EXECUTE_WEBHOOK)
    assert discord["allowed_mentions"] == {"parse": []} and str(discord["content"]).endswith(" — https://play.example/games/g")
    assert body("slack", turn, "<!channel> & co", "https://x")["text"] == "&lt;!channel&gt; &amp; co, your move in TAKI — <https://x/games/g>"
    assert body("discord", notification, "ann", "https://x")["content"] == "Djambi is over — https://x/games/g"
    with pytest.raises(jsonschema.ValidationError):  # the schema does refuse what Discord would
        jsonschema.validate({"content": "x" * 2001}, DISCORD_EXECUTE_WEBHOOK)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"text": "slack's body"}, DISCORD_EXECUTE_WEBHOOK)


def test_a_name_is_no_markdown_and_every_kind_has_its_own_line() -> None:
    turn = {"kind": "your_turn", "game": "taki", "game_id": "g"}
    masked = "[ann](https://evil.example) **#1**"
    content = str(body("discord", turn, masked, "https://x")["content"])
    assert content == r"\[ann\]\(https\:\/\/evil\.example\) \*\*\#1\*\*, your move in TAKI — https://x/games/g"
    assert body("slack", turn, "<https://evil|ann> & co", "https://x")["text"] == (
        "&lt;https://evil|ann&gt; &amp; co, your move in TAKI — <https://x/games/g>")
    cancelled = {"kind": "game_cancelled", "game": "taki", "game_id": "g"}
    assert body("slack", cancelled, "ann", "https://x")["text"].startswith("TAKI was cancelled")
    with pytest.raises(ValueError, match="mention"):
        body("discord", {"kind": "mention", "game": "taki", "game_id": "g"}, "ann", "https://x")
