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
  ones never prune). First, one convex solid at least as tall as both that crosses both
  outer sides of the hull of the watcher's base and the leg's swept bases, keeping off
  all of them, cuts every line to the leg (no test needed). Exact for pieces no lower
  than the taller model and for models in the way, while the mover's base keeps off the
  pieces (it cannot cross a solid one; an area piece it stands in is not exact); a piece
  of in-between height near the leg, whose top edges are not such fixed lines, adds
  tests `IN_BETWEEN_STEP` apart, as the sampling before the sweep did (not exact there).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from game.geometry.blocking import (
    Obstacles,
    blocked_by,
    gather,
    point_to_edges,
    seg_point_dist,
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
    return np.concatenate(((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)))[np.r_[ok, ok]]


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
    keep = np.r_[ok, ok]
    return t[keep], rows[keep]


def _spans_between(
    events: FloatArray, holds: Callable[[FloatArray], BoolArray], at_events: bool
) -> list[Span]:
    """The closed stretches of [0, 1] where `holds`, given every parameter where it can
    change: one test between each two neighbouring events (and at the events themselves
    when `at_events`, for answers that can hold at a single point)."""
    ev = np.unique(np.clip(np.concatenate(([0.0, 1.0], events)), 0.0, 1.0))
    if len(ev) > 1:
        ev = ev[np.r_[True, np.diff(ev) > _MERGE]]
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

    def holds(t: FloatArray) -> BoolArray:
        xs, ys = _on_leg(leg, t)
        pairs = [
            (watcher, replace(mover, at=(float(x), float(y)))) for x, y in zip(xs, ys, strict=True)
        ]
        found = clear_witnesses(table, pairs, models_block=models_block)
        return np.array([w is not None for w in found], dtype=np.bool_)

    (x0, y0), (x1, y1) = leg
    if (x0, y0) == (x1, y1):
        return [(0.0, 1.0)] if bool(holds(np.zeros(1))[0]) else []
    events = _clear_events(table, watcher, mover, leg, models_block)
    if events is None:
        return [(0.0, 1.0)]  # nothing tall enough anywhere near: every line is clear
    if not len(events):
        return []  # a convex solid separates the watcher from the whole leg
    return _spans_between(events, holds, False)


def _clear_events(
    table: Table, watcher: Body, mover: Body, leg: tuple[Point, Point], models_block: bool
) -> FloatArray | None:
    """Every parameter where the answer can change; None when nothing near can block."""
    (x0, y0), (x1, y1) = leg
    (wx, wy), rw, rm = watcher.at, watcher.radius, mover.radius
    low, high = min(watcher.height, mover.height), max(watcher.height, mover.height)
    # every sight line lies in the hull of the watcher's base and the leg's swept bases
    grow = max(rw, rm) + 1e-6
    lox, hix = min(wx, x0, x1) - grow, max(wx, x0, x1) + grow
    loy, hiy = min(wy, y0, y1) - grow, max(wy, y0, y1) + grow
    pa = table.arrays
    chosen = np.flatnonzero(
        (pa.top > low) & (pa.minx <= hix) & (pa.maxx >= lox) & (pa.miny <= hiy) & (pa.maxy >= loy)
    )
    ba = table.body_arrays
    if models_block and len(ba.x):
        sel = (
            (ba.h > low)
            & (ba.x + ba.r >= lox)
            & (ba.x - ba.r <= hix)
            & (ba.y + ba.r >= loy)
            & (ba.y - ba.r <= hiy)
        )
        for own in (watcher.id, mover.id):
            if own in table.body_index:
                sel[table.body_index[own]] = False
        bodies = np.flatnonzero(sel)
    else:
        bodies = np.zeros(0, dtype=np.intp)
    if not len(chosen) and not len(bodies):
        return None
    obs = gather(table, chosen, bodies)
    if _separated(table, obs, watcher, mover, leg, high):
        return np.zeros(0)
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
    i, j = np.triu_indices(len(fx), k=1)
    i, j = i.astype(np.intp), j.astype(np.intp)
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


def _separated(
    table: Table, obs: Obstacles, watcher: Body, mover: Body, leg: tuple[Point, Point], high: float
) -> bool:
    """Whether one convex obstacle, at least as tall as both models and keeping off the
    watcher's base and every base on the leg, crosses both outer sides of the hull of the
    watcher's base and the leg's swept bases: it then cuts every sight line to the leg
    (`game.geometry.lof`, step 2, with the leg's swept bases for the target's base)."""
    (wx, wy), rw, rm = watcher.at, watcher.radius, mover.radius
    outer: list[tuple[float, float, float, float]] = []  # (x0, y0, x1, y1) of each side
    for k, (ex, ey) in enumerate(leg):
        ox, oy = leg[1 - k]
        length = math.hypot(ex - wx, ey - wy)
        if length <= rw + rm:
            return False
        phi = math.atan2(ey - wy, ex - wx)
        ang = math.acos((rm - rw) / length)
        for sign in (1.0, -1.0):
            # an outer tangent n.p = c of the two bases, both on its positive side; a side
            # of the hull when the other end's base is on that side too
            nx, ny = math.cos(phi + sign * ang), math.sin(phi + sign * ang)
            c = nx * wx + ny * wy - rw
            if nx * ox + ny * oy - c >= rm - 1e-9:
                outer.append((wx - rw * nx, wy - rw * ny, ex - rm * nx, ey - rm * ny))
    if len(outer) != 2:
        return False
    arr = np.array(outer)
    n = 2
    h = np.full(n, high)
    with np.errstate(invalid="ignore"):
        blocked = blocked_by(
            arr[:, 0], arr[:, 1], arr[:, 2] - arr[:, 0], arr[:, 3] - arr[:, 1],
            h, h, np.zeros(n), np.ones(n), obs,
        )  # fmt: skip
    tops = np.concatenate((obs.top, obs.ch))
    convex = np.concatenate((table.arrays.convex[obs.pieces], np.ones(len(obs.bodies), bool)))
    across = np.flatnonzero(blocked[0] & blocked[1] & convex & (tops >= high))
    npieces = len(obs.pieces)
    for q in across:
        if q >= npieces:  # a model in the way, clear of the watcher and of the leg
            o = q - npieces
            (ax, ay), (bx, by) = leg
            gap = float(seg_point_dist(ax, ay, bx, by, obs.cx[o : o + 1], obs.cy[o : o + 1])[0])
            apart = math.hypot(obs.cx[o] - wx, obs.cy[o] - wy) > obs.cr[o] + rw + 1e-7
            if apart and gap > obs.cr[o] + rm + 1e-7:
                return True
            continue
        sel = obs.owner == q
        ex0, ey0 = obs.x0[sel], obs.y0[sel]
        ex1, ey1 = ex0 + obs.ex[sel], ey0 + obs.ey[sel]
        if float(point_to_edges(wx, wy, ex0, ey0, ex1, ey1).min()) <= rw + 1e-7:
            continue
        if _segments_apart(leg, ex0, ey0, ex1, ey1) > rm + 1e-7:
            return True
    return False


def _segments_apart(
    leg: tuple[Point, Point], x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
) -> float:
    """Least distance between the leg and the edges (segments, none crossing it)."""
    (ax, ay), (bx, by) = leg
    d = min(
        float(point_to_edges(ax, ay, x0, y0, x1, y1).min()),
        float(point_to_edges(bx, by, x0, y0, x1, y1).min()),
        float(seg_point_dist(ax, ay, bx, by, x0, y0).min()),
    )
    if _crossing(leg, x0, y0, x1, y1):
        return 0.0
    return d


def _crossing(
    leg: tuple[Point, Point], x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
) -> bool:
    (ax, ay), (bx, by) = leg
    o1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
    o2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
    o3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
    o4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
    return bool(((o1 * o2 <= 0) & (o3 * o4 <= 0)).any())


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
