"""What a group's chat hears of a notification: one line with the game's link ("ann, your move in
TAKI — <link>"), in the body Discord's or Slack's incoming webhook takes. A player's name is text:
Discord is told to ping no one whatever it holds, and Slack's control characters are escaped."""

from __future__ import annotations

from typing import Any

from application.letters import game_link, time_left
from domain import GAMES

FORMATS = ("meeple", "discord", "slack")  # a webhook's body: Meeple's signed JSON, or a chat's incoming webhook
DISCORD_MAX = 2000  # characters of a Discord message's content


def line(notification: dict[str, Any], name: str) -> str:
    """The notification in words, without its link."""
    title = GAMES[notification["game"]].title
    match notification["kind"]:
        case "your_turn":
            return f"{name}, your move in {title}"
        case "reminder":
            return f"{name}, {time_left(notification['deadline'])} left for your move in {title}"
        case "deadline_applied":
            return f"{name}, your time ran out in {title}"
        case "game_over":
            return f"{title} is over"
        case _:
            return f"{title} was cancelled: its seats were not all taken in time"


def body(form: str, notification: dict[str, Any], name: str, public_url: str) -> dict[str, Any]:
    """The JSON a chat's incoming webhook of `form` (discord, slack) takes for the notification."""
    said, link = line(notification, name), game_link(public_url, notification["game_id"])
    if form == "discord":
        return {"content": f"{said[:DISCORD_MAX - len(link) - 3]} — {link}", "allowed_mentions": {"parse": []}}
    escaped = said.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return {"text": f"{escaped} — <{link}>"}
