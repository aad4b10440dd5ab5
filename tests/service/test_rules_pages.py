"""Each game's rules as a page: its rulebook as HTML, every numbered section anchored by its number
(`#s11.8`), every section an option cites among them, and raw HTML in a rulebook shown as text."""

from __future__ import annotations

import re
from importlib.resources import files

from domain import GAMES
from domain.core.options import describe_options
from service.web.rules import MARKDOWN, anchored
from tests.contract import ContractClient

NUMBERED = re.compile(r"^#+ (\d+(?:\.\d+)*)\.? ", re.MULTILINE)


def test_every_games_rules_page_anchors_each_numbered_section(api: ContractClient) -> None:
    for name in GAMES:
        answer = api.client.get(f"/rules/{name}")
        assert answer.status_code == 200 and answer.mimetype == "text/html", name
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
        page = answer.get_data(as_text=True)
        numbers = NUMBERED.findall(files(f"domain.{name}").joinpath("rulebook.md").read_text(encoding="utf-8"))
        assert len(numbers) > 10, name
        for number in numbers:
            assert f' id="s{number}"' in page, (name, number)
        assert "<script" not in page


def test_every_section_an_option_cites_has_its_anchor(api: ContractClient) -> None:
    for name, game in GAMES.items():
        page = api.client.get(f"/rules/{name}").get_data(as_text=True)
        cited = {section for option in describe_options(game.options_type) for section in re.findall(r"§(\d+(?:\.\d+)*)", option["description"])}
        assert cited, name
        for section in cited:
            assert f' id="s{section}"' in page, (name, section)


def test_raw_html_in_a_rulebook_is_shown_as_text() -> None:
    assert MARKDOWN.options["html"] is False
    html = MARKDOWN.renderer.render(anchored(MARKDOWN.parse("## 2.1 <b>Bold</b>\n\n<script>alert(1)</script>\n")), MARKDOWN.options, {})
    assert '<h2 id="s2.1">2.1 &lt;b&gt;Bold&lt;/b&gt;</h2>' in html
    assert "<script" not in html and "&lt;script&gt;" in html


def test_a_heading_without_a_number_is_anchored_by_its_words_and_twins_apart() -> None:
    html = MARKDOWN.render("# Board and fares\n\n## Setup\n\n### Setup\n")
    anchored_html = MARKDOWN.renderer.render(anchored(MARKDOWN.parse("# Board and fares\n\n## Setup\n\n### Setup\n")), MARKDOWN.options, {})
    assert "id=" not in html
    assert all(f'id="{name}"' in anchored_html for name in ("board-and-fares", "setup", "setup-2"))


def test_a_game_that_does_not_exist_has_no_rules_page(api: ContractClient) -> None:
    assert api.client.get("/rules/chess").status_code == 404
