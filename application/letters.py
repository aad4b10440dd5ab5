"""Mail as it is sent: a kind's templates (application/templates/mail: `<kind>.txt`, whose first
line is the subject, and `<kind>.html`) rendered into a plain-text and an HTML part, with links
from the server's public URL and, for a kind the player chose, one-click unsubscribe (RFC 8058).
Words from people (names) are escaped in the HTML part, as every value there is."""

from __future__ import annotations

import json
import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from application.outbox import Mail
from domain import GAMES

_templates = Environment(loader=PackageLoader("application", "templates/mail"), autoescape=select_autoescape(["html"]),
                         undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def time_left(deadline_ms: int, now: float | None = None) -> str:
    """The time until `deadline_ms` in its two largest units, as people say it: `1 day 6 hours`."""
    return duration(int(deadline_ms - (time.time() if now is None else now) * 1000))


def duration(ms: int) -> str:
    """A length of time in its two largest units, as people say it: `1 day 6 hours`."""
    seconds = max(0, ms // 1000)
    days, rest = divmod(seconds, 86400)
    counts = ((days, "day"), (rest // 3600, "hour"), (rest % 3600 // 60, "minute"))
    said = [f"{count} {unit}{'s' if count != 1 else ''}" for count, unit in counts if count]
    return " ".join(said[:2]) or "less than a minute"


def ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def quoted(text: str) -> str:
    """Words from a person in quotes, their own quotes escaped, so that they read as quoted, not as the server's."""
    return json.dumps(text, ensure_ascii=False)


_templates.filters["left"] = time_left
_templates.filters["quoted"] = quoted
_templates.filters["duration"] = duration
_templates.filters["ordinal"] = ordinal


def game_link(public_url: str, game_id: str) -> str:
    return f"{public_url}/games/{game_id}"


def stop_link(public_url: str, token: str) -> str:
    """Where a mail client POSTs `List-Unsubscribe=One-Click` to stop a kind of mail."""
    return f"{public_url}/v1/mail/unsubscribe?token={token}"


def compose(mail: Mail, address: str, name: str, *, public_url: str, sender: str, stop_token: str | None) -> EmailMessage:
    """The message `mail` is, to `address` for the player `name`; `stop_token` (None for a mail always sent) unsubscribes."""
    stop = None if stop_token is None else stop_link(public_url, stop_token)
    context: dict[str, Any] = {"name": name, "settings_link": f"{public_url}/#mail", "stop_link": stop,
                               "deadline": None, "link": public_url}
    if "game_id" in mail.data:
        context |= {"link": game_link(public_url, mail.data["game_id"]), "title": GAMES[mail.data["game"]].title}
    if "tournament_id" in mail.data:
        context |= {"link": f"{public_url}/tournaments/{mail.data['tournament_id']}", "title": GAMES[mail.data["game"]].title}
    context |= mail.data
    subject, _, text = _templates.get_template(f"{mail.kind}.txt").render(context).partition("\n\n")
    message = EmailMessage()
    message["Subject"] = " ".join(subject.split())  # one line, whatever a name holds
    message["From"] = sender
    message["To"] = address
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid("meeple", urlsplit(public_url).hostname or "localhost")
    if stop is not None:
        message["List-Unsubscribe"] = f"<{stop}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(text)
    message.add_alternative(_templates.get_template(f"{mail.kind}.html").render(context), subtype="html")
    return message
