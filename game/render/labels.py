"""Placing labels so that none overprints another: the names of models, their state
markers and the heights of scenery, on the window's table and on every picture.

Each label asks for a spot near its anchor (`Want`); `place` takes them in order and
gives each the first candidate spot that stays inside the bounds, off every base and
clear of the labels placed before it: beside the base first (below, above, right,
left, the diagonals), then a step further out with a leader line back to the base.
A label with no room is left out (the table zoomed out too far for it), never
drawn over another. Plain geometry on pixel rectangles, so tests can check it.

No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, width, height (pixels)

GAP = 2.0  # pixels between a base and its label
RINGS = 3  # steps further out (with a leader line) before a label is left out
# Directions around a base, in the order they are tried: below, above, right, left,
# then the diagonals.
DIRECTIONS: tuple[Point, ...] = (
    (0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Want:
    """A label of `size` pixels for `anchor`, kept `clear` pixels from it (the base's
    radius). `spots` are centres to try first (a height written inside its piece)."""

    key: str
    text: str
    size: tuple[int, int]
    anchor: Point
    clear: float = 0.0
    kind: str = "model"  # model | marker | scenery
    spots: tuple[Point, ...] = ()
    px: int = 0  # its font's size (0: the size for its kind at this zoom)


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a label went; `leader`: drawn away from its base, with a line back."""

    want: Want
    box: Box
    leader: bool = False

    @property
    def text(self) -> str:
        return self.want.text

    @property
    def centre(self) -> Point:
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)


def overlaps(a: Box, b: Box, margin: float = 0.0) -> bool:
    """True when two boxes share any area (touching edges do not)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return (
        ax < bx + bw + margin and bx < ax + aw + margin
        and ay < by + bh + margin and by < ay + ah + margin
    )  # fmt: skip


def hits_circle(box: Box, circle: tuple[float, float, float]) -> bool:
    """True when the box reaches into the circle (centre x, y and radius)."""
    x, y, w, h = box
    cx, cy, r = circle
    nx = min(max(cx, x), x + w)
    ny = min(max(cy, y), y + h)
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


def inside(box: Box, bounds: Box) -> bool:
    x, y, w, h = box
    bx, by, bw, bh = bounds
    return x >= bx and y >= by and x + w <= bx + bw and y + h <= by + bh


def candidates(want: Want) -> Iterable[tuple[Box, bool]]:
    """The spots to try for a label, nearest first: its own spots, beside its anchor,
    then rings further out (with a leader line)."""
    w, h = want.size
    for sx, sy in want.spots:
        yield (sx - w / 2, sy - h / 2, w, h), False
    ax, ay = want.anchor
    for ring in range(RINGS + 1):
        reach = want.clear + GAP + ring * (h + GAP)
        for dx, dy in DIRECTIONS:
            k = reach * (math.sqrt(0.5) if dx and dy else 1.0)
            left = ax - w / 2 if dx == 0 else (ax + k if dx > 0 else ax - k - w)
            top = ay - h / 2 if dy == 0 else (ay + k if dy > 0 else ay - k - h)
            yield (left, top, w, h), ring > 0


def place(
    wants: Sequence[Want],
    bounds: Box,
    circles: Sequence[tuple[float, float, float]] = (),
    taken: Sequence[Box] = (),
) -> list[Placed]:
    """Place `wants` in order; each avoids the boxes `taken`, the labels placed before
    it and every circle (the bases). Labels without room are left out."""
    placed: list[Placed] = []
    boxes = list(taken)
    for want in wants:
        for box, leader in candidates(want):
            if not inside(box, bounds):
                continue
            if any(overlaps(box, other, 1.0) for other in boxes):
                continue
            if any(hits_circle(box, c) for c in circles):
                continue
            placed.append(Placed(want, box, leader))
            boxes.append(box)
            break
    return placed
