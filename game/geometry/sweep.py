"""Where along a straight leg a moving model stands in sight of a fixed one: the intervals
of the leg (as parameters 0..1 from its start) from which a clear sight line joins them,
from which the mover is at least partly inside the watcher's arc, and from which it is
within a reach of the watcher, found for the whole leg rather than at sampled points.

Each answer is found the same way: the moments where it can change (events) are
computed, then one test between each two neighbouring events holds for that whole
stretch, so a stretch of any length, however short, is found.

- Reach: edge to edge within `reach` is a quadratic in the parameter: exact. A leg
  wholly inside the reach or wholly out of it (by a margin far beyond rounding) is
  answered without the sweep.
- Arc: the mover's base meets the arc's wedge; it can change only where the base
  touches one of the wedge's two boundary lines or the watcher's centre. For an arc of
  at most 180 degrees the centres whose base meets it form a convex set, so a leg with
  both ends well inside is wholly inside, without the sweep.
- Clear line (`game.geometry.lof`, step 2): a clear line meets the two bases; as the
  mover's base slides, the set of clear lines can appear or vanish only where the base
  becomes tangent to a line fixed by two of the other features (the watcher's base,
  corners of the pieces at least as tall as the lower model, models in the way), or
  touches a corner or another base. Those lines are built with numpy; a line counts only
  if it is clear from the watcher's base to its farther feature and on to where the
  mover touches it (pieces at least as tall as both models taken as blocking; lower
  ones never prune). First, one convex obstacle that crosses both outer sides of the
  hull of the watcher's base and the leg's swept bases, keeping off all of them, and
  taller than any sight line can be where it crosses (`_separated`: a wall as tall as
  the troopers is, since each line falls from one model's top to the other's), cuts
  every line to the leg (no test needed); so do such obstacles, one for each half of
  the leg (or of each half, halved again, up to `SPLITS` times). Exact for pieces no lower
  than the taller model and for models in the way, while the mover's base keeps off the
  pieces (it cannot cross a solid one; an area piece it stands in is not exact); a piece
  of in-between height near the leg, whose top edges are not such fixed lines, adds
  tests `IN_BETWEEN_STEP` apart, as the sampling before the sweep did (not exact there).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from game.geometry import compiled
from game.geometry.blocking import (
    EPS,
    Obstacles,
    blocked_by,
    gather,
)
from game.geometry.lof import clear_witnesses, tangents
from game.geometry.table import Body, BoolArray, FloatArray, IntArray, Point, Table

Span = tuple[float, float]  # a closed stretch of a leg, as parameters 0 <= t0 <= t1 <= 1
IN_BETWEEN_STEP = 0.5  # inches between tests where a piece of in-between height is near
_MERGE = 1e-9
_MARGIN = 1e-7  # inches: a quick answer needs the leg this far from the boundary


def _on_leg(leg: tuple[Point, Point], t: FloatArray) -> tuple[FloatArray, FloatArray]:
    (x0, y0), (x1, y1) = leg
    return x0 + t * (x1 - x0), y0 + t * (y1 - y0)


def _circle_events(
    leg: tuple[Point, Point], cx: FloatArray, cy: FloatArray, rad: FloatArray
) -> FloatArray:
    """Parameters where the leg's point is exactly `rad` from each centre."""
    (x0, y0), (x1, y1) = leg
    dx, dy = x1 - x0, y1 - y0
    qa = dx * dx + dy * dy
    if qa == 0:
        return np.zeros(0)
    fx, fy = x0 - cx, y0 - cy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - rad * rad
    disc = qb * qb - 4 * qa * qc
    ok = disc >= 0
    root = np.sqrt(np.where(ok, disc, 0.0))
    both = np.concatenate((ok, ok))  # (np.r_ costs several times more)
    return np.concatenate(((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)))[both]


