"""Drawing the table: scenery shaded by kind with heights, bases in side colours with
facing wedges and ids, an inch grid and a title. Pure drawing onto a surface, shared
by the window, `skirmish render` and `skirmish lof --out`; labels are placed so that
none overprints another (game.render.labels)."""

from __future__ import annotations

import contextlib
import functools
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pygame
import pygame.gfxdraw
import shapely

from game.display import WINDOW_LEAST
from game.files import write_with
from game.render import style
from game.render.labels import (
    GAP,
    Box,
    Placed,
    Want,
    leader_line,
    nearest_on_segment,
    overlaps,
    place,
)
from game.render.view import View
from game.scenario import Piece, PlacedModel, Scenario, SceneryKind
from game.scenario.names import objective_names
from game.sequencer.sentences import names_of, plural

Point = tuple[float, float]

_fonts: dict[int, pygame.font.Font] = {}


def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    if size not in _fonts:
        _fonts[size] = pygame.font.Font(None, size)
    return _fonts[size]


def wrap(text: str, size: int, width: float) -> list[str]:
    """`text` broken into lines no wider than `width` pixels in the font of `size`
    (measured, not counted: "W" and "i" differ); a word too long for a line is broken
    inside. Measuring ourselves (rather than pygame-ce's `Font.render(wraplength=)`)
    gives the lines themselves, so the panel can lay out, scroll and clip each one and
    tests can measure them. Kept once worked out (`_wrapped`): the panel wraps every
    line of the dice log again each time any of its text changes."""
    return list(_wrapped(text, size, width))


# Wrapped texts kept: the panel's lines of a long game and its other texts, a few
# hundred at a time, comfortably inside.
WRAPS_KEPT = 4096


@functools.lru_cache(maxsize=WRAPS_KEPT)
def _wrapped(text: str, size: int, width: float) -> tuple[str, ...]:
    """`wrap`'s lines, keyed by the text, the font (all the window's text is the default
    face; `size` picks it) and the width."""
    face = font(size)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if face.size(trial)[0] <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = word
            while face.size(line)[0] > width and len(line) > 1:
                cut = len(line) - 1
                while cut > 1 and face.size(line[:cut])[0] > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return tuple(line for line in lines if line) or ("",)


def side_colours(scenario: Scenario) -> dict[str, style.Colour]:
    """Each side's colour: its own `colour`; else the colour its id or name says (a side
    called red is drawn red, wherever it is listed: style.NAMED_COLOURS); else the
    palette's colour of its place in the file, or, where some side is coloured by its
    name, the palette's colours not so taken, in the file's order."""
    named: dict[str, style.Colour] = {}
    for side in scenario.sides:
        words = (side.id.lower(), (side.name or "").strip().lower())
        said = [style.NAMED_COLOURS[w] for w in words if w in style.NAMED_COLOURS]
        if side.colour is None and said:
            named[side.id] = said[0]
    palette = [c for c in style.SIDE_COLOURS if c not in named.values()] or [*style.SIDE_COLOURS]
    colours: dict[str, style.Colour] = {}
    others = 0
    for index, side in enumerate(scenario.sides):
        if side.colour is not None or side.id in named:
            colours[side.id] = side.colour or named[side.id]
            continue
        at = others if named else index  # no side named by colour: as the file lists them
        colours[side.id] = palette[at % len(palette)]
        others += 1
    return colours


def picture_size(scenario: Scenario, scale: float) -> tuple[int, int]:
    """Pixel size of the picture `table_picture` makes: the table, its margins and the
    title above (one line, or more when the title and legend need them)."""
    width, depth = scenario.header.table
    across = round(width * scale) + 2 * style.MARGIN
    return (across, round(depth * scale) + style.MARGIN + header_layout(scenario, across).height)


def scale_to_fit(scenario: Scenario, size: tuple[int, int]) -> float:
    """Pixels per inch for the picture to fit in `size` (width, height) with its title
    (at least 2: the caller checks the picture against `size` and MIN_FIT_SCALE)."""
    width, depth = scenario.header.table
    across = (size[0] - 2 * style.MARGIN) / width
    scale = across
    for _ in range(4):  # a narrower picture may need a taller title: fit again
        header = header_layout(scenario, round(width * scale) + 2 * style.MARGIN).height
        scale = min(across, (size[1] - style.MARGIN - header) / depth)
        scale = max(2.0, min(200.0, math.floor(scale * 100) / 100))
        if picture_size(scenario, scale)[1] <= size[1]:
            break
    return scale


