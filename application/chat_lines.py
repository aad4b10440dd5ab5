"""What a group's chat hears of a notification: one line with the game's link ("ann, your move in
TAKI — <link>"), in the body Discord's or Slack's incoming webhook takes. A player's name is text:
Discord is told to ping no one whatever it holds and its markdown in names is escaped, and so are
Slack's control characters."""

from __future__ import annotations

import re
from typing import Any

from application.letters import game_link, time_left
from domain import GAMES

FORMATS = ("meeple", "discord", "slack")  # a webhook's body: Meeple's signed JSON, or a chat's incoming webhook
DISCORD_MAX = 2000  # characters of a Discord message's content
# what Discord's markdown may read in a name (a masked link `[x](https://…)`, **bold**, # a heading):
# every ASCII punctuation mark, each of which a backslash before it shows as itself
DISCORD_MARKUP = re.compile(r"[!-/:-@\[-`{-~]")


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
        case "game_cancelled":
            return f"{title} was cancelled: its seats were not all taken in time"
    raise ValueError(f"no chat line for a notification of kind {notification['kind']!r}")


def body(form: str, notification: dict[str, Any], name: str, public_url: str) -> dict[str, Any]:
    """The JSON a chat's incoming webhook of `form` (discord, slack) takes for the notification."""
    link = game_link(public_url, notification["game_id"])
    if form == "discord":
        said = line(notification, DISCORD_MARKUP.sub(r"\\\g<0>", name))
        return {"content": f"{said[:DISCORD_MAX - len(link) - 3]} — {link}", "allowed_mentions": {"parse": []}}
    # Slack's own words: "&", "<" and ">" are its control characters, escaped so; its *bold* and
    # _italic_ have no escape, and change how a name looks, not what it links to or whom it pings
    said = line(notification, name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
    return {"text": f"{said} — <{link}>"}