def _line_events(
    leg: tuple[Point, Point], nx: FloatArray, ny: FloatArray, c: FloatArray, off: float
) -> tuple[FloatArray, IntArray]:
    """Parameters where the leg's point is at signed distance +off and -off from each line
    n.p = c (rows of lines without an event are left out): (t, index of the line)."""
    (x0, y0), (x1, y1) = leg
    nd = nx * (x1 - x0) + ny * (y1 - y0)
    n0 = nx * x0 + ny * y0
    ok = np.abs(nd) > 1e-12
    safe = np.where(ok, nd, 1.0)
    t = np.concatenate(((c + off - n0) / safe, (c - off - n0) / safe))
    rows = np.concatenate((np.arange(len(nx)), np.arange(len(nx)))).astype(np.intp)
    keep = np.concatenate((ok, ok))
    return t[keep], rows[keep]


def _spans_between(
    events: FloatArray, holds: Callable[[FloatArray], BoolArray], at_events: bool
) -> list[Span]:
    """The closed stretches of [0, 1] where `holds`, given every parameter where it can
    change: one test between each two neighbouring events (and at the events themselves
    when `at_events`, for answers that can hold at a single point)."""
    ev = np.concatenate(([0.0, 1.0], events)).clip(0.0, 1.0)
    ev.sort()
    # np.unique's own steps without its wrapper, where there is no NaN for it to gather
    ev = ev[np.concatenate(([True], ev[1:] != ev[:-1]))] if ev[-1] == ev[-1] else np.unique(ev)
    if len(ev) > 1:
        ev = ev[np.concatenate(([True], ev[1:] - ev[:-1] > _MERGE))]  # np.r_, np.diff
        ev[-1] = 1.0
    mids = (ev[:-1] + ev[1:]) / 2
    mid_ok = holds(mids) if len(mids) else np.zeros(0, dtype=np.bool_)
    ev_ok = holds(ev) if at_events else np.zeros(len(ev), dtype=np.bool_)
    spans: list[Span] = []

    def add(lo: float, hi: float) -> None:
        if spans and lo <= spans[-1][1] + _MERGE:
            spans[-1] = (spans[-1][0], max(spans[-1][1], hi))
        else:
            spans.append((lo, hi))

    for k, t in enumerate(ev):
        if ev_ok[k]:
            add(float(t), float(t))
        if k < len(mids) and mid_ok[k]:
            add(float(t), float(ev[k + 1]))
    return spans


def reach_spans(watcher: Body, radius: float, leg: tuple[Point, Point], reach: float) -> list[Span]:
    """Where a base of `radius` on the leg is within `reach` of the watcher's base, edge
    to edge."""
    limit = reach + watcher.radius + radius
    (x0, y0), (x1, y1) = leg
    wx, wy = watcher.at

    def holds(t: FloatArray) -> BoolArray:
        x, y = _on_leg(leg, t)
        result: BoolArray = np.hypot(x - wx, y - wy) <= limit + 1e-12
        return result

    if (x0, y0) == (x1, y1):
        return [(0.0, 1.0)] if bool(holds(np.zeros(1))[0]) else []
    # the points within reach form a disc: a leg that keeps off it (by a margin far
    # beyond rounding) has none, one with both ends inside it lies wholly inside
    if _seg_dist(leg, wx, wy) > limit + _MARGIN:
        return []
    if max(math.hypot(x0 - wx, y0 - wy), math.hypot(x1 - wx, y1 - wy)) < limit - _MARGIN:
        return [(0.0, 1.0)]
    events = _circle_events(leg, np.array([wx]), np.array([wy]), np.array([limit]))
    return _spans_between(events, holds, at_events=True)


def _seg_dist(leg: tuple[Point, Point], px: float, py: float) -> float:
    """Distance from a point to the leg (a segment)."""
    (x0, y0), (x1, y1) = leg
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    t = min(1.0, max(0.0, ((px - x0) * dx + (py - y0) * dy) / ll)) if ll > 0 else 0.0
    return math.hypot(px - (x0 + t * dx), py - (y0 + t * dy))


