"""Bahama Taxi's city map on a phone, 375 px wide: no two areas overlap, no two pawns' tags overlap,
no tag covers an area's centre, and every area, lit or not, is a target of at least 24 × 24 px —
in games of 2, 4 and 8 seats, a two-cab game, and a city drawn with two pawns on every area (as
after an arrest in Contraband), the most its tags can ever crowd."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.integration.clients import Client
from tests.web.conftest import PHONE
from tests.web.test_bahama_taxi_table import seated_game

pytestmark = [pytest.mark.redis, pytest.mark.http]

TARGET = 24  # px, WCAG 2.2's minimum target size

BOXES = """(city) => {
  const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const centre = (node) => { const [l, t, r, b] = box(node.querySelector("circle")); return [(l + r) / 2, (t + b) / 2]; };
  const areas = [...city.querySelectorAll(".bt-area")];
  return {areas: areas.map(box), centres: areas.map(centre), tags: [...city.querySelectorAll(".bt-pawn")].map(box),
          lit: city.querySelectorAll(".bt-area[role=button]").length, scroll: document.documentElement.scrollWidth};
}"""

EVERY_AREA_TWICE = """async (city) => {
  const { cityMap } = await import("/web/js/tables/bahama_taxi_map.js");
  const board = await (await fetch("/v1/games/types/bahama_taxi/board")).json();
  const pawns = board.areas.flatMap((area, n) => [
    { area, seat: n % 8, tag: `${n % 8 + 1}S`, kind: "cab", name: "smuggler" },
    { area, seat: (n + 1) % 8, tag: `${(n + 1) % 8 + 1}P`, kind: "police", name: "police" }]);
  const open = new Map(board.areas.map((area) => [area, { label: area, choose: () => {} }]));
  city.replaceWith(cityMap(board, { open, pawns, waiting: new Map(board.areas.map((a) => [a, ["x", "y"]])),
                                    marked: new Set(), trails: [], picked: null }));
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes [left, top, right, bottom] share more than an edge (a tenth of a pixel)."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.1 and min(a[3], b[3]) - max(a[1], b[1]) > 0.1


def assert_legible(page: Page, path: Path, tags: int) -> None:
    """The map's boxes at 375 px keep apart and are large enough to touch; a screenshot at `path`."""
    page.set_viewport_size(PHONE)
    city = page.locator(".bt-map")
    city.scroll_into_view_if_needed()
    page.screenshot(path=str(path), full_page=True)
    found: dict[str, Any] = city.evaluate(BOXES)
    areas, centres, boxes = found["areas"], found["centres"], found["tags"]
    assert len(areas) == 52 and len(boxes) == tags and found["scroll"] <= PHONE["width"]
    small = [box for box in areas if box[2] - box[0] < TARGET or box[3] - box[1] < TARGET]
    assert not small, small
    assert not [(a, b) for i, a in enumerate(areas) for b in areas[i + 1:] if overlap(a, b)]
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if overlap(a, b)]
    assert not [(tag, c) for tag in boxes for c in centres if tag[0] < c[0] < tag[2] and tag[1] < c[1] < tag[3]]


@pytest.mark.parametrize(("seats", "cabs"), [(2, 1), (4, 1), (8, 1), (4, 2)])
def test_the_city_is_legible_and_touchable_on_a_phone(
        page: Page, api: Client, server: str, tmp_path: Path, seats: int, cabs: int) -> None:
    seated_game(page, api, server, seats, cabs_per_player=cabs)
    assert_legible(page, tmp_path / f"phone-{seats}x{cabs}.png", seats * cabs)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(tmp_path / f"desktop-{seats}x{cabs}.png"), full_page=True)


def test_two_pawns_on_every_area_keep_apart(page: Page, api: Client, server: str, tmp_path: Path) -> None:
    seated_game(page, api, server, 2, contraband=True)
    page.locator(".bt-map").evaluate(EVERY_AREA_TWICE)
    assert page.locator(".bt-map .bt-open").count() == 52
    assert_legible(page, tmp_path / "phone-crowded.png", 104)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(tmp_path / "desktop-crowded.png"), full_page=True)
