"""The 9×9 board (§2): squares A1–I9, the maze E5, lines in the 8 queen directions."""

from __future__ import annotations

Square = int  # 0..80: (row - 1) * 9 + column, column A = 0

COLUMNS = "ABCDEFGHI"
SIZE = 9
SQUARES = range(SIZE * SIZE)
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
ORTHOGONAL = DIRECTIONS[:4]


def square(column: int, row: int) -> Square:
    """The square at 0-based `column` and 1-based `row`."""
    return (row - 1) * SIZE + column


def column_of(at: Square) -> int:
    return at % SIZE


def row_of(at: Square) -> int:
    return at // SIZE + 1


def name(at: Square) -> str:
    """`A1` … `I9`."""
    return _NAMED[at]


_NAMED = tuple(f"{COLUMNS[column_of(at)]}{row_of(at)}" for at in SQUARES)
NAMES = {name(at): at for at in SQUARES}
MAZE = NAMES["E5"]


def parse(text: str) -> Square:
    """The square named `text` (`e5` is read as `E5`); ValueError if there is none."""
    at = NAMES.get(text.strip().upper()) if isinstance(text, str) else None
    if at is None:
        raise ValueError(f"{text!r} is not a square: columns A to I, rows 1 to 9, as in E5")
    return at


def step(at: Square, direction: tuple[int, int]) -> Square | None:
    """The next square from `at` in `direction`, or None past the edge."""
    column, row = column_of(at) + direction[0], row_of(at) + direction[1]
    return square(column, row) if 0 <= column < SIZE and 1 <= row <= SIZE else None


def _ray(at: Square, direction: tuple[int, int]) -> tuple[Square, ...]:
    ray = []
    current = step(at, direction)
    while current is not None:
        ray.append(current)
        current = step(current, direction)
    return tuple(ray)


RAYS = tuple(tuple(ray for direction in DIRECTIONS if (ray := _ray(at, direction))) for at in SQUARES)
NEIGHBOURS = tuple(tuple(s for d in DIRECTIONS if (s := step(at, d)) is not None) for at in SQUARES)
ORTHOGONAL_NEIGHBOURS = tuple(tuple(s for d in ORTHOGONAL if (s := step(at, d)) is not None) for at in SQUARES)


def optional_name(at: Square | None) -> str | None:
    """`name(at)`, or None for no square."""
    return None if at is None else name(at)