def keep_least() -> None:
    """The window may be resized from WINDOW_LEAST up, not below (where the panel and
    the table no longer fit); a driver without the setting leaves it free."""
    with contextlib.suppress(AttributeError, pygame.error), warnings.catch_warnings():
        # pygame-ce asks for Window-drawn windows; the display module's one is reached so
        warnings.simplefilter("ignore", DeprecationWarning)
        pygame.Window.from_display_module().minimum_size = WINDOW_LEAST


def default_view(scale: float, top: int = style.TITLE) -> View:
    return View(scale, style.MARGIN, top)


TITLE_SIZES = (26, 22, 18)
LEGEND_SIZE = 16
LEGEND_ROW = 24


def legend_kinds(scenario: Scenario) -> list[SceneryKind]:
    """The kinds of scenery on this table, in the legend's order."""
    present = {piece.kind for piece in scenario.scenery}
    return [kind for kind in style.SCENERY if kind in present]


def _entry_width(kind: SceneryKind) -> int:
    """A legend entry's pixels: its swatch, the word and the gap after it."""
    return font(LEGEND_SIZE).size(kind.value)[0] + 26


def legend_rows(kinds: Sequence[SceneryKind], room: float) -> list[list[SceneryKind]]:
    """The legend's entries in rows no wider than `room`."""
    rows: list[list[SceneryKind]] = []
    used = room + 1.0
    for kind in kinds:
        if used + _entry_width(kind) > room and (not rows or rows[-1]):
            rows.append([])
            used = 0.0
        rows[-1].append(kind)
        used += _entry_width(kind)
    return rows


@dataclass(frozen=True, slots=True)
class Header:
    """The title's lines, the legend's rows (the first beside the title's last line when
    `beside`), and the header's height in pixels."""

    lines: list[str]
    size: int
    legend: list[list[SceneryKind]]
    beside: bool
    height: int


def header_layout(scenario: Scenario, width: int, text: str | None = None) -> Header:
    """The header for a picture `width` pixels wide: the title shrunk to fit or wrapped,
    the legend of the scenery kinds on the table beside it when there is room, else in
    rows of its own below it. Nothing is left out."""
    title = text or f"{scenario.header.name}  ·  {scenario.ruleset.title}"
    room = max(40, width - 2 * style.MARGIN)
    size = title_size(title, room)
    lines = wrap(title, size, room)
    kinds = legend_kinds(scenario)
    whole = sum(_entry_width(k) for k in kinds)
    last = font(size).size(lines[-1])[0]
    beside = bool(kinds) and last + 20 + whole <= room
    rows = [kinds] if beside else legend_rows(kinds, room)
    line_h = font(size).get_linesize()
    below = 0 if beside else len(rows) * LEGEND_ROW
    height = max(style.TITLE, len(lines) * line_h + 10 + below)
    return Header(lines, size, rows, beside, height)


def title_size(title: str, room: float) -> int:
    """The title's font: smaller until it fits on one line (then it wraps)."""
    for size in TITLE_SIZES:
        if font(size).size(title)[0] <= room:
            return size
    return TITLE_SIZES[1]


def _text(surface: pygame.Surface, text: str, size: int, colour: style.Colour,
          centre: tuple[float, float]) -> None:  # fmt: skip
    image = font(size).render(text, True, colour)
    surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


RULER_SIZE = 16  # the inch ruler's numbers, along the table's bottom and left edges


def ruler_marks(scenario: Scenario, view: View) -> list[tuple[str, Point]]:
    """The inch ruler's numbers and their centres: every 6" below the table and left of
    it (every 2" when zoomed in)."""
    width, depth = scenario.header.table
    x0, y1 = view.to_screen(0, depth)
    every = 6 if view.scale < 30 else 2
    marks = [(str(i), (view.to_screen(i, 0)[0], y1 + 10))
             for i in range(0, math.floor(width) + 1, every)]  # fmt: skip
    marks += [(str(j), (x0 - 12, view.to_screen(0, j)[1]))
              for j in range(0, math.floor(depth) + 1, every)]  # fmt: skip
    return marks