def _inside_arc(watcher: Body, radius: float, at: Point, arc_degrees: float) -> bool:
    """Whether a base of `radius` at `at` meets an arc of at most 180 degrees with a
    margin far beyond rounding: its centre inside the arc's wedge (a half-plane for 180
    degrees, where the base needs only reach it)."""
    wx, wy = watcher.at
    face = math.radians(watcher.facing)
    if arc_degrees == 180.0:
        ahead = (at[0] - wx) * math.cos(face) + (at[1] - wy) * math.sin(face)
        return ahead > -radius + _MARGIN
    half = math.radians(arc_degrees / 2.0)
    for angle, sign in ((face + half, -1.0), (face - half, 1.0)):
        # signed distance from the boundary line, positive on the wedge's side
        side = sign * (-(at[0] - wx) * math.sin(angle) + (at[1] - wy) * math.cos(angle))
        if side < _MARGIN:
            return False
    return True


def arc_spans(
    watcher: Body, radius: float, leg: tuple[Point, Point], arc_degrees: float
) -> list[Span]:
    """Where a base of `radius` on the leg is at least partly inside the watcher's arc
    (the same test as `in_arc`, for every point of the leg)."""
    if arc_degrees >= 360.0:
        return [(0.0, 1.0)]
    if arc_degrees <= 180.0 and all(_inside_arc(watcher, radius, p, arc_degrees) for p in leg):
        # the centres whose base meets a wedge of at most 180 degrees form a convex set
        return [(0.0, 1.0)]
    wx, wy = watcher.at
    half = math.radians(arc_degrees / 2.0)
    face = math.radians(watcher.facing)

    def holds(t: FloatArray) -> BoolArray:
        # `in_arc` for every point: the base's directions from the watcher's centre
        # reach within half the arc of its facing (or the base covers the centre)
        x, y = _on_leg(leg, t)
        dist = np.hypot(x - wx, y - wy)
        off = np.degrees(np.arctan2(y - wy, x - wx)) - watcher.facing
        off = (off + 180.0) % 360.0 - 180.0
        with np.errstate(divide="ignore", invalid="ignore"):
            spread = np.degrees(np.arcsin(np.minimum(1.0, radius / dist)))
        result: BoolArray = (dist <= radius) | (np.abs(off) <= arc_degrees / 2.0 + spread + 1e-9)
        return result

    angles = np.array([face + half, face - half])
    nx, ny = -np.sin(angles), np.cos(angles)  # normals of the two boundary lines
    t_lines, _ = _line_events(leg, nx, ny, nx * wx + ny * wy, radius)
    t_apex = _circle_events(leg, np.array([wx]), np.array([wy]), np.array([radius]))
    return _spans_between(np.concatenate((t_lines, t_apex)), holds, at_events=True)


def clear_spans(
    table: Table,
    watcher: Body,
    mover: Body,
    leg: tuple[Point, Point],
    *,
    models_block: bool = True,
) -> list[Span]:
    """Where on the leg a clear sight line joins the watcher and `mover` standing there
    (its radius and height; the table's model with its id is out of the way), exact as
    the module docstring says. Touching is clear, so a stretch may be a single point
    only where a line grazes; such points are not searched for."""

    near = _near_hull(table, watcher, mover, leg, models_block)

    def holds(t: FloatArray) -> BoolArray:
        xs, ys = _on_leg(leg, t)
        answers = np.zeros(len(t), dtype=np.bool_)
        asks: list[int] = []
        pairs: list[tuple[Body, Body]] = []
        for k, (x, y) in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
            at = replace(mover, at=(x, y))
            # most points between events of a leg out of sight are cut off by one
            # obstacle (of those near the whole leg): no need for the geometry's search
            if not _separated(table, *near, watcher, at, ((x, y), (x, y))):
                asks.append(k)
                pairs.append((watcher, at))
        if pairs:
            found = clear_witnesses(table, pairs, models_block=models_block)
            answers[asks] = [w is not None for w in found]
        return answers

    (x0, y0), (x1, y1) = leg
    if (x0, y0) == (x1, y1):
        return [(0.0, 1.0)] if bool(holds(np.zeros(1))[0]) else []
    events = _clear_events(table, watcher, mover, leg, near)
    if events is None:
        return [(0.0, 1.0)]  # nothing tall enough anywhere near: every line is clear
    if not len(events):
        return []  # a convex solid separates the watcher from the whole leg
    return _spans_between(events, holds, False)


