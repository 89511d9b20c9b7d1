"""Placing labels so that none overprints another: the names of models, their state
markers and the heights of scenery, on the window's table and on every picture.

Each label asks for a spot near its anchor (`Want`); `place` takes them in order and
gives each the first candidate spot that stays inside the bounds, off every base and
clear of the labels and leader lines placed before it: beside the base first (below,
above, right, left, the diagonals), nearer it than any other base; then, once every
label that fits beside its base has its place, a step further out with a leader line
back to the base that crosses no label and no other base. A state marker (and an
objective's name) is game state and is never left out: further out still, then the
names in its way give way to it, then it may lie over bases (`_never_dropped`). A name
with no room even further out is left out (the table zoomed out too far for it), never
drawn over another.
Plain geometry on pixel rectangles, so tests can check it.

No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, width, height (pixels)

GAP = 2.0  # pixels between a base and its label
# Pixels an inch below which a picture (`render --scale`, or fitted by `--size`) is
# refused: the names, markers and heights no longer find room beside the bases (a 32x32"
# demo table at 400x300, 7 px an inch, crossed leader lines over labels; at 500x400, 10,
# every label sat clear). Here, with no pygame nor scenarios, so the command line
# can check it before loading either.
MIN_FIT_SCALE = 9.0
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
    kind: str = "model"  # model | marker | objective | scenery
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


def candidates(want: Want, rings: int = RINGS) -> Iterable[tuple[Box, bool]]:
    """The spots to try for a label, nearest first: its own spots, beside its anchor,
    then rings further out (with a leader line)."""
    w, h = want.size
    for sx, sy in want.spots:
        yield (sx - w / 2, sy - h / 2, w, h), False
    ax, ay = want.anchor
    for ring in range(rings + 1):
        reach = want.clear + GAP + ring * (h + GAP)
        for dx, dy in DIRECTIONS:
            k = reach * (math.sqrt(0.5) if dx and dy else 1.0)
            left = ax - w / 2 if dx == 0 else (ax + k if dx > 0 else ax - k - w)
            top = ay - h / 2 if dy == 0 else (ay + k if dy > 0 else ay - k - h)
            yield (left, top, w, h), ring > 0


def leader_line(want: Want, box: Box) -> tuple[Point, Point]:
    """The line from the edge of a label's base (its anchor, `clear` out) to the
    nearest point of the label's box."""
    ax, ay = want.anchor
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    d = math.hypot(cx - ax, cy - ay) or 1.0
    start = (ax + (cx - ax) / d * want.clear, ay + (cy - ay) / d * want.clear)
    end = (min(max(ax, x), x + w), min(max(ay, y), y + h))
    return start, end


def crosses_box(a: Point, b: Point, box: Box, margin: float = 0.0) -> bool:
    """True when the segment a-b passes through the box (grown by `margin`)."""
    x, y, w, h = box
    lo = [x - margin, y - margin]
    hi = [x + w + margin, y + h + margin]
    t0, t1 = 0.0, 1.0
    for axis in (0, 1):
        start, delta = a[axis], b[axis] - a[axis]
        if delta == 0:
            if not lo[axis] < start < hi[axis]:
                return False
            continue
        ta, tb = (lo[axis] - start) / delta, (hi[axis] - start) / delta
        t0, t1 = max(t0, min(ta, tb)), min(t1, max(ta, tb))
        if t0 >= t1:
            return False
    return True


