"""Line of fire between two model cylinders, exact: the search for a clear sight line
(the witness) among finitely many candidate lines, one pair or many pairs at once.

What blocks a line is `game.geometry.blocking`; how much of the target a clear line
shows is `game.geometry.silhouette`.

How line of fire is decided exactly (the argument, in short):

1. Heights. Raising either end of a 3D segment raises every point of it, and every
   obstacle is a solid standing on the ground, so the best heights are the tops of
   both cylinders. Then a piece no taller than the lower model never blocks, and a
   piece at least as tall as the taller model blocks wherever the 2D segment enters
   its footprint: for those pieces the question is purely 2D. For a piece of height
   strictly between the two tops ("mid-height") only the part of the segment below
   its top blocks; for a fixed 2D line that part is smallest when the lower model's
   end is pushed to the back of its base and the higher model's end is the nearest
   point of its base, and that is the 3D segment we test for each 2D line.
2. 2D lines. The clear lines that meet both bases form regions of the 2D space of
   lines whose boundaries are made of lines tangent to a base or to a model in the
   way, or through a scenery corner. A non-empty region has a corner where two such
   constraints meet, so if any clear line exists, one of the common tangents of two
   "features" (the two bases, corners of the nearby pieces as discs of radius 0, the
   bases of models in the way) is clear. We build all those lines at once with numpy,
   test each one exactly (no sampling) against the nearby edges and discs, and
   return a clear one as the witness. Grazing lines are exactly the candidates, which
   is why touching must count as clear (and why a 0.05" gap is found). For
   mid-height pieces the same candidates are tested in 3D, which can miss a line that
   passes over a top edge.
3. Over top edges. When those candidates fail and some of them is clear of everything
   at least as tall as both models, the search goes on over pairs of end points on the
   rims of the two top discs, where the top edges of mid-height pieces are curves of a
   simple trigonometric form; their meeting points and folds are the remaining
   candidates (`game.geometry.over_tops`). Exact for scenery whose
   footprints keep off both bases; models in the way enter that step as 16-gons.

Speed: the nearby pieces are picked with bounding boxes and edge distances over
numpy arrays built once; the centre line and the four common tangents of the two
bases are tried first; a convex piece (or a model) that blocks both outer tangents
separates the two bases, which proves "no line of fire" without the full candidate set.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from game.geometry.answers import LineOfFire, Point3, Sight, SightLine
from game.geometry.blocking import (
    EPS,
    Obstacles,
    blocked_by,
    gather,
    nearby,
    point_to_edges,
)
from game.geometry.over_tops import line_over_tops
from game.geometry.table import Body, BodyId, BoolArray, FloatArray, IntArray, Point, Table

__all__ = [
    "EPS",
    "LineOfFire",
    "Point3",
    "Sight",  # kept here for older importers: the answer types live in game.geometry.answers
    "SightLine",
    "clear_lines",
    "clear_sight",
    "clear_witnesses",
    "in_arc",
    "line_of_fire",
    "lines_of_fire",
    "tangents",
]


def in_arc(shooter: Body, target: Body, arc_degrees: float) -> bool:
    """Whether the target's base is at least partly inside the shooter's arc.

    The arc is centred on the shooter's facing and measured from its base centre
    (for example a 180 degree arc, a 90 degree one, or 360 for all round).
    """
    if arc_degrees >= 360.0:
        return True
    dx = target.at[0] - shooter.at[0]
    dy = target.at[1] - shooter.at[1]
    dist = math.hypot(dx, dy)
    if dist <= target.radius:
        return True
    off = math.degrees(math.atan2(dy, dx)) - shooter.facing
    off = (off + 180.0) % 360.0 - 180.0
    spread = math.degrees(math.asin(min(1.0, target.radius / dist)))
    return abs(off) <= arc_degrees / 2.0 + spread + 1e-9


# ------------------------------------------------------------- candidate lines


def tangents(
    x: FloatArray, y: FloatArray, r: FloatArray, i: IntArray, j: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """All common tangent lines n.p = c of feature pairs (i, j) (discs; corners are r = 0)."""
    dx = x[j] - x[i]
    dy = y[j] - y[i]
    ll = np.hypot(dx, dy)
    phi = np.arctan2(dy, dx)
    ns_x: list[FloatArray] = []
    ns_y: list[FloatArray] = []
    cs: list[FloatArray] = []
    for s2 in (1.0, -1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (s2 * r[j] - r[i]) / ll
        ok = (ll > 0) & (np.abs(ratio) <= 1.0)
        ang = np.arccos(np.clip(ratio, -1.0, 1.0))
        for sign in (1.0, -1.0):
            beta = phi + sign * ang
            nx, ny = np.cos(beta), np.sin(beta)
            c = nx * x[i] + ny * y[i] - r[i]
            ns_x.append(nx[ok])
            ns_y.append(ny[ok])
            cs.append(c[ok])
    return np.concatenate(ns_x), np.concatenate(ns_y), np.concatenate(cs)


@dataclass(frozen=True, slots=True)
class _Segments:
    px: FloatArray
    py: FloatArray
    dx: FloatArray
    dy: FloatArray
    h0: FloatArray
    h1: FloatArray
    ta: FloatArray
    tb: FloatArray


def _segments_on_lines(
    nx: FloatArray, ny: FloatArray, c: FloatArray, a: Body, b: Body, back: bool
) -> _Segments:
    """For each line meeting both bases, the 3D sight segment on it from a's top to b's.

    `back`: push the lower model's end to the far side of its base and take the nearest
    point of the higher one (best against mid-height pieces); otherwise near to near.
    """
    ax, ay = a.at
    bx, by = b.at
    ux, uy = -ny, nx
    flip = (ux * (bx - ax) + uy * (by - ay)) < 0
    ux = np.where(flip, -ux, ux)
    uy = np.where(flip, -uy, uy)
    da = nx * ax + ny * ay - c
    db = nx * bx + ny * by - c
    ha = np.sqrt(np.maximum(a.radius**2 - da * da, 0.0))
    hb = np.sqrt(np.maximum(b.radius**2 - db * db, 0.0))
    pax, pay = ax - da * nx, ay - da * ny
    pbx, pby = bx - db * nx, by - db * ny
    near_ax, near_ay = pax + ha * ux, pay + ha * uy
    near_bx, near_by = pbx - hb * ux, pby - hb * uy
    sx, sy, ex, ey = near_ax, near_ay, near_bx, near_by
    if back and a.height < b.height:
        sx, sy = pax - ha * ux, pay - ha * uy
    elif back and a.height > b.height:
        ex, ey = pbx + hb * ux, pby + hb * uy
    dx, dy = ex - sx, ey - sy
    ll = np.hypot(dx, dy)
    safe = np.where(ll == 0, 1.0, ll)
    ta = np.hypot(near_ax - sx, near_ay - sy) / safe
    tb = 1.0 - np.hypot(ex - near_bx, ey - near_by) / safe
    n = len(nx)
    return _Segments(
        px=sx,
        py=sy,
        dx=dx,
        dy=dy,
        h0=np.full(n, a.height),
        h1=np.full(n, b.height),
        ta=ta,
        tb=tb,
    )


def _segments_few(
    nxs: Sequence[float], nys: Sequence[float], cs: Sequence[float], a: Body, b: Body, back: bool
) -> _Segments:
    """`_segments_on_lines` for a handful of lines, float by float: the same operations
    in the same order (so the same segments to the last bit), without a numpy call per
    step; the lengths go through one np.hypot, as there."""
    ax, ay = a.at
    bx, by = b.at
    ra2, rb2 = a.radius**2, b.radius**2
    lower, higher = back and a.height < b.height, back and a.height > b.height
    sxs: list[float] = []
    sys_: list[float] = []
    dxs: list[float] = []
    dys: list[float] = []
    gaps_x: list[float] = []  # near_a - start, then end - near_b
    gaps_y: list[float] = []
    for nx, ny, c in zip(nxs, nys, cs, strict=True):
        ux, uy = -ny, nx
        if (ux * (bx - ax) + uy * (by - ay)) < 0:
            ux, uy = -ux, -uy
        da = nx * ax + ny * ay - c
        db = nx * bx + ny * by - c
        ha = math.sqrt(max(ra2 - da * da, 0.0))
        hb = math.sqrt(max(rb2 - db * db, 0.0))
        pax, pay = ax - da * nx, ay - da * ny
        pbx, pby = bx - db * nx, by - db * ny
        near_ax, near_ay = pax + ha * ux, pay + ha * uy
        near_bx, near_by = pbx - hb * ux, pby - hb * uy
        sx, sy, ex, ey = near_ax, near_ay, near_bx, near_by
        if lower:
            sx, sy = pax - ha * ux, pay - ha * uy
        elif higher:
            ex, ey = pbx + hb * ux, pby + hb * uy
        sxs.append(sx)
        sys_.append(sy)
        dxs.append(ex - sx)
        dys.append(ey - sy)
        gaps_x.append(near_ax - sx)
        gaps_y.append(near_ay - sy)
        gaps_x.append(ex - near_bx)
        gaps_y.append(ey - near_by)
    n = len(sxs)
    dx = np.array(dxs)
    dy = np.array(dys)
    lengths = np.hypot(np.concatenate((dx, gaps_x)), np.concatenate((dy, gaps_y)))
    ll = lengths[:n]
    safe = np.where(ll == 0, 1.0, ll)
    return _Segments(
        px=np.array(sxs),
        py=np.array(sys_),
        dx=dx,
        dy=dy,
        h0=np.full(n, a.height),
        h1=np.full(n, b.height),
        ta=lengths[n::2] / safe,
        tb=1.0 - lengths[n + 1 :: 2] / safe,
    )


def _lines_through_both(
    nx: FloatArray, ny: FloatArray, c: FloatArray, a: Body, b: Body
) -> BoolArray:
    da = np.abs(nx * a.at[0] + ny * a.at[1] - c)
    db = np.abs(nx * b.at[0] + ny * b.at[1] - c)
    result: BoolArray = (da <= a.radius + 1e-9) & (db <= b.radius + 1e-9)
    return result


def _witness(seg: _Segments, k: int) -> SightLine:
    x0, y0 = float(seg.px[k]), float(seg.py[k])
    return SightLine(
        Point3(x0, y0, float(seg.h0[k])),
        Point3(x0 + float(seg.dx[k]), y0 + float(seg.dy[k]), float(seg.h1[k])),
    )


def _centre_and_tangent_lists(a: Body, b: Body) -> tuple[list[float], list[float], list[float]]:
    """The centre line first, then the four common tangents of the two bases
    (the first two are the outer ones), as plain lists of n.x, n.y and c."""
    (ax, ay), (bx, by) = a.at, b.at
    phi = math.atan2(by - ay, bx - ax)
    length = math.hypot(bx - ax, by - ay)
    nxs = [math.cos(phi + math.pi / 2)]
    nys = [math.sin(phi + math.pi / 2)]
    cs = [nxs[0] * ax + nys[0] * ay]
    for s2 in (1.0, -1.0):
        ratio = (s2 * b.radius - a.radius) / length
        if abs(ratio) > 1.0:
            continue
        ang = math.acos(ratio)
        for sign in (1.0, -1.0):
            nx, ny = math.cos(phi + sign * ang), math.sin(phi + sign * ang)
            nxs.append(nx)
            nys.append(ny)
            cs.append(nx * ax + ny * ay - a.radius)
    return nxs, nys, cs


def _contact_line(a: Body, b: Body) -> SightLine:
    ax, ay = a.at
    bx, by = b.at
    d = math.hypot(bx - ax, by - ay) or 1.0
    mx = ax + (bx - ax) * a.radius / d
    my = ay + (by - ay) * a.radius / d
    return SightLine(Point3(mx, my, a.height), Point3(mx, my, b.height))


def line_of_fire(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
) -> LineOfFire:
    """The exact line-of-fire ruling between two models (see the module docstring)."""
    a = table.body(shooter)
    b = table.body(target)
    arc_ok = in_arc(a, b, arc_degrees)
    clear, witness, blockers = clear_sight(table, a, b, models_block)
    return LineOfFire(a.id, b.id, arc_ok, clear, witness, blockers)


def lines_of_fire(
    table: Table,
    pairs: Sequence[tuple[BodyId | str, BodyId | str]],
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
) -> list[LineOfFire]:
    """Rulings for many (shooter, target) pairs, the same answers as `line_of_fire`.

    A clear sight line is the same set of segments both ways, so each unordered pair is
    solved once (the arc is per direction). The first two steps (centre line and common
    tangents of the bases; a convex solid across both outer tangents) run for all pairs
    in one numpy pass; only the pairs they leave open take the full candidate set.
    """
    keys: dict[frozenset[str], int] = {}
    firsts: list[tuple[Body, Body]] = []
    for shooter, target in pairs:
        a = table.body(shooter)
        b = table.body(target)
        key = frozenset((str(a.id), str(b.id)))
        if key not in keys:
            keys[key] = len(firsts)
            firsts.append((a, b))
    solved = _prepass(table, firsts, models_block)
    for k, (a, b) in enumerate(firsts):
        if solved[k] is None:
            solved[k] = clear_sight(table, a, b, models_block)
    out: list[LineOfFire] = []
    for shooter, target in pairs:
        a = table.body(shooter)
        b = table.body(target)
        k = keys[frozenset((str(a.id), str(b.id)))]
        answer = solved[k]
        assert answer is not None
        clear, witness, blockers = answer
        if witness is not None and firsts[k][0].id != a.id:
            witness = SightLine(witness.end, witness.start)
        out.append(LineOfFire(a.id, b.id, in_arc(a, b, arc_degrees), clear, witness, blockers))
    return out


def clear_lines(
    table: Table, pairs: Sequence[tuple[Body, Body]], *, models_block: bool = True
) -> list[bool]:
    """Whether some clear sight line joins each pair of bodies (no arc, no visible
    fraction): the cheap question, exact, asked for many pairs at once.

    The bodies may stand anywhere, for instance one model at the points of its route:
    the table's models with the same ids are left out of the way, and the answer is
    `line_of_fire(...).clear` on the table with the two bodies moved there. All pairs
    go through the batched first steps of `lines_of_fire`; only the ones left open are
    solved one by one.
    """
    return [w is not None for w in clear_witnesses(table, pairs, models_block=models_block)]


def clear_witnesses(
    table: Table, pairs: Sequence[tuple[Body, Body]], *, models_block: bool = True
) -> list[SightLine | None]:
    """`clear_lines` with a clear sight line for each pair that has one (None: none)."""
    # the batched pass gathers the whole table once: worth it from a few pairs on
    solved = (
        _prepass(table, pairs, models_block, blockers_wanted=False)
        if len(pairs) >= 2
        else [None] * len(pairs)
    )
    out: list[SightLine | None] = []
    for answer, (a, b) in zip(solved, pairs, strict=True):
        clear, witness, _ = answer if answer is not None else clear_sight(table, a, b, models_block)
        out.append(witness if clear else None)
    return out


_Answer = tuple[bool, SightLine | None, tuple[str, ...]]


def _scenery_gap(table: Table, at: Point, radius: float) -> FloatArray:
    """How far a base at `at` keeps off each piece (negative: it overlaps), remembered
    with the scenery (bases may stand anywhere; watchers mostly stand still)."""
    memo = table.scenery_memo
    gaps = memo.get("gaps")
    if not isinstance(gaps, dict):
        gaps = memo["gaps"] = {}
    key = (at, radius)
    found = gaps.get(key)
    if found is None:
        polygons = memo.get("polygons")
        if polygons is None:
            polygons = memo["polygons"] = np.array(table.polygons)
        if len(table.pieces):
            found = shapely.distance(polygons, shapely.points(at)) - radius
        else:
            found = np.zeros(0)
        if len(gaps) > 8192:
            gaps.clear()
        gaps[key] = found
    result: FloatArray = found
    return result


def _prepass(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    models_block: bool,
    chunk: int = 20,
    blockers_wanted: bool = True,
) -> list[_Answer | None]:
    """Steps 1 and 2 of `clear_sight` for many pairs at once (None: not settled)."""
    answers: list[_Answer | None] = [None] * len(pairs)
    nbodies = len(table.bodies) if models_block else 0
    bodies = np.arange(nbodies, dtype=np.intp)
    pa = table.arrays
    body_tops = table.body_arrays.h[bodies]
    # chunks of pairs close together on the table share few pieces
    order = sorted(
        range(len(pairs)),
        key=lambda k: (
            round((pairs[k][0].at[0] + pairs[k][1].at[0]) / 12),
            (pairs[k][0].at[1] + pairs[k][1].at[1]),
        ),
    )
    for lo in range(0, len(order), chunk):
        group = [
            (k, pairs[k][0], pairs[k][1])
            for k in order[lo : lo + chunk]
            if math.dist(pairs[k][0].at, pairs[k][1].at)
            > pairs[k][0].radius + pairs[k][1].radius + EPS
        ]
        lines = [_centre_and_tangent_lists(a, b) for _, a, b in group]
        if not group or any(len(ln[0]) != 5 for ln in lines):
            continue
        nx = np.array([v for ln in lines for v in ln[0]])
        ny = np.array([v for ln in lines for v in ln[1]])
        c = np.array([v for ln in lines for v in ln[2]])
        # per pair: a's x, y, radius, height, then b's
        ends = np.array(
            [(*a.at, a.radius, a.height, *b.at, b.radius, b.height) for _, a, b in group]
        )
        per = np.repeat(ends, 5, axis=0)
        seg = _segments_vec(nx, ny, c, *(per[:, i] for i in range(8)))
        # only the pieces some pair of this chunk could meet (bounding circles near its
        # centre segment); the others cannot block
        ax_, ay_, bx_, by_ = (ends[:, i : i + 1] for i in (0, 1, 4, 5))
        reach = np.maximum(ends[:, 2:3], ends[:, 6:7])
        ddx, ddy = bx_ - ax_, by_ - ay_  # the centre segments are longer than the bases
        t = np.clip(((pa.cx - ax_) * ddx + (pa.cy - ay_) * ddy) / (ddx * ddx + ddy * ddy), 0, 1)
        dist = np.hypot(pa.cx - (ax_ + t * ddx), pa.cy - (ay_ + t * ddy))
        chosen = np.flatnonzero((dist <= reach + 1e-6 + pa.radius).any(axis=0))
        sub = gather(table, chosen, bodies)
        # pieces lower than both ends are kept here: their height range is empty
        with np.errstate(invalid="ignore"):
            part = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, sub)
        # columns: the chosen pieces, then every model (each pair's own two left out)
        nc = len(chosen)
        rows: BoolArray = part.reshape(len(group), 5, nc + nbodies)
        if nbodies:
            own = [
                (g, nc + table.body_index[body.id])
                for g, (_, a, b) in enumerate(group)
                for body in (a, b)
                if body.id in table.body_index
            ]
            if own:
                gs, cols = zip(*own, strict=True)
                rows[list(gs), :, list(cols)] = False
        free: BoolArray = ~np.logical_or.reduce(rows, axis=2)
        settled: BoolArray = np.logical_or.reduce(free, axis=1)
        first = free.argmax(axis=1)
        tops = np.concatenate((sub.top, body_tops))
        convex = np.concatenate((pa.convex[chosen], np.ones(nbodies, dtype=np.bool_)))
        high = np.maximum(ends[:, 3], ends[:, 7])
        across = rows[:, 1] & rows[:, 2] & convex & (tops >= high[:, None])
        for g in np.flatnonzero(settled | np.logical_or.reduce(across, axis=1)):
            k, a, b = group[g]
            if settled[g]:
                answers[k] = (True, _witness(seg, 5 * int(g) + int(first[g])), ())
                continue
            cut = across[g]
            if cut[:nc].any():
                cut[:nc] &= (_scenery_gap(table, a.at, a.radius)[chosen] > EPS) & (
                    _scenery_gap(table, b.at, b.radius)[chosen] > EPS
                )
            if cut.any():
                blockers = (
                    tuple(_column_id(table, chosen, int(j)) for j in np.flatnonzero(rows[g, 0]))
                    if blockers_wanted
                    else ()
                )
                answers[k] = (False, None, blockers)
    return answers


def _column_id(table: Table, chosen: IntArray, j: int) -> str:
    """Id of column j of the prepass: the chosen pieces first, then every model."""
    if j < len(chosen):
        return str(table.pieces[int(chosen[j])].id)
    return str(table.bodies[j - len(chosen)].id)


def _segments_vec(
    nx: FloatArray,
    ny: FloatArray,
    c: FloatArray,
    ax: FloatArray,
    ay: FloatArray,
    ar: FloatArray,
    ah: FloatArray,
    bx: FloatArray,
    by: FloatArray,
    br: FloatArray,
    bh: FloatArray,
) -> _Segments:
    """`_segments_on_lines` with one pair per line, always in `back` mode."""
    ux, uy = -ny, nx
    flip = (ux * (bx - ax) + uy * (by - ay)) < 0
    ux = np.where(flip, -ux, ux)
    uy = np.where(flip, -uy, uy)
    da = nx * ax + ny * ay - c
    db = nx * bx + ny * by - c
    ha = np.sqrt(np.maximum(ar**2 - da * da, 0.0))
    hb = np.sqrt(np.maximum(br**2 - db * db, 0.0))
    pax, pay = ax - da * nx, ay - da * ny
    pbx, pby = bx - db * nx, by - db * ny
    near_ax, near_ay = pax + ha * ux, pay + ha * uy
    near_bx, near_by = pbx - hb * ux, pby - hb * uy
    sx = np.where(ah < bh, pax - ha * ux, near_ax)
    sy = np.where(ah < bh, pay - ha * uy, near_ay)
    ex = np.where(ah > bh, pbx + hb * ux, near_bx)
    ey = np.where(ah > bh, pby + hb * uy, near_by)
    dx, dy = ex - sx, ey - sy
    ll = np.hypot(dx, dy)
    safe = np.where(ll == 0, 1.0, ll)
    ta = np.hypot(near_ax - sx, near_ay - sy) / safe
    tb = 1.0 - np.hypot(ex - near_bx, ey - near_by) / safe
    return _Segments(px=sx, py=sy, dx=dx, dy=dy, h0=ah, h1=bh, ta=ta, tb=tb)


def clear_sight(
    table: Table, a: Body, b: Body, models_block: bool, solid_only: bool = False
) -> tuple[bool, SightLine | None, tuple[str, ...]]:
    dist = math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1])
    if dist <= a.radius + b.radius + EPS:
        return True, _contact_line(a, b), ()
    low, high = min(a.height, b.height), max(a.height, b.height)
    obs = nearby(table, a, b, min_top=low, models_block=models_block, solid_only=solid_only)
    if obs.empty:
        seg = _segments_few(*_centre_and_tangent_lists(a, b), a, b, back=False)
        return True, _witness(seg, 0), ()
    tops = np.concatenate((obs.top, obs.ch))
    mid = bool((tops < high).any())
    # 1. the centre line and the four common tangents of the two bases
    nxs, nys, cs = _centre_and_tangent_lists(a, b)
    seg = _segments_few(nxs, nys, cs, a, b, back=mid)
    blocked = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    blockers = tuple(obs.ids(table, int(k)) for k in np.flatnonzero(blocked[0]))
    # 2. one convex solid (at least as tall as both) across both outer tangents separates
    #    the bases: no line of fire. Pieces touching either base are left to step 3.
    full = tops >= high
    if len(nxs) >= 3:
        across = blocked[1] & blocked[2] & full
        across[: len(obs.pieces)] &= table.arrays.convex[obs.pieces]
        if across.any() and _clear_of_bases(obs, np.flatnonzero(across), a, b):
            return False, None, blockers
    # 3. every common tangent of two features (bases, corners, models in the way)
    fx = np.concatenate((np.array([a.at[0], b.at[0]]), obs.x0, obs.cx))
    fy = np.concatenate((np.array([a.at[1], b.at[1]]), obs.y0, obs.cy))
    fr = np.concatenate((np.array([a.radius, b.radius]), np.zeros(len(obs.x0)), obs.cr))
    i, j = _feature_pairs(len(fx))
    nx, ny, c = tangents(fx, fy, fr, i, j)
    keep = _lines_through_both(nx, ny, c, a, b)
    nx, ny, c = nx[keep], ny[keep], c[keep]
    if len(nx) == 0:
        return False, None, blockers
    seg = _segments_on_lines(nx, ny, c, a, b, back=mid)
    blocked = blocked_by(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    # 4. in-between pieces: when some candidate is clear of everything at least as tall
    #    as both (else the flat problem already has no line), lines over their top edges
    if mid and low < high and (~blocked[:, full]).all(axis=1).any():
        over = line_over_tops(a, b, obs)
        if over is not None:
            return True, over, ()
    return False, None, blockers


_PAIRS: dict[int, tuple[IntArray, IntArray]] = {}


def _feature_pairs(n: int) -> tuple[IntArray, IntArray]:
    """Every pair i < j of n features (np.triu_indices, kept per n: read only)."""
    found = _PAIRS.get(n)
    if found is None:
        i, j = np.triu_indices(n, k=1)
        found = (i.astype(np.intp), j.astype(np.intp))
        if len(_PAIRS) > 512:
            _PAIRS.clear()
        _PAIRS[n] = found
    return found


def _clear_of_bases(obs: Obstacles, ks: IntArray, a: Body, b: Body) -> bool:
    """Whether at least one of the obstacles `ks` keeps clear of both bases."""
    npieces = len(obs.pieces)
    for k in ks:
        if k >= npieces:
            return True  # models never overlap the two bases (contact was handled)
        sel = slice(obs.offsets[k], obs.offsets[k + 1] if k + 1 < npieces else len(obs.x0))
        x0, y0 = obs.x0[sel], obs.y0[sel]
        x1, y1 = x0 + obs.ex[sel], y0 + obs.ey[sel]
        da = float(point_to_edges(a.at[0], a.at[1], x0, y0, x1, y1).min())
        db = float(point_to_edges(b.at[0], b.at[1], x0, y0, x1, y1).min())
        if da > a.radius + EPS and db > b.radius + EPS:
            return True
    return False