def surely_hidden(
    table: Table,
    watcher: Body,
    mover: Body,
    leg: tuple[Point, Point],
    *,
    models_block: bool = True,
) -> bool:
    """True when no clear sight line joins the watcher and `mover` anywhere on the leg
    (a point: both ends the same), proved at once by one obstacle across the hull
    (`_separated`); False: it may have one (ask `clear_spans` or the geometry)."""
    chosen, bodies = _near_hull(table, watcher, mover, leg, models_block)
    return _separated(table, chosen, bodies, watcher, mover, leg)


def _near_hull(
    table: Table, watcher: Body, mover: Body, leg: tuple[Point, Point], models_block: bool
) -> tuple[list[int], list[int]]:
    """The pieces taller than the lower model and, where models block, the models
    (but these two) that reach into the box around the hull of the watcher's base and
    the leg's swept bases (every sight line lies in that hull). Plain floats: a table
    has tens of pieces and models, too few for numpy to pay."""
    (x0, y0), (x1, y1) = leg
    (wx, wy), rw, rm = watcher.at, watcher.radius, mover.radius
    low = min(watcher.height, mover.height)
    grow = max(rw, rm) + 1e-6
    lox, hix = min(wx, x0, x1) - grow, max(wx, x0, x1) + grow
    loy, hiy = min(wy, y0, y1) - grow, max(wy, y0, y1) + grow
    plain = _plain_pieces(table)
    chosen = [
        k
        for k, (bx0, bx1, by0, by1) in enumerate(plain.box)
        if plain.top[k] > low and bx0 <= hix and bx1 >= lox and by0 <= hiy and by1 >= loy
    ]
    bodies: list[int] = []
    if models_block and table.bodies:
        own = {watcher.id, mover.id}
        for k, b in enumerate(table.bodies):
            (x, y), r = b.at, b.radius
            if (
                b.height > low
                and x + r >= lox
                and x - r <= hix
                and y + r >= loy
                and y - r <= hiy
                and b.id not in own
            ):
                bodies.append(k)
    return chosen, bodies


def _clear_events(
    table: Table,
    watcher: Body,
    mover: Body,
    leg: tuple[Point, Point],
    near: tuple[list[int], list[int]],
) -> FloatArray | None:
    """Every parameter where the answer can change; None when nothing near can block.
    `near`: `_near_hull`'s pieces and models."""
    (x0, y0), (x1, y1) = leg
    (wx, wy), rw, rm = watcher.at, watcher.radius, mover.radius
    low, high = min(watcher.height, mover.height), max(watcher.height, mover.height)
    chosen, bodies = near
    if not len(chosen) and not len(bodies):
        return None
    if _separated_in_parts(table, chosen, bodies, watcher, mover, leg, SPLITS):
        return np.zeros(0)
    obs = gather(table, np.array(chosen, dtype=np.intp), np.array(bodies, dtype=np.intp))
    events: list[FloatArray] = [np.array([0.0, 1.0])]
    # the base touching a corner, another model's base or the watcher's
    events.append(_circle_events(leg, obs.x0, obs.y0, np.full(len(obs.x0), rm)))
    events.append(_circle_events(leg, obs.cx, obs.cy, obs.cr + rm))
    events.append(_circle_events(leg, np.array([wx]), np.array([wy]), np.array([rw + rm])))
    # ... or the side of a piece (where it starts to overlap a piece it may cross)
    elen = np.where(obs.elen == 0, 1.0, obs.elen)
    enx, eny = -obs.ey / elen, obs.ex / elen
    t_edge, e_row = _line_events(leg, enx, eny, enx * obs.x0 + eny * obs.y0, rm)
    if len(t_edge):  # only where the base's touching point lies on the side itself
        ex_, ey_ = _on_leg(leg, t_edge)
        u = ((ex_ - obs.x0[e_row]) * obs.ex[e_row] + (ey_ - obs.y0[e_row]) * obs.ey[e_row]) / (
            elen[e_row] ** 2
        )
        events.append(t_edge[(u >= 0) & (u <= 1) & (t_edge > 0) & (t_edge < 1)])
    # the base tangent to a line fixed by two features, clear up to where it touches
    fx = np.concatenate(([wx], obs.x0, obs.cx))
    fy = np.concatenate(([wy], obs.y0, obs.cy))
    fr = np.concatenate(([rw], np.zeros(len(obs.x0)), obs.cr))
    i, j = _pairs(len(fx))
    # two corners fix one line: keep the pair only if that line meets the watcher's base
    both = (fr[i] == 0) & (fr[j] == 0)
    ddx, ddy = fx[j] - fx[i], fy[j] - fy[i]
    cross = np.abs(ddx * (wy - fy[i]) - ddy * (wx - fx[i]))
    far = cross > (rw + 1e-9) * np.hypot(ddx, ddy)
    i, j = i[~(both & far)], j[~(both & far)]
    nx, ny, c = tangents(fx, fy, fr, i, j)
    ii, jj = _pairs_of_tangents(fx, fy, fr, i, j)
    meets = np.abs(nx * wx + ny * wy - c) <= rw + 1e-9
    nx, ny, c, ii, jj = nx[meets], ny[meets], c[meets], ii[meets], jj[meets]
    if len(nx):
        t, row = _line_events(leg, nx, ny, c, rm)
        inside = (t > -1e-9) & (t < 1 + 1e-9)
        t, row = t[inside], row[inside]
        if len(t):
            events.append(_kept(t, row, nx, ny, c, ii, jj, fx, fy, leg, watcher, obs, high))
    tall = np.concatenate((obs.top, obs.ch))
    if np.any((tall > low) & (tall < high)):
        length = math.dist((x0, y0), (x1, y1))
        events.append(np.linspace(0.0, 1.0, max(2, math.ceil(length / IN_BETWEEN_STEP) + 1)))
    return np.concatenate(events) if events else np.zeros(0)