def nearest_on_segment(p: Point, a: Point, b: Point) -> Point:
    """The point of the segment a-b nearest `p`."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length
    t = max(0.0, min(1.0, t))
    return (a[0] + t * dx, a[1] + t * dy)


def crosses_circle(a: Point, b: Point, circle: tuple[float, float, float]) -> bool:
    """True when the segment a-b passes inside the circle."""
    cx, cy, r = circle
    px, py = nearest_on_segment((cx, cy), a, b)
    return (px - cx) ** 2 + (py - cy) ** 2 < r * r


def _within(box: Box, bounds: Box) -> Box:
    """The box slid inside the bounds where it sticks out of them (when it fits)."""
    x, y, w, h = box
    bx, by, bw, bh = bounds
    return (min(max(x, bx), bx + bw - w), min(max(y, by), by + bh - h), w, h)


def _gap(box: Box, circle: tuple[float, float, float]) -> float:
    """Pixels between a box and the edge of a circle."""
    x, y, w, h = box
    cx, cy, r = circle
    nx, ny = min(max(cx, x), x + w), min(max(cy, y), y + h)
    return math.hypot(nx - cx, ny - cy) - r


def _own(want: Want, circle: tuple[float, float, float]) -> bool:
    return (circle[0], circle[1]) == want.anchor


def place(
    wants: Sequence[Want],
    bounds: Box,
    circles: Sequence[tuple[float, float, float]] = (),
    taken: Sequence[Box] = (),
    *,
    leaders: bool = True,
) -> list[Placed]:
    """Place `wants` in order; each avoids the boxes `taken`, the labels placed before
    it, their leader lines and every circle (the bases). A label's own leader line
    crosses no label and no other base, and a label beside a base (a model's name or
    marker) sits nearer its own base than any other, so that it cannot be read as
    another's. A state marker is never left out (`_never_dropped`); a name without room
    is tried further out with a leader line, and only then left out. `leaders=False`:
    no leader lines are drawn (the eye view draws its own), so each label simply takes
    its first free spot in order."""
    room = _Room(bounds, circles, taken)
    if not leaders:
        for index, want in enumerate(wants):
            for box, moved in candidates(want):
                near = want.kind in ("model", "marker")
                if room.free(want, box, None, near=near, moved=moved):
                    room.put(index, Placed(want, box))
                    break
        return room.labels()
    # Every label beside its base first, then those that must move out with a leader
    # line (one moved out first would take a later label's place beside its own base).
    for far in (False, True):
        for index, want in enumerate(wants):
            if index in room.placed:
                continue
            for box, leader in candidates(want):
                if leader != far:
                    continue
                box = _within(box, bounds)  # a label by the table's edge slides along it
                line = leader_line(want, box) if leader else None
                if room.free(want, box, line, near=want.kind in ("model", "marker")):
                    room.put(index, Placed(want, box, leader))
                    break
    for index, want in enumerate(wants):
        if want.kind in NEVER_DROPPED and index not in room.placed:
            _never_dropped(room, index, want)
    for index, want in enumerate(wants):
        if want.kind == "model" and index not in room.placed:
            _further_out(room, index, want)
    return room.labels()


# game state, never left out: a model's state marker and an objective's name (it decides
# the game at the turn limit)
NEVER_DROPPED = ("marker", "objective")
FAR_RINGS = 12  # how far out a state marker (or a name without room) is looked for


class _Room:
    """The labels placed so far, their leader lines and what they must keep clear of."""

    def __init__(self, bounds: Box, circles: Sequence[tuple[float, float, float]],
                 taken: Sequence[Box]) -> None:  # fmt: skip
        self.bounds = bounds
        self.circles = circles
        self.taken = list(taken)
        self.placed: dict[int, Placed] = {}
        self.lines: dict[int, tuple[Point, Point]] = {}

    def labels(self) -> list[Placed]:
        return [self.placed[i] for i in sorted(self.placed)]

    def put(self, index: int, label: Placed) -> None:
        self.placed[index] = label
        if label.leader:
            self.lines[index] = leader_line(label.want, label.box)

    def free(self, want: Want, box: Box, line: tuple[Point, Point] | None, *,
             near: bool = True, give_way: bool = False, cover_bases: bool = False,
             moved: bool | None = None) -> bool:  # fmt: skip
        """Whether `box` (and its leader `line`) is clear; `give_way`: names do not
        count (they give way to a marker); `cover_bases`: the label may lie over bases;
        `near`: beside its own base, nearer it than any other (`moved`: a step out, no
        other base within a gap; by default, when it has a leader line)."""
        if not inside(box, self.bounds):
            return False
        others = [i for i, p in self.placed.items() if not (give_way and p.want.kind == "model")]
        if any(overlaps(box, other, 1.0) for other in self.taken):
            return False
        if any(overlaps(box, self.placed[i].box, 1.0) for i in others):
            return False
        if not cover_bases and any(hits_circle(box, c) for c in self.circles):
            return False
        if any(crosses_box(*self.lines[i], box, 1.0) for i in others if i in self.lines):
            return False
        if line is not None:
            if any(crosses_box(*line, other) for other in self.taken):
                return False
            if any(crosses_box(*line, self.placed[i].box) for i in others):
                return False
            if not cover_bases and any(
                crosses_circle(*line, c) for c in self.circles if not _own(want, c)
            ):
                return False
        moved = line is not None if moved is None else moved
        return not (near and _nearer_another(want, box, self.circles, moved))

    def give_way(self, box: Box, line: tuple[Point, Point] | None) -> None:
        """Take away the names in the way of a marker's `box` and leader `line`."""
        for i, label in list(self.placed.items()):
            if label.want.kind != "model":
                continue
            own = self.lines.get(i)
            if (
                overlaps(box, label.box, 1.0)
                or (own is not None and crosses_box(*own, box, 1.0))
                or (line is not None and crosses_box(*line, label.box))
            ):
                del self.placed[i]
                self.lines.pop(i, None)


