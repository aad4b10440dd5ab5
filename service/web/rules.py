"""Each game's rulebook as a page: its Markdown rendered to HTML, raw HTML in it shown as text, and
every heading anchored by its section number (`#s11.8` for "11.8 Two cabs"), so "§11.8" links there."""

from __future__ import annotations

import re
from functools import cache
from html import escape
from importlib.resources import files

from markdown_it import MarkdownIt
from markdown_it.token import Token

from domain import GAMES

# CommonMark with tables; "html": False keeps any raw HTML of a rulebook escaped, as text
MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
NUMBER = re.compile(r"(\d+(?:\.\d+)*)\.?\s")
PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} rules · Meeple</title>
  <link rel="stylesheet" href="/web/style.css">
  <link rel="icon" href="/web/favicon.svg" type="image/svg+xml">
</head>
<body>
  <header class="top"><a class="brand" href="/">Meeple</a></header>
  <main id="main"><article class="rulebook">
{body}</article></main>
  <footer class="bottom"><a href="/">Home</a> · <a href="/docs">API</a></footer>
</body>
</html>
"""


def anchor(heading: str) -> str:
    """A heading's id: `s11.8` for "11.8 Two cabs", `s1` for "1. Components", else its words joined by hyphens."""
    numbered = NUMBER.match(heading)
    if numbered:
        return f"s{numbered.group(1)}"
    return re.sub(r"[^a-z0-9]+", "-", heading.lower()).strip("-")


def anchored(tokens: list[Token]) -> list[Token]:
    """`tokens` with an id on every heading, the later of two alike numbered `-2`, `-3`."""
    seen: dict[str, int] = {}
    for opening, inline in zip(tokens, tokens[1:], strict=False):
        if opening.type == "heading_open":
            name = anchor(inline.content)
            seen[name] = seen.get(name, 0) + 1
            opening.attrSet("id", name if seen[name] == 1 else f"{name}-{seen[name]}")
    return tokens


@cache
def rules_page(game: str) -> str:
    """The rules page of `game` (a name of `GAMES`): its rulebook shipped beside its code, as HTML."""
    text = files(f"domain.{game}").joinpath("rulebook.md").read_text(encoding="utf-8")
    body = MARKDOWN.renderer.render(anchored(MARKDOWN.parse(text)), MARKDOWN.options, {})
    return PAGE.format(title=escape(GAMES[game].title), body=body)