_DEEP = 1e-6  # inches: how far inside an obstacle a side must pass to count as crossing it


def _separated(
    table: Table,
    chosen: list[int],
    bodies: list[int],
    watcher: Body,
    mover: Body,
    leg: tuple[Point, Point],
) -> bool:
    """Whether one convex obstacle (of the pieces `chosen` and models `bodies`), keeping
    off the watcher's base and every base on the leg, crosses both outer sides of the
    hull of the watcher's base and the leg's swept bases, and stands taller than any
    sight line can be where it crosses it: it then cuts every sight line to the leg
    (`game.geometry.lof`, step 2, with the leg's swept bases for the target's base).

    Crossing: each side passes `_DEEP` inside it, so the chord joining the two crossings
    lies that deep inside it too (it is convex) and every line from the watcher's base
    to the leg's bases crosses that chord. How tall: a line from the taller model's top
    falls toward the lower model's, so where it crosses an obstacle at least `gap` from
    the taller model's base it is at least `gap / longest` of the fall below the taller
    top (`longest`: the longest line from the watcher's base to a base on the leg). A
    piece as tall as both models (a wall as tall as the troopers) thus cuts every line
    when the two differ in height; one of in-between height cuts them when close enough
    to the lower model. One compiled loop (`game.geometry.kernels`)."""
    return _separated_in_parts(table, chosen, bodies, watcher, mover, leg, 0)


SPLITS = 3  # times a leg no one obstacle cuts off is halved, for `_separated_in_parts`


def _separated_in_parts(
    table: Table,
    chosen: list[int],
    bodies: list[int],
    watcher: Body,
    mover: Body,
    leg: tuple[Point, Point],
    splits: int,
) -> bool:
    """Whether the leg is cut off from the watcher by one obstacle (`_separated`), or
    else, halved up to `splits` times, each part by one of its own (the leg's pieces
    and models hold every part's): no clear line reaches any part, so none reaches the
    leg (two buildings side by side hide a leg that neither hides alone)."""
    plain = _plain_pieces(table)
    ba = table.body_arrays
    (x0, y0), (x1, y1) = leg
    (wx, wy), rw, rm = watcher.at, watcher.radius, mover.radius
    return compiled.separated_in_parts(
        np.asarray(chosen, dtype=np.intp),
        np.asarray(bodies, dtype=np.intp),
        (float(wx), float(wy), float(rw), float(watcher.height)),
        (float(rm), float(mover.height)),
        (float(x0), float(y0), float(x1), float(y1)),
        splits,
        plain.arrays,
        (ba.x, ba.y, ba.r, ba.h),
        EPS,
        _DEEP,
    )