def ruler_boxes(scenario: Scenario, view: View) -> list[Box]:
    """Where the inch ruler's numbers are drawn: a label placed over the table (the
    ruling's, the stray-shot numbers, the range rings') keeps clear of them."""
    out: list[Box] = []
    for text, (cx, cy) in ruler_marks(scenario, view):
        w, h = font(RULER_SIZE).size(text)
        out.append((round(cx) - w / 2, round(cy) - h / 2, float(w), float(h)))
    return out


def draw_grid(surface: pygame.Surface, scenario: Scenario, view: View) -> None:
    width, depth = scenario.header.table
    x0, y0 = view.to_screen(0, 0)
    x1, y1 = view.to_screen(width, depth)
    pygame.draw.rect(surface, style.TABLE, pygame.Rect(x0, y0, x1 - x0, y1 - y0))
    step = 1 if view.scale >= 8 else 6
    for i in range(0, math.floor(width) + 1, step):
        sx, _ = view.to_screen(i, 0)
        colour = style.GRID_MAJOR if i % 6 == 0 else style.GRID
        pygame.draw.line(surface, colour, (sx, y0), (sx, y1))
    for j in range(0, math.floor(depth) + 1, step):
        _, sy = view.to_screen(0, j)
        colour = style.GRID_MAJOR if j % 6 == 0 else style.GRID
        pygame.draw.line(surface, colour, (x0, sy), (x1, sy))
    for text, centre in ruler_marks(scenario, view):
        _text(surface, text, RULER_SIZE, style.TEXT, centre)