def _never_dropped(room: _Room, index: int, want: Want) -> None:
    """A state marker is game state: placed whatever it takes, always with a leader line
    back to its base. Further out first; then names give way to it; then it may lie
    over bases; at the last, beside its base over whatever is there."""
    for give_way, cover_bases in ((False, False), (True, False), (True, True)):
        for box, _ in candidates(want, FAR_RINGS):
            box = _within(box, room.bounds)
            line = leader_line(want, box)
            if room.free(want, box, line, near=False, give_way=give_way,
                         cover_bases=cover_bases):  # fmt: skip
                room.give_way(box, line)
                room.put(index, Placed(want, box, True))
                return
    box = _within(next(iter(candidates(want)))[0], room.bounds)
    room.give_way(box, None)
    room.put(index, Placed(want, box, True))


def _further_out(room: _Room, index: int, want: Want) -> None:
    """A name with no room within `RINGS` tried further out, with a leader line."""
    for box, leader in candidates(want, FAR_RINGS):
        if not leader:
            continue
        box = _within(box, room.bounds)
        line = leader_line(want, box)
        if room.free(want, box, line):
            room.put(index, Placed(want, box, True))
            return


def place_out(want: Want, bounds: Box, circles: Sequence[tuple[float, float, float]],
              taken: Sequence[Box], over_bases: bool = True) -> Placed | None:  # fmt: skip
    """One label that found no room near its anchor, further out (up to `FAR_RINGS`)
    with a leader line back to it that crosses no label and no other base: clear of the
    bases first, then over them (not with `over_bases=False`); at the last, clear of
    labels and bases with a line that may cross them (the anchor hemmed in by names);
    None where there is no such spot."""
    room = _Room(bounds, circles, taken)
    passes = ((False, True), (True, True), (False, False))
    for cover_bases, line_clear in passes if over_bases else passes[::2]:
        for box, leader in candidates(want, FAR_RINGS):
            if not leader:
                continue
            box = _within(box, bounds)
            line = leader_line(want, box) if line_clear else None
            if room.free(want, box, line, near=False, cover_bases=cover_bases):
                return Placed(want, box, True)
    return None


def place_anywhere(want: Want, bounds: Box, circles: Sequence[tuple[float, float, float]],
                   taken: Sequence[Box]) -> Placed | None:  # fmt: skip
    """One label with no room near its anchor nor further out along the directions
    `place_out` tries (a crowded table, a small picture): the spot nearest the anchor on
    a grid over `bounds` (4 pixels apart, or as many spots as in a 20,000-spot grid)
    clear of every label in `taken` and every base, with a leader line back to it that
    may cross them; None where there is none."""
    import numpy as np  # here: `--help` of the commands that import this loads no numpy

    w, h = want.size
    x0, y0, width, height = bounds
    step = max(4.0, math.sqrt(width * height / 20000))
    xs = x0 + np.arange(max(0, int((width - w) // step) + 1)) * step
    ys = y0 + np.arange(max(0, int((height - h) // step) + 1)) * step
    left, top = (a.ravel()[:, None] for a in np.meshgrid(xs, ys))
    free = np.ones(left.shape[0], dtype=bool)
    if len(taken):  # as `overlaps` with a margin of a pixel
        t = np.asarray(taken, dtype=float)
        across = (left < t[:, 0] + t[:, 2] + 1) & (t[:, 0] < left + w + 1)
        free &= ~(across & (top < t[:, 1] + t[:, 3] + 1) & (t[:, 1] < top + h + 1)).any(axis=1)
    if len(circles):  # as `hits_circle`
        c = np.asarray(circles, dtype=float)
        nx, ny = np.clip(c[:, 0], left, left + w), np.clip(c[:, 1], top, top + h)
        free &= ~((nx - c[:, 0]) ** 2 + (ny - c[:, 1]) ** 2 < c[:, 2] ** 2).any(axis=1)
    if not free.any():
        return None
    ax, ay = want.anchor
    far = np.where(free, np.hypot(left[:, 0] + w / 2 - ax, top[:, 0] + h / 2 - ay), np.inf)
    i = int(np.argmin(far))
    return Placed(want, (float(left[i, 0]), float(top[i, 0]), float(w), float(h)), True)


def _nearer_another(want: Want, box: Box, circles: Sequence[tuple[float, float, float]],
                    leader: bool) -> bool:  # fmt: skip
    """Whether the label could be read as another base's: beside its base, another
    comes as near; moved out with a leader line, another's edge is within a gap."""
    own = 2 * GAP if leader else _gap(box, (*want.anchor, want.clear))
    return any(_gap(box, c) <= own for c in circles if not _own(want, c))