class _Plain(NamedTuple):
    """The pieces as plain floats, made once per scenery: each piece's corners
    (counter-clockwise), whether it is convex, its top and its box; and for the compiled
    `_separated`, arrays of the corners, the edges (ex, ey, `_DEEP` times the length),
    each piece's top and the circle around its box (x, y, radius), its corners' span
    (start, count) and whether it is convex."""

    corners: list[list[Point]]
    convex: list[bool]
    top: list[float]
    box: list[tuple[float, float, float, float]]  # lo_x, hi_x, lo_y, hi_y
    arrays: tuple[FloatArray, FloatArray, FloatArray, FloatArray, IntArray, BoolArray]


def _plain_pieces(table: Table) -> _Plain:
    memo = table.scenery_memo
    found = memo.get("sweep:plain")
    if found is None:
        pa = table.arrays
        xs, ys = pa.x0.tolist(), pa.y0.tolist()
        corners = [
            list(zip(xs[a : a + n], ys[a : a + n], strict=True))
            for a, n in zip(pa.start.tolist(), pa.count.tolist(), strict=True)
        ]
        edges = [
            (ux - vx, uy - vy, _DEEP * math.hypot(ux - vx, uy - vy))
            for cs in corners
            for (vx, vy), (ux, uy) in zip(cs, cs[1:] + cs[:1], strict=True)
        ]
        box = list(
            zip(pa.minx.tolist(), pa.maxx.tolist(), pa.miny.tolist(), pa.maxy.tolist(), strict=True)
        )
        circle = [
            ((x0 + x1) / 2, (y0 + y1) / 2, math.hypot(x1 - x0, y1 - y0) / 2 + 1e-9)
            for x0, x1, y0, y1 in box
        ]
        top = pa.top.tolist()
        arrays = (
            np.array(xs, dtype=np.float64),
            np.array(ys, dtype=np.float64),
            np.array(edges, dtype=np.float64).reshape(-1, 3).T.copy(),
            np.array([(t, *c) for t, c in zip(top, circle, strict=True)], dtype=np.float64)
            .reshape(-1, 4)
            .T.copy(),
            np.array([pa.start.tolist(), pa.count.tolist()], dtype=np.intp).reshape(2, -1),
            np.array(pa.convex.tolist(), dtype=np.bool_),
        )
        found = memo["sweep:plain"] = _Plain(corners, pa.convex.tolist(), top, box, arrays)
    assert isinstance(found, _Plain)
    return found


def plain_corners(table: Table) -> tuple[list[list[Point]], list[bool]]:
    """Each piece's corners (counter-clockwise) and whether it is convex, as plain
    floats, made once per scenery (read only)."""
    plain = _plain_pieces(table)
    return plain.corners, plain.convex