def draw_scenery(surface: pygame.Surface, scenario: Scenario, view: View,
                 highlight: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Each piece shaded by kind (its height is a label: `scenery_wants`)."""
    for piece in scenario.scenery:
        points = [view.to_screen(x, y) for x, y in piece.footprint]
        fill = style.SCENERY[piece.kind]
        edge = style.SCENERY_EDGE[piece.kind]
        if piece.id in highlight:
            edge = (255, 60, 60)
        if piece.kind.value == "area":
            translucent(surface, fill, 150, points)
            # Area terrain: see-through so it reads as woods or rubble, not a solid block.
            pygame.draw.polygon(surface, edge, points, 2)
        else:
            pygame.draw.polygon(surface, fill, points)
            pygame.draw.polygon(surface, edge, points, 3 if piece.id in highlight else 2)


def translucent(surface: pygame.Surface, colour: style.Colour, alpha: int,
                 points: list[tuple[float, float]]) -> None:  # fmt: skip
    """A filled polygon at `alpha`, blended on a patch the size of its bounds."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    left, top = math.floor(min(xs)), math.floor(min(ys))
    w, h = math.ceil(max(xs)) - left + 2, math.ceil(max(ys)) - top + 2
    area = pygame.Rect(left, top, w, h).clip(surface.get_rect())
    if area.width <= 0 or area.height <= 0:
        return
    patch = pygame.Surface(area.size, pygame.SRCALPHA)
    pygame.draw.polygon(patch, (*colour, alpha), [(x - area.left, y - area.top) for x, y in points])
    surface.blit(patch, area.topleft)


def label_size(view: View, kind: str, ui: float = 1.0) -> int:
    """Font pixels of a label: it grows with the zoom, within legible limits that grow
    with a large window (`ui`, game.render.state.ui_scale)."""
    if kind == "scenery":
        size = max(15, min(22, round(view.scale * 0.8)))
    elif kind == "marker":
        size = max(15, min(17, round(view.scale * 0.6)))
    else:
        size = max(15, min(20, round(view.scale * 0.7)))
    return round(size * ui)


def scenery_wants(scenario: Scenario, view: View, ui: float = 1.0) -> list[Want]:
    """Each piece's height ("full" without one): inside it when it fits, else just
    above or below it (or beside it), where the piece is: a bent wall's is on the wall,
    not at the middle of its bend (the centre of an L lies off the piece). Spots that
    cover another piece, or lie as near another piece as their own (in a corner two
    walls share), are tried last (`_spot_costs`). Worked out once per zoom and moved
    with the view: panning does not change them."""
    at_origin = _scenery_wants(scenario.scenery, scenario.header.table, view.scale, ui)
    dx, dy = view.left, view.top
    return [
        replace(
            want,
            anchor=(want.anchor[0] + dx, want.anchor[1] + dy),
            spots=tuple((x + dx, y + dy) for x, y in want.spots),
        )
        for want in at_origin
    ]


@functools.lru_cache(maxsize=8)
def _scenery_wants(scenery: tuple[Piece, ...], table: tuple[float, float], scale: float,
                   ui: float) -> tuple[Want, ...]:  # fmt: skip
    """`scenery_wants` with the table's origin at (0, 0) on the screen."""
    view = View(scale)
    size = label_size(view, "scenery", ui)
    outlines = [[view.to_screen(x, y) for x, y in p.footprint] for p in scenery]
    shapes = _polygons(outlines)
    wants: list[Want] = []
    for piece, points, shape in zip(scenery, outlines, shapes, strict=True):
        anchor = _on_piece(points)
        text = "full" if piece.height is None else f'{piece.height:g}"'
        w, h = _boxed(text, size)
        spots = _beside_piece(points, anchor, w, h, shape)
        wants.append(Want(f"scenery:{piece.id}", text, (w, h), anchor, 0.0, "scenery",
                          tuple(spots), size))  # fmt: skip
    costs = _spot_costs(wants, shapes, (0.0, 0.0, table[0] * scale, table[1] * scale))
    out: list[Want] = []
    for want, cost in zip(wants, costs, strict=True):
        ranked = sorted(zip(cost, want.spots, strict=True), key=lambda pair: pair[0])
        out.append(replace(want, spots=tuple(spot for _, spot in ranked)))
    return tuple(out)


def _polygons(outlines: Sequence[Sequence[Point]]) -> list[shapely.Polygon]:
    """The footprints as shapely polygons, made in one call."""
    if not outlines:
        return []
    flat = np.array([point for points in outlines for point in points], dtype=float)
    which = np.repeat(np.arange(len(outlines)), [len(points) for points in outlines])
    return list(shapely.polygons(shapely.linearrings(flat, indices=which)))


def _spot_costs(wants: Sequence[Want], shapes: Sequence[shapely.Polygon],
                on_table: Box) -> list[list[int]]:  # fmt: skip
    """How badly each piece's label reads at each of its spots (0 best), where it lands
    on the table (one off the edge is slid back on, as `place` slides it): 3 over
    another piece, 2 over its own (but for the spot inside it), 1 as near another piece
    as its own (it could be read as the other's), else 0. All in a few array calls."""
    owner = np.array([i for i, want in enumerate(wants) for _ in want.spots], dtype=np.intp)
    if not len(owner):
        return [[] for _ in wants]
    w = np.array([wants[i].size[0] for i in owner], dtype=float)
    h = np.array([wants[i].size[1] for i in owner], dtype=float)
    centres = np.array([spot for want in wants for spot in want.spots], dtype=float)
    bx, by, bw, bh = on_table
    xs = np.clip(centres[:, 0] - w / 2, bx, bx + bw - w)
    ys = np.clip(centres[:, 1] - h / 2, by, by + bh - h)
    boxes = shapely.box(xs, ys, xs + w, ys + h)
    every = np.array(shapes, dtype=object)
    own = every[owner]
    cost = np.where(shapely.intersects(boxes, own) & ~shapely.covered_by(boxes, own), 2, 0)
    near = shapely.distance(boxes, own) + 2 * GAP
    # the other pieces whose bounds come within `near` of a spot, then exactly
    reach = shapely.box(xs - near, ys - near, xs + w + near, ys + h + near)
    spot, piece = shapely.STRtree(shapes).query(reach)
    other = piece != owner[spot]
    spot, piece = spot[other], piece[other]
    np.maximum.at(cost, spot[shapely.distance(boxes[spot], every[piece]) <= near[spot]], 1)
    cost[spot[shapely.intersects(boxes[spot], every[piece])]] = 3
    split = np.cumsum([len(want.spots) for want in wants])[:-1]
    return [[int(c) for c in part] for part in np.split(cost, split)]


def _on_piece(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The middle of a footprint when it lies on the piece, else the point of the piece
    nearest it."""
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    if _inside(points, cx, cy):
        return (cx, cy)
    edges = zip(points, [*points[1:], points[0]], strict=True)
    near = [nearest_on_segment((cx, cy), a, b) for a, b in edges]
    return min(near, key=lambda p: math.hypot(p[0] - cx, p[1] - cy))


def _crossings(points: Sequence[tuple[float, float]], at: float, axis: int) -> list[float]:
    """Where the line `axis` = `at` (0: a vertical line x = at) crosses the outline,
    along the other axis, sorted."""
    other = 1 - axis
    out = []
    for a, b in zip(points, [*points[1:], points[0]], strict=True):
        if (a[axis] <= at < b[axis]) or (b[axis] <= at < a[axis]):
            t = (at - a[axis]) / (b[axis] - a[axis])
            out.append(a[other] + t * (b[other] - a[other]))
    return sorted(out)


def _inside(points: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    ys = _crossings(points, x, 0)
    return any(ys[i] <= y <= ys[i + 1] for i in range(0, len(ys) - 1, 2))


def _span(points: Sequence[tuple[float, float]], at: float, axis: int,
          near: float) -> tuple[float, float] | None:  # fmt: skip
    """The stretch of the piece the line `axis` = `at` crosses nearest `near`."""
    cut = _crossings(points, at, axis)
    spans = [(cut[i], cut[i + 1]) for i in range(0, len(cut) - 1, 2)]
    return min(spans, key=lambda s: max(s[0] - near, near - s[1], 0.0), default=None)


def _beside_piece(points: Sequence[tuple[float, float]], anchor: tuple[float, float],
                  w: float, h: float, shape: shapely.Polygon) -> list[Point]:  # fmt: skip
    """Spots for a piece's label: inside it at `anchor` when the label fits there, then
    just above and below the piece at the anchor and a quarter of the way in from
    either end, then beside it (beside first for a piece running down the table)."""
    ax, ay = anchor
    spots: list[tuple[float, float]] = []
    down, across = _span(points, ax, 0, ay), _span(points, ay, 1, ax)
    if down and across and down[1] - down[0] > h + 4 and across[1] - across[0] > w + 4:
        middle = ((across[0] + across[1]) / 2, (down[0] + down[1]) / 2)
        # inside only where the label lies on the piece (the crook of an L does not)
        left, top = middle[0] - w / 2 - 2, middle[1] - h / 2 - 2
        if shapely.covers(shape, shapely.box(left, top, left + w + 4, top + h + 4)):
            spots.append(middle)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    ways = [(0, min(xs), max(xs), ax, ay), (1, min(ys), max(ys), ay, ax)]
    if max(ys) - min(ys) > max(xs) - min(xs):
        ways.reverse()  # a piece running down the table: beside it first
    for axis, lo, hi, mid, near in ways:
        for at in (mid, lo + (hi - lo) / 4, hi - (hi - lo) / 4):
            span = _span(points, at, axis, near)
            if span is None:
                continue
            if axis == 0:
                spots += [(at, span[0] - h / 2 - 3), (at, span[1] + h / 2 + 3)]
            else:
                spots += [(span[0] - w / 2 - 3, at), (span[1] + w / 2 + 3, at)]
    return spots


def model_wants(scenario: Scenario, view: View, ui: float = 1.0) -> list[Want]:
    """Each model's name (as the sentences call it: "Orlock leader"), beside its base."""
    size = label_size(view, "model", ui)
    names = names_of(scenario)
    out: list[Want] = []
    for model in scenario.models:
        anchor = view.to_screen(*model.at)
        r = max(model.radius * view.scale, 3.0)
        name = labelled(model, names.get(model.id, model.id))
        out.append(Want(model.id, name, _boxed(name, size), anchor, r, "model", (), size))
    return out


# What a Lieutenant's label adds to its name (the wargamers' LT); a name that has the word
# already ("Fusilier LT", "Zhanshi Lieutenant") is left as it is.
LIEUTENANT_MARK = " (LT)"
_SAYS_LIEUTENANT = re.compile(r"\b(LT|Lieutenant)\b", re.IGNORECASE)


def labelled(model: PlacedModel, name: str) -> str:
    """A model's label: its name, with LT after the Lieutenant's ("Orc 2 (LT)"): who the
    Lieutenant is, open information in the system that has one (the `lieutenant` field
    is read by it alone)."""
    if model.lieutenant and not _SAYS_LIEUTENANT.search(name):
        return name + LIEUTENANT_MARK
    return name


def _boxed(text: str, size: int) -> tuple[int, int]:
    """Pixels of a label's box: the text and a little room around it."""
    w, h = font(size).size(text)
    return (w + 4, h)


def base_circles(scenario: Scenario, view: View) -> list[tuple[float, float, float]]:
    out = []
    for model in scenario.models:
        cx, cy = view.to_screen(*model.at)
        out.append((cx, cy, max(model.radius * view.scale, 3.0)))
    return out


def table_bounds(scenario: Scenario, view: View, size: tuple[int, int]) -> Box:
    """The table's rectangle on a surface of `size`: labels stay inside it."""
    width, depth = scenario.header.table
    x0, y0 = view.to_screen(0, 0)
    x1, y1 = view.to_screen(width, depth)
    left, top = max(0.0, x0), max(0.0, y0)
    right, bottom = min(float(size[0]), x1), min(float(size[1]), y1)
    return (left, top, max(0.0, right - left), max(0.0, bottom - top))


OBJECTIVE = (250, 210, 60)  # an objective's ring, its mark and its label's box
OBJECTIVE_MARK = 7  # pixels: the radius of the disc at an objective's point


def objective_texts(scenario: Scenario) -> dict[str, str]:
    """Each objective as its label says it, by id: its name, and its points where the
    rule system scores them ("Barrier gate, 2 points"; "Objective 1" elsewhere)."""
    names = objective_names(scenario.objectives)
    out = {}
    for o in scenario.objectives:
        name = names[o.id][0].upper() + names[o.id][1:]
        scored = scenario.ruleset.scores_objectives
        out[o.id] = f"{name}, {plural(o.points, 'point')}" if scored else name
    return out


def draw_objectives(surface: pygame.Surface, scenario: Scenario, view: View,
                    selected: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """Each objective: a thin ring at its radius (the reach a base's edge must come
    within to hold it) and a disc at its point, ringed white when selected (its name is
    a label: `objective_wants`)."""
    for o in scenario.objectives:
        cx, cy = view.to_screen(*o.at)
        pygame.draw.circle(surface, OBJECTIVE, (cx, cy), max(3.0, o.radius * view.scale), 1)
        pygame.draw.circle(surface, OBJECTIVE, (cx, cy), OBJECTIVE_MARK)
        pygame.draw.circle(surface, style.INK, (cx, cy), OBJECTIVE_MARK, 1)
        if o.id in selected:
            pygame.draw.circle(surface, (250, 250, 250), (cx, cy), OBJECTIVE_MARK + 3, 2)


def draw_objectives_under_bases(surface: pygame.Surface, scenario: Scenario,
                                view: View) -> None:  # fmt: skip
    """Each objective whose disc a base stands over (the disc is drawn under the models,
    `draw_objectives`): the disc's edge, centred on its point, grown to go round the
    bases over it (`objective_circles`), drawn over the table; it hides nothing of a
    model or its facing."""
    for cx, cy, radius in objective_circles(scenario, view):
        if radius > OBJECTIVE_MARK:
            pygame.draw.circle(surface, style.INK, (cx, cy), radius, 4)
            pygame.draw.circle(surface, OBJECTIVE, (cx, cy), radius - 1, 2)


def objective_wants(scenario: Scenario, view: View, ui: float = 1.0) -> list[Want]:
    """Each objective's label beside its disc, or beside the base standing on it (its
    leader line, if any, starts outside that base)."""
    size = label_size(view, "model", ui)
    out: list[Want] = []
    texts = objective_texts(scenario)
    bases = base_circles(scenario, view) if scenario.objectives else []
    for o in scenario.objectives:
        anchor = view.to_screen(*o.at)
        clear = float(OBJECTIVE_MARK)
        for cx, cy, r in bases:
            apart = math.dist((cx, cy), anchor)
            if apart < r:  # a base on the point: the label goes beside the base
                clear = max(clear, r + apart)
        text = texts[o.id]
        out.append(Want(f"objective:{o.id}", text, _boxed(text, size), anchor, clear,
                        "objective", (), size))  # fmt: skip
    return out


def objective_circles(scenario: Scenario, view: View) -> list[tuple[float, float, float]]:
    """The objectives' discs, no label lies over one: a disc a base stands over has its
    edge round the bases over it (`draw_objectives_under_bases`)."""
    bases = base_circles(scenario, view)
    out = []
    for o in scenario.objectives:
        cx, cy = view.to_screen(*o.at)
        over = [math.dist((x, y), (cx, cy)) + r for x, y, r in bases
                if math.dist((x, y), (cx, cy)) < r + OBJECTIVE_MARK]  # fmt: skip
        out.append((cx, cy, max(OBJECTIVE_MARK, *over) + 4 if over else float(OBJECTIVE_MARK)))
    return out


def table_labels(scenario: Scenario, view: View, size: tuple[int, int],
                 first: Sequence[Want] = (), ui: float = 1.0, *, objectives: bool = False,
                 taken: Sequence[Box] = ()) -> list[Placed]:  # fmt: skip
    """Every label of the table placed so that none overprints another or a base:
    `first` (state markers) before the objectives' names (with `objectives`: the
    pictures and the play window draw them, `draw_objectives`), the models' ids, then
    the heights of scenery. A model whose name found no room but whose state marker did
    has the marker say whose it is ("Goliath juve: out of action"), placed again in
    place of its name. No label lies over a box of `taken` (the editor's selection
    handles: a label under one read "Zhan○ HMG")."""
    names = model_wants(scenario, view, ui)
    heights = scenery_wants(scenario, view, ui)
    marks = objective_wants(scenario, view, ui) if objectives else []
    bounds, circles = table_bounds(scenario, view, size), base_circles(scenario, view)
    if objectives:
        circles += objective_circles(scenario, view)
    called = {w.key: w.text for w in names}
    plain = names_of(scenario)
    said = set(plain.values())  # a marker may name its model or unit already
    named = {w.key.split(":")[1] for w in first if w.text.split(": ")[0] in (called.get(
        w.key.split(":")[1]), plain.get(w.key.split(":")[1]))}  # fmt: skip
    names = [w for w in names if w.key not in named]
    placed = place([*first, *marks, *names, *heights], bounds, circles, taken)
    for _ in range(WHOSE_PASSES):  # a longer marker may crowd out another's name
        changed = False
        for key in [w.key for w in first if w.key.endswith(":0")]:
            model = key.split(":")[1]
            marker = next(w for w in first if w.key == key)
            if model in {label.want.key for label in placed} or marker.text.split(": ")[0] in said:
                continue
            mine = [_saying_whose(w, called[model]) if w.key == key else w for w in first]
            others = [w for w in names if w.key != model]
            tried = place([*mine, *marks, *others, *heights], bounds, circles, taken)
            if _overprinted(tried) > _overprinted(placed):
                continue  # no room for the longer marker: left as it was
            first, names, placed, changed = mine, others, tried, True
        if not changed:
            break
    return placed


def _overprinted(placed: Sequence[Placed]) -> int:
    """How many pairs of labels overlap (a state marker with no room at all lies over
    others)."""
    boxes = [label.box for label in placed]
    return sum(overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


WHOSE_PASSES = 4  # placings at most, each giving more markers their model's name


def _saying_whose(marker: Want, name: str) -> Want:
    """A model's first state marker with its name before it, its spots moved out by the
    width it gains (they are beside the base, on the marker's near side)."""
    text = f"{name}: {marker.text}"
    w, h = font(marker.px).size(text)
    grow = (w + 4 - marker.size[0]) / 2
    spots = tuple((x + grow if x >= marker.anchor[0] else x - grow, y) for x, y in marker.spots)
    return replace(marker, text=text, size=(w + 4, h), spots=spots)


LABEL_BOX = {  # background and text of a label, by kind
    "model": ((236, 230, 212), style.INK),
    "scenery": ((52, 50, 48), style.TEXT),
    "objective": (OBJECTIVE, style.INK),
}


def draw_labels(surface: pygame.Surface, placed: Sequence[Placed], view: View,
                colours: Mapping[str, tuple[tuple[int, int, int], tuple[int, int, int]]]
                | None = None) -> None:  # fmt: skip
    """Draw placed labels: a box, its text, and a leader line to a base it left."""
    colours = colours or {}
    for label in placed:
        want = label.want
        back, ink = colours.get(want.key) or LABEL_BOX.get(want.kind, LABEL_BOX["model"])
        x, y, w, h = label.box
        box = pygame.Rect(round(x), round(y), round(w), round(h))
        if label.leader:
            pygame.draw.line(surface, style.INK, *leader_line(want, label.box), 1)
        pygame.draw.rect(surface, back, box)
        image = font(want.px or label_size(view, want.kind)).render(want.text, True, ink)
        surface.blit(image, image.get_rect(center=box.center))


def draw_model(surface: pygame.Surface, model: PlacedModel, view: View,
               colour: style.Colour, arc_degrees: float, selected: bool = False,
               label: bool = True) -> None:  # fmt: skip
    """A base in its side's colour with a wedge showing its facing and arc."""
    cx, cy = view.to_screen(*model.at)
    r = max(model.radius * view.scale, 3.0)
    pygame.draw.circle(surface, colour, (cx, cy), r)
    pygame.draw.circle(surface, (250, 250, 250) if selected else style.INK, (cx, cy), r, 2)
    if arc_degrees < 360:
        half = math.radians(min(arc_degrees, 150) / 2)
        facing = math.radians(model.facing)
        tip = (cx + math.cos(facing) * r, cy + math.sin(facing) * r)
        left = (cx + math.cos(facing - half) * r * 0.55, cy + math.sin(facing - half) * r * 0.55)
        right = (cx + math.cos(facing + half) * r * 0.55, cy + math.sin(facing + half) * r * 0.55)
        pygame.draw.polygon(surface, (250, 250, 250), [(cx, cy), left, tip, right])
    if label:
        _text(surface, model.id, label_size(view, "model"), style.INK, (cx, cy + r + 8))


def draw_models(surface: pygame.Surface, scenario: Scenario, view: View,
                colours: Mapping[str, style.Colour] | None = None) -> None:  # fmt: skip
    """The bases (their names are labels: `model_wants`)."""
    colours = colours or side_colours(scenario)
    for model in scenario.models:
        draw_model(surface, model, view, colours[model.side], scenario.ruleset.arc_degrees,
                   label=False)  # fmt: skip


def draw_title(surface: pygame.Surface, scenario: Scenario, text: str | None = None) -> int:
    """The scenario's name and rule system (shrunk or wrapped to the width), and a legend
    of the scenery kinds on the table, right-aligned: beside the title when it fits,
    else in rows below it. Returns the header's height."""
    header = header_layout(scenario, surface.get_width(), text)
    face = font(header.size)
    one_row = len(header.lines) == 1 and (header.beside or not header.legend)
    y = (style.TITLE - face.get_height()) // 2 if one_row else 5
    for line in header.lines:
        surface.blit(face.render(line, True, style.TEXT), (style.MARGIN, y))
        y += face.get_linesize()
    row = y - face.get_linesize() // 2 if header.beside else y + LEGEND_ROW // 2
    for kinds in header.legend:
        x = surface.get_width() - style.MARGIN
        for kind in reversed(kinds):
            word = font(LEGEND_SIZE).render(kind.value, True, style.TEXT)
            x -= word.get_width()
            surface.blit(word, word.get_rect(midleft=(x, row)))
            x -= 16
            pygame.draw.rect(surface, style.SCENERY[kind], pygame.Rect(x, row - 6, 12, 12))
            x -= 10
        row += LEGEND_ROW
    return header.height


def draw_table(surface: pygame.Surface, scenario: Scenario, view: View) -> list[Placed]:
    """The whole table: grid, scenery, objectives, models and their labels (returned as
    placed)."""
    draw_grid(surface, scenario, view)
    draw_scenery(surface, scenario, view)
    draw_objectives(surface, scenario, view)
    draw_models(surface, scenario, view)
    draw_objectives_under_bases(surface, scenario, view)
    placed = table_labels(scenario, view, surface.get_size(), objectives=True)
    draw_labels(surface, placed, view)
    return placed


def table_picture(scenario: Scenario, scale: float = 20.0,
                  draw: Callable[[pygame.Surface, Scenario, View], object] = draw_table,
                  ) -> pygame.Surface:  # fmt: skip
    """The table as a surface of `picture_size(scenario, scale)` pixels, with its title,
    drawn by `draw` (`skirmish render`: the window's table, its bases' states marked)."""
    size = picture_size(scenario, scale)
    surface = pygame.Surface(size)
    surface.fill(style.BACKGROUND)
    draw(surface, scenario, picture_view(scenario, scale))
    draw_title(surface, scenario)
    return surface


def picture_view(scenario: Scenario, scale: float = 20.0) -> View:
    """Where `table_picture` puts the table: below its title and legend, however many
    lines they take."""
    width = picture_size(scenario, scale)[0]
    return default_view(scale, header_layout(scenario, width).height)


def save_png(surface: pygame.Surface, out: Path) -> None:
    """Write the picture atomically: a temporary file made safely beside `out`, then a
    rename (game.files)."""
    write_with(out, lambda handle: pygame.image.save(surface, handle, "png"))
