"""The 52-area city (§2): adjacency from `board.json` (see its `source`), fares as shortest paths (§2.4)."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

Area = str  # rank + suit, as on the cards: AS, 10H, QC, 5D

_DATA: dict[str, Any] = json.loads((Path(__file__).parent / "board.json").read_text())

AREAS: tuple[Area, ...] = tuple(_DATA["areas"])
EDGES: tuple[tuple[Area, Area], ...] = tuple((a, b) for a, b in _DATA["edges"])
NEIGHBOURS: dict[Area, tuple[Area, ...]] = {
    area: tuple(sorted({b for a, b in EDGES if a == area} | {a for a, b in EDGES if b == area}, key=AREAS.index))
    for area in AREAS
}
DISTRICTS: dict[str, tuple[Area, ...]] = {suit: tuple(areas) for suit, areas in _DATA["districts"].items()}
DOWNTOWN: tuple[Area, ...] = tuple(_DATA["downtown"])
# Where each area's centre is drawn: the published v1.0 board, in grid units, origin at its centre, y down.
POSITIONS: dict[Area, tuple[float, float]] = {area: (x, y) for area, (x, y) in _DATA["grid_v1_0"].items()}


def _distances(start: Area) -> dict[Area, int]:
    found, queue = {start: 0}, deque([start])
    while queue:
        area = queue.popleft()
        for neighbour in NEIGHBOURS[area]:
            if neighbour not in found:
                found[neighbour] = found[area] + 1
                queue.append(neighbour)
    return found


DISTANCE: dict[Area, dict[Area, int]] = {area: _distances(area) for area in AREAS}


def adjacent(a: Area, b: Area) -> bool:
    return b in NEIGHBOURS[a]


def fare(origin: Area, destination: Area) -> int:
    """What a citizen pays: the length of the shortest path, whatever route the cab drove."""
    return DISTANCE[origin][destination]