def convex_apart(a: list[Point], b: list[Point], gap: float) -> bool:
    """Whether two convex polygons (or a polygon and a segment or point) lie more than
    `gap` apart, proved along the normal of one of their edges: their shadows on that
    line are that far apart, and no two points are nearer than their shadows. False:
    they may not be (two corners facing each other across a gap can be apart with no
    edge proving it)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
            nx, ny = y0 - y1, x1 - x0
            length = math.hypot(nx, ny)
            if length == 0.0:
                continue
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(min(pb) - max(pa), min(pa) - max(pb)) > gap * length:
                return True
    return False


def polygon_point_gap(corners: list[Point], px: float, py: float) -> float:
    """Distance from a point to a convex polygon, its corners counter-clockwise (0 inside
    it)."""
    return _polygon_point_gap(corners, px, py)


def _point_seg(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from a point to a segment."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    if ll > 0:
        t = ((px - ax) * dx + (py - ay) * dy) / ll
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t  # min/max as compares: cheaper
    else:
        t = 0.0
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _polygon_point_gap(corners: list[Point], px: float, py: float) -> float:
    """Distance from a point to a convex polygon (0 inside it)."""
    n = len(corners)
    inside = True
    best = math.inf
    for i in range(n):
        vx, vy = corners[i]
        ux, uy = corners[(i + 1) % n]
        if (ux - vx) * (py - vy) - (uy - vy) * (px - vx) <= 0.0:
            inside = False
        gap = _point_seg(px, py, vx, vy, ux, uy)
        if gap < best:
            best = gap
    return 0.0 if inside else best


_PAIRS: dict[int, tuple[IntArray, IntArray]] = {}


def _pairs(n: int) -> tuple[IntArray, IntArray]:
    """Every pair (i < j) of n features, as index arrays (kept per n; read only)."""
    found = _PAIRS.get(n)
    if found is None:
        i, j = np.triu_indices(n, k=1)
        found = _PAIRS[n] = (i.astype(np.intp), j.astype(np.intp))
    return found


def _pairs_of_tangents(
    fx: FloatArray, fy: FloatArray, fr: FloatArray, i: IntArray, j: IntArray
) -> tuple[IntArray, IntArray]:
    """The feature pair of each line `tangents` returns, in its order."""
    ll = np.hypot(fx[j] - fx[i], fy[j] - fy[i])
    ii: list[IntArray] = []
    jj: list[IntArray] = []
    for s2 in (1.0, -1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (s2 * fr[j] - fr[i]) / ll
        ok = (ll > 0) & (np.abs(ratio) <= 1.0)
        for _ in (1.0, -1.0):
            ii.append(i[ok])
            jj.append(j[ok])
    return np.concatenate(ii), np.concatenate(jj)


def _kept(
    t: FloatArray,
    row: IntArray,
    nx: FloatArray,
    ny: FloatArray,
    c: FloatArray,
    ii: IntArray,
    jj: IntArray,
    fx: FloatArray,
    fy: FloatArray,
    leg: tuple[Point, Point],
    watcher: Body,
    obs: Obstacles,
    high: float,
) -> FloatArray:
    """The events whose line is clear from the watcher's base, past both its features, to
    where the mover's base touches it, on the same side of the watcher as a feature."""
    wx, wy = watcher.at
    lx, ly, lc = nx[row], ny[row], c[row]
    ux, uy = -ly, lx
    foot_x = wx - (lx * wx + ly * wy - lc) * lx
    foot_y = wy - (lx * wx + ly * wy - lc) * ly
    px, py = _on_leg(leg, t)
    side = lx * px + ly * py - lc  # +-rm: the base touches the line at p - side * n
    tx, ty = px - side * lx, py - side * ly
    s_touch = ux * (tx - foot_x) + uy * (ty - foot_y)
    s_i = ux * (fx[ii[row]] - foot_x) + uy * (fy[ii[row]] - foot_y)
    s_j = ux * (fx[jj[row]] - foot_x) + uy * (fy[jj[row]] - foot_y)
    # the features on the touching side must lie between the watcher and the touch
    beyond = np.ones(len(t), dtype=np.bool_)
    some = np.zeros(len(t), dtype=np.bool_)
    for s in (s_i, s_j):
        same = (np.sign(s) == np.sign(s_touch)) & (np.abs(s) > 1e-9)
        some |= same
        beyond &= ~same | (np.abs(s) <= np.abs(s_touch) + 1e-9)
    keep = beyond & some
    if not keep.any():
        return np.zeros(0)
    t, foot_x, foot_y, tx, ty = t[keep], foot_x[keep], foot_y[keep], tx[keep], ty[keep]
    n = len(t)
    h = np.full(n, high)
    # pieces no taller than both give empty height ranges whose NaNs compare False
    with np.errstate(invalid="ignore"):
        blocked = blocked_by(
            foot_x, foot_y, tx - foot_x, ty - foot_y, h, h, np.zeros(n), np.ones(n), obs
        )
    return t[~blocked.any(axis=1)] if blocked.shape[1] else t
