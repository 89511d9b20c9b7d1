"""Line of fire between two model cylinders, exact, and the visible fraction of the target.

DESIGN.md "Geometry model (2.5D)". A sight line joins a point of the shooter's cylinder
to a point of the target's. It is blocked where it passes through the interior of a
prism (footprint interior, strictly below the top) or, when the rule system says
models block, through another model's cylinder. A line that only touches an edge, a
corner or a top (within `EPS` inches) is clear. The part of a line inside the
shooter's or the target's own base is inside that model and is never blocked.

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
   candidates (see "lines over in-between tops" below). Exact for scenery whose
   footprints keep off both bases; models in the way enter that step as 16-gons.

Speed: the nearby pieces are picked with bounding boxes and edge distances over
numpy arrays built once; the centre line and the four common tangents of the two
bases are tried first; a convex piece (or a model) that blocks both outer tangents
separates the two bases, which proves "no line of fire" without the full candidate set.

Visible fraction: the target's silhouette is the rectangle (base diameter x height)
across the line of centres. For each of `columns` vertical strips we find, over sight
lines from the shooter's top to the strip's centre line, the lowest height of the strip
that some clear line reaches; obstacles taller than the line are exact angular shadows
(directions through every corner, just either side, are included so a narrow gap is
never stepped over) and lower pieces give the height a line must clear them at.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import shapely

from game.geometry.table import (
    Body,
    BodyId,
    BoolArray,
    FloatArray,
    IntArray,
    Point,
    Table,
)

EPS = 1e-7  # inches: a line this close to an edge, corner or top only touches it
_ANGLE_EPS = 1e-9
_NUDGE = 1e-7  # radians either side of a corner direction


@dataclass(frozen=True, slots=True)
class Point3:
    x: float
    y: float
    z: float


@dataclass(frozen=True, slots=True)
class SightLine:
    """A 3D segment from a point of the shooter's cylinder to a point of the target's."""

    start: Point3
    end: Point3


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """The exact answer: `clear` says a clear sight line exists, `lof` adds the arc."""

    shooter: BodyId
    target: BodyId
    in_arc: bool
    clear: bool
    witness: SightLine | None
    blockers: tuple[str, ...]  # pieces / models across the centre line when not clear

    @property
    def lof(self) -> bool:
        return self.in_arc and self.clear


@dataclass(frozen=True, slots=True)
class Visibility:
    """Share of the target's silhouette that some clear sight line reaches (within 0.02)."""

    fraction: float
    hidden_by: tuple[str, ...]  # ids of the pieces / models hiding the rest
    # side (inches) of the largest square of the silhouette that clear lines reach
    patch: float = 0.0


@dataclass(frozen=True, slots=True)
class Sight:
    """Everything geometry says about one shooter and one target; rules read it."""

    shooter: BodyId
    target: BodyId
    in_arc: bool
    clear: bool
    witness: SightLine | None
    blockers: tuple[str, ...]
    visible_fraction: float
    hidden_by: tuple[str, ...]
    distance: float
    visible_patch: float = 0.0  # side of the largest square seen (Visibility.patch)

    @property
    def lof(self) -> bool:
        return self.in_arc and self.clear


# --------------------------------------------------------------------------- arc


def in_arc(shooter: Body, target: Body, arc_degrees: float) -> bool:
    """Whether the target's base is at least partly inside the shooter's arc.

    The arc is centred on the shooter's facing and measured from its base centre
    (Infinity 180, Necromunda 90, Open Rebellion 360).
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


# ---------------------------------------------------------------- nearby obstacles


@dataclass(frozen=True, slots=True)
class _Obstacles:
    """The pieces and models near one pair, gathered into contiguous arrays."""

    pieces: IntArray  # table indices of the selected pieces
    top: FloatArray  # per selected piece
    offsets: IntArray  # first edge of each selected piece in the edge arrays below
    x0: FloatArray
    y0: FloatArray
    ex: FloatArray
    ey: FloatArray
    elen: FloatArray
    owner: IntArray  # local piece index per edge
    in_x: FloatArray
    in_y: FloatArray
    out_x: FloatArray
    out_y: FloatArray
    reflex: BoolArray
    bodies: IntArray  # table indices of the models in the way
    cx: FloatArray
    cy: FloatArray
    cr: FloatArray
    ch: FloatArray

    @property
    def empty(self) -> bool:
        return len(self.pieces) == 0 and len(self.bodies) == 0

    def ids(self, table: Table, k: int) -> str:
        """Id of local obstacle k: pieces first, then models."""
        if k < len(self.pieces):
            return str(table.pieces[int(self.pieces[k])].id)
        return str(table.bodies[int(self.bodies[k - len(self.pieces)])].id)


def _seg_point_dist(
    ax: float, ay: float, bx: float, by: float, px: FloatArray, py: FloatArray
) -> FloatArray:
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / ll, 0.0, 1.0) if ll > 0 else 0.0 * px
    result: FloatArray = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
    return result


def _nearby(
    table: Table,
    a: Body,
    b: Body,
    *,
    min_top: float,
    models_block: bool,
    reach: float | None = None,
    solid_only: bool = False,
) -> _Obstacles:
    """Pieces taller than `min_top` with an edge within `reach` of the centre segment
    (by default the larger base radius: every sight line lies in the hull of the two
    bases), and models in the way if models block."""
    ax, ay = a.at
    bx, by = b.at
    reach = max(a.radius, b.radius) + 1e-6 if reach is None else reach
    pa = table.arrays
    pick = (
        (pa.top > min_top)
        & (pa.minx <= max(ax, bx) + reach)
        & (pa.maxx >= min(ax, bx) - reach)
        & (pa.miny <= max(ay, by) + reach)
        & (pa.maxy >= min(ay, by) - reach)
    )
    if solid_only:
        pick &= pa.solid
    # a piece matters only if its bounding circle comes within reach of the centre segment
    pick &= _seg_point_dist(ax, ay, bx, by, pa.cx, pa.cy) <= reach + pa.radius
    chosen = np.flatnonzero(pick)
    ba = table.body_arrays
    if models_block and len(ba.x):
        d = _seg_point_dist(ax, ay, bx, by, ba.x, ba.y) - ba.r
        sel = (d <= reach) & (ba.h > min_top)
        for own in (a.id, b.id):
            if own in table.body_index:
                sel[table.body_index[own]] = False
        bodies = np.flatnonzero(sel)
    else:
        bodies = np.zeros(0, dtype=np.intp)
    return _gather(table, chosen, bodies)


def _point_to_edges(
    px: float, py: float, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
) -> FloatArray:
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    ll = np.where(ll == 0, 1.0, ll)
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / ll, 0.0, 1.0)
    result: FloatArray = np.hypot(px - (x0 + t * dx), py - (y0 + t * dy))
    return result


def _crosses(
    ax: float,
    ay: float,
    bx: float,
    by: float,
    x0: FloatArray,
    y0: FloatArray,
    x1: FloatArray,
    y1: FloatArray,
) -> BoolArray:
    o1 = (bx - ax) * (y0 - ay) - (by - ay) * (x0 - ax)
    o2 = (bx - ax) * (y1 - ay) - (by - ay) * (x1 - ax)
    o3 = (x1 - x0) * (ay - y0) - (y1 - y0) * (ax - x0)
    o4 = (x1 - x0) * (by - y0) - (y1 - y0) * (bx - x0)
    result: BoolArray = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    return result


def _gather(table: Table, chosen: IntArray, bodies: IntArray) -> _Obstacles:
    pa = table.arrays
    if len(chosen):
        counts = pa.count[chosen]
        mask = np.zeros(len(pa.top), dtype=np.bool_)
        mask[chosen] = True
        idx = np.flatnonzero(mask[pa.piece])
        offsets = _offsets(counts)
        owner = np.repeat(np.arange(len(chosen)), counts).astype(np.intp)
    else:
        idx = np.zeros(0, dtype=np.intp)
        offsets = np.zeros(0, dtype=np.intp)
        owner = np.zeros(0, dtype=np.intp)
    ex = pa.x1[idx] - pa.x0[idx]
    ey = pa.y1[idx] - pa.y0[idx]
    ba = table.body_arrays
    return _Obstacles(
        pieces=chosen,
        top=pa.top[chosen],
        offsets=offsets,
        x0=pa.x0[idx],
        y0=pa.y0[idx],
        ex=ex,
        ey=ey,
        elen=np.hypot(ex, ey),
        owner=owner,
        in_x=pa.in_x[idx],
        in_y=pa.in_y[idx],
        out_x=pa.out_x[idx],
        out_y=pa.out_y[idx],
        reflex=pa.reflex[idx],
        bodies=bodies,
        cx=ba.x[bodies],
        cy=ba.y[bodies],
        cr=ba.r[bodies],
        ch=ba.h[bodies],
    )


# ------------------------------------------------------------ blocking, vectorised


def _height_range(
    h0: FloatArray, h1: FloatArray, top: FloatArray, ta: FloatArray, tb: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Where (as segment parameters) each segment is strictly below each obstacle's top,
    intersected with [ta, tb] (outside both models' own bases). Shapes (N, K)."""
    dh = (h1 - h0)[:, None]
    base = h0[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        thr = (top[None, :] - base) / dh
    below = base < top[None, :]
    lo = np.where(dh < 0, thr, np.where((dh == 0) & ~below, np.inf, 0.0))
    hi = np.where(dh > 0, thr, np.where((dh == 0) & ~below, -np.inf, 1.0))
    lo = np.maximum(lo, ta[:, None])
    hi = np.minimum(hi, tb[:, None])
    return lo, hi


def _blocked(
    px: FloatArray,
    py: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    h0: FloatArray,
    h1: FloatArray,
    ta: FloatArray,
    tb: FloatArray,
    obs: _Obstacles,
) -> BoolArray:
    """(N, pieces + models): segment n (p + t d, heights h0 -> h1) enters obstacle k's
    interior below its top for some t in [ta, tb]. Touching is clear."""
    n = len(px)
    dlen = np.hypot(dx, dy)
    dlen = np.where(dlen == 0, 1.0, dlen)
    et = (EPS / dlen)[:, None]
    parts: list[BoolArray] = []
    if len(obs.pieces):
        lo_p, hi_p = _height_range(h0, h1, obs.top, ta, tb)
        lo = lo_p[:, obs.owner]
        hi = hi_p[:, obs.owner]
        wx = obs.x0[None, :] - px[:, None]
        wy = obs.y0[None, :] - py[:, None]
        dxc = dx[:, None]
        dyc = dy[:, None]
        # transversal crossing of an edge's interior (a proper crossing enters or leaves)
        denom = dxc * obs.ey[None, :] - dyc * obs.ex[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * obs.ey[None, :] - wy * obs.ex[None, :]) / denom
            u = (wx * dyc - wy * dxc) / denom
        ul = u * obs.elen[None, :]
        trans = (np.abs(denom) > 1e-12 * dlen[:, None] * obs.elen[None, :]) & (
            (ul > EPS) & (ul < obs.elen[None, :] - EPS)
        )
        entering = denom < 0  # the interior lies left of each (counter-clockwise) edge
        cross_block = trans & (
            ((t > lo + et) & (t < hi - et))
            | ((np.abs(t - lo) <= et) & entering & (hi > lo + et))
            | ((np.abs(t - hi) <= et) & ~entering & (hi > lo + et))
        )
        # through a corner: blocked if the segment heads into the corner's interior wedge
        ux = (dx / dlen)[:, None]
        uy = (dy / dlen)[:, None]
        side = (dxc * wy - dyc * wx) / dlen[:, None]
        tv = (wx * dxc + wy * dyc) / (dlen * dlen)[:, None]
        on = (np.abs(side) <= EPS) & (tv >= lo - et) & (tv <= hi + et)
        c_out = obs.out_x[None, :] * uy - obs.out_y[None, :] * ux
        c_in = obs.in_x[None, :] * uy - obs.in_y[None, :] * ux
        rf = obs.reflex[None, :]
        fwd_in = np.where(
            rf,
            (c_out > _ANGLE_EPS) | (c_in > _ANGLE_EPS),
            (c_out > _ANGLE_EPS) & (c_in > _ANGLE_EPS),
        )
        bwd_in = np.where(
            rf,
            (c_out < -_ANGLE_EPS) | (c_in < -_ANGLE_EPS),
            (c_out < -_ANGLE_EPS) & (c_in < -_ANGLE_EPS),
        )
        vert_block = on & (((tv < hi - et) & fwd_in) | ((tv > lo + et) & bwd_in))
        edge_block = cross_block | vert_block
        # along a seam: two pieces whose faces lie on the line from both sides over the
        # same stretch fill it solidly (the line is inside their union)
        along = (np.abs(side) <= EPS) & (np.abs(side + denom / dlen[:, None]) <= EPS)
        if along.any():
            edge_block |= _seams(along, tv, wx, wy, dxc, dyc, dlen, lo, hi, et, obs)
        parts.append(np.logical_or.reduceat(edge_block, obs.offsets, axis=1))
    if len(obs.bodies):
        lo, hi = _height_range(h0, h1, obs.ch, ta, tb)
        wx = obs.cx[None, :] - px[:, None]
        wy = obs.cy[None, :] - py[:, None]
        tc = (wx * dx[:, None] + wy * dy[:, None]) / (dlen * dlen)[:, None]
        tcl = np.clip(tc, lo, np.maximum(lo, hi))
        dist = np.hypot(wx - tcl * dx[:, None], wy - tcl * dy[:, None])
        parts.append((dist < obs.cr[None, :] - EPS) & (hi > lo + et))
    if not parts:
        return np.zeros((n, 0), dtype=np.bool_)
    return np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]


def _seams(
    along: BoolArray,
    tv: FloatArray,
    wx: FloatArray,
    wy: FloatArray,
    dxc: FloatArray,
    dyc: FloatArray,
    dlen: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    et: FloatArray,
    obs: _Obstacles,
) -> BoolArray:
    """(N, E): edges lying on the segment with interior on one side, overlapping (within
    the blocking range) an edge on the segment with interior on the other side."""
    out = np.zeros(along.shape, dtype=np.bool_)
    forward = (obs.ex[None, :] * dxc + obs.ey[None, :] * dyc) > 0  # interior left of d
    t_end = tv + (obs.ex[None, :] * dxc + obs.ey[None, :] * dyc) / (dlen * dlen)[:, None]
    a_lo = np.maximum(np.minimum(tv, t_end), lo)
    a_hi = np.minimum(np.maximum(tv, t_end), hi)
    for n in np.flatnonzero((along & forward).any(axis=1) & (along & ~forward).any(axis=1)):
        left = np.flatnonzero(along[n] & forward[n])
        right = np.flatnonzero(along[n] & ~forward[n])
        for i in left:
            for j in right:
                if min(a_hi[n, i], a_hi[n, j]) - max(a_lo[n, i], a_lo[n, j]) > et[n, 0]:
                    out[n, i] = out[n, j] = True
    return out


# ------------------------------------------------------------- candidate lines


def _tangents(
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


def _centre_and_tangents(a: Body, b: Body) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The centre line first, then the four common tangents of the two bases
    (the first two are the outer ones)."""
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
    return np.array(nxs), np.array(nys), np.array(cs)


def _offsets(counts: IntArray) -> IntArray:
    out = np.zeros(len(counts), dtype=np.intp)
    np.cumsum(counts[:-1], out=out[1:])
    return out


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
    clear, witness, blockers = _clear_sight(table, a, b, models_block)
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
            solved[k] = _clear_sight(table, a, b, models_block)
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
        clear, witness, _ = (
            answer if answer is not None else _clear_sight(table, a, b, models_block)
        )
        out.append(witness if clear else None)
    return out


_Answer = tuple[bool, SightLine | None, tuple[str, ...]]


def _prepass(
    table: Table,
    pairs: Sequence[tuple[Body, Body]],
    models_block: bool,
    chunk: int = 20,
    blockers_wanted: bool = True,
) -> list[_Answer | None]:
    """Steps 1 and 2 of `_clear_sight` for many pairs at once (None: not settled)."""
    answers: list[_Answer | None] = [None] * len(pairs)
    npieces = len(table.pieces)
    bodies = np.arange(len(table.bodies)) if models_block else np.zeros(0, dtype=np.intp)
    obs = _gather(table, np.arange(npieces), bodies) if blockers_wanted else None
    tops = np.concatenate((table.arrays.top, table.body_arrays.h[bodies]))
    convex = np.concatenate((table.arrays.convex, np.ones(len(bodies), dtype=np.bool_)))
    polygons = np.array(table.polygons)
    gaps: dict[tuple[BodyId, Point, float], FloatArray] = {}

    def gap(body: Body) -> FloatArray:
        """How far the base keeps off each piece (the bases may stand anywhere)."""
        key = (body.id, body.at, body.radius)
        found = gaps.get(key)
        if found is None:
            if npieces:
                found = shapely.distance(polygons, shapely.points(body.at)) - body.radius
            else:
                found = np.zeros(0)
            gaps[key] = found
        return found

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
        lines = [_centre_and_tangents(a, b) for _, a, b in group]
        if not group or any(len(ln[0]) != 5 for ln in lines):
            continue
        nx = np.concatenate([ln[0] for ln in lines])
        ny = np.concatenate([ln[1] for ln in lines])
        c = np.concatenate([ln[2] for ln in lines])

        def per(values: list[float]) -> FloatArray:
            return np.repeat(np.array(values, dtype=np.float64), 5)

        seg = _segments_vec(
            nx,
            ny,
            c,
            per([a.at[0] for _, a, _ in group]),
            per([a.at[1] for _, a, _ in group]),
            per([a.radius for _, a, _ in group]),
            per([a.height for _, a, _ in group]),
            per([b.at[0] for _, _, b in group]),
            per([b.at[1] for _, _, b in group]),
            per([b.radius for _, _, b in group]),
            per([b.height for _, _, b in group]),
        )
        # only the pieces some pair of this chunk could meet (bounding circles near its
        # centre segment); columns of the others stay False
        pa = table.arrays
        ends = np.array([(*a.at, *b.at, max(a.radius, b.radius)) for _, a, b in group])
        ax_, ay_, bx_, by_, reach = (ends[:, i : i + 1] for i in range(5))
        ddx, ddy = bx_ - ax_, by_ - ay_  # the centre segments are longer than the bases
        t = np.clip(((pa.cx - ax_) * ddx + (pa.cy - ay_) * ddy) / (ddx * ddx + ddy * ddy), 0, 1)
        dist = np.hypot(pa.cx - (ax_ + t * ddx), pa.cy - (ay_ + t * ddy))
        chosen = np.flatnonzero((dist <= reach + 1e-6 + pa.radius).any(axis=0))
        sub = _gather(table, chosen, bodies)
        # pieces lower than both ends are kept here: their empty height range (inf) meets
        # parallel edges' inf parameters in NaNs, which compare False (not blocked)
        with np.errstate(invalid="ignore"):
            part = _blocked(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, sub)
        blocked = np.zeros((len(seg.px), npieces + len(bodies)), dtype=np.bool_)
        blocked[:, chosen] = part[:, : len(chosen)]
        blocked[:, npieces:] = part[:, len(chosen) :]
        for g, (k, a, b) in enumerate(group):
            rows = blocked[5 * g : 5 * g + 5]
            if models_block:
                for own in (a.id, b.id):
                    if own in table.body_index:
                        rows[:, npieces + table.body_index[own]] = False
            free = ~rows.any(axis=1)
            if free.any():
                answers[k] = (True, _witness(seg, 5 * g + int(np.argmax(free))), ())
                continue
            across = rows[1] & rows[2] & convex & (tops >= max(a.height, b.height))
            if across[:npieces].any():
                across[:npieces] &= (gap(a) > EPS) & (gap(b) > EPS)
            if across.any():
                blockers = (
                    tuple(obs.ids(table, int(j)) for j in np.flatnonzero(rows[0]))
                    if obs is not None
                    else ()
                )
                answers[k] = (False, None, blockers)
    return answers


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


def _clear_sight(
    table: Table, a: Body, b: Body, models_block: bool, solid_only: bool = False
) -> tuple[bool, SightLine | None, tuple[str, ...]]:
    dist = math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1])
    if dist <= a.radius + b.radius + EPS:
        return True, _contact_line(a, b), ()
    low, high = min(a.height, b.height), max(a.height, b.height)
    obs = _nearby(table, a, b, min_top=low, models_block=models_block, solid_only=solid_only)
    if obs.empty:
        seg = _segments_on_lines(*_centre_and_tangents(a, b), a, b, back=False)
        return True, _witness(seg, 0), ()
    tops = np.concatenate((obs.top, obs.ch))
    mid = bool(np.any(tops < high))
    # 1. the centre line and the four common tangents of the two bases
    nx, ny, c = _centre_and_tangents(a, b)
    seg = _segments_on_lines(nx, ny, c, a, b, back=mid)
    blocked = _blocked(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    blockers = tuple(obs.ids(table, int(k)) for k in np.flatnonzero(blocked[0]))
    # 2. one convex solid (at least as tall as both) across both outer tangents separates
    #    the bases: no line of fire. Pieces touching either base are left to step 3.
    full = tops >= high
    if len(nx) >= 3:
        across = blocked[1] & blocked[2] & full
        across[: len(obs.pieces)] &= table.arrays.convex[obs.pieces]
        if across.any() and _clear_of_bases(obs, np.flatnonzero(across), a, b):
            return False, None, blockers
    # 3. every common tangent of two features (bases, corners, models in the way)
    fx = np.concatenate((np.array([a.at[0], b.at[0]]), obs.x0, obs.cx))
    fy = np.concatenate((np.array([a.at[1], b.at[1]]), obs.y0, obs.cy))
    fr = np.concatenate((np.array([a.radius, b.radius]), np.zeros(len(obs.x0)), obs.cr))
    i, j = np.triu_indices(len(fx), k=1)
    i = i.astype(np.intp)
    j = j.astype(np.intp)
    nx, ny, c = _tangents(fx, fy, fr, i, j)
    keep = _lines_through_both(nx, ny, c, a, b)
    nx, ny, c = nx[keep], ny[keep], c[keep]
    if len(nx) == 0:
        return False, None, blockers
    seg = _segments_on_lines(nx, ny, c, a, b, back=mid)
    blocked = _blocked(seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb, obs)
    free = ~blocked.any(axis=1)
    if free.any():
        return True, _witness(seg, int(np.argmax(free))), ()
    # 4. in-between pieces: when some candidate is clear of everything at least as tall
    #    as both (else the flat problem already has no line), lines over their top edges
    if mid and low < high and (~blocked[:, full]).all(axis=1).any():
        over = _over_tops(a, b, obs)
        if over is not None:
            return True, over, ()
    return False, None, blockers


def _clear_of_bases(obs: _Obstacles, ks: IntArray, a: Body, b: Body) -> bool:
    """Whether at least one of the obstacles `ks` keeps clear of both bases."""
    npieces = len(obs.pieces)
    for k in ks:
        if k >= npieces:
            return True  # models never overlap the two bases (contact was handled)
        sel = obs.owner == k
        x0, y0 = obs.x0[sel], obs.y0[sel]
        x1, y1 = x0 + obs.ex[sel], y0 + obs.ey[sel]
        da = float(_point_to_edges(a.at[0], a.at[1], x0, y0, x1, y1).min())
        db = float(_point_to_edges(b.at[0], b.at[1], x0, y0, x1, y1).min())
        if da > a.radius + EPS and db > b.radius + EPS:
            return True
    return False


# ----------------------------------------------------------------- visible fraction


def visibility(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    models_block: bool = True,
    columns: int = 48,
    spread: int = 7,
) -> Visibility:
    """Share of the target's silhouette some clear sight line reaches, and who hides the rest."""
    a = table.body(shooter)
    b = table.body(target)
    return _visibility(table, a, b, models_block, columns, spread)


def _visibility(
    table: Table, a: Body, b: Body, models_block: bool, columns: int, spread: int
) -> Visibility:
    ax, ay = a.at
    bx, by = b.at
    dist = math.hypot(bx - ax, by - ay)
    if dist <= a.radius + b.radius + EPS:
        return Visibility(1.0, (), min(2 * b.radius, b.height))
    obs = _nearby(table, a, b, min_top=0.0, models_block=models_block)
    if obs.empty:
        return Visibility(1.0, (), min(2 * b.radius, b.height))
    # the silhouette: `columns` strips across the line of centres, through b's centre
    px_, py_ = -(by - ay) / dist, (bx - ax) / dist
    u = (np.arange(columns) + 0.5) / columns * 2.0 - 1.0
    qx = bx + u * b.radius * px_
    qy = by + u * b.radius * py_
    # directions from each strip toward the shooter's base
    kx, ky = ax - qx, ay - qy
    kd = np.hypot(kx, ky)
    psi = np.arctan2(ky, kx)
    omega = np.arcsin(np.clip(a.radius / kd, 0.0, 1.0))
    dirs = [psi[:, None] + omega[:, None] * np.linspace(-0.999, 0.999, spread)[None, :]]
    full = obs.top >= max(a.height, b.height)
    if full.any():
        vx = obs.x0[full[obs.owner]]
        vy = obs.y0[full[obs.owner]]
        va = np.arctan2(vy[None, :] - qy[:, None], vx[None, :] - qx[:, None])
        dirs += [va - _NUDGE, va + _NUDGE]
    if len(obs.bodies):
        ca = np.arctan2(obs.cy[None, :] - qy[:, None], obs.cx[None, :] - qx[:, None])
        cd = np.hypot(obs.cy[None, :] - qy[:, None], obs.cx[None, :] - qx[:, None])
        sp = np.arcsin(np.clip(obs.cr[None, :] / np.maximum(cd, 1e-12), 0.0, 1.0))
        dirs += [ca - sp - _NUDGE, ca + sp + _NUDGE]
    theta = np.concatenate(dirs, axis=1)  # (J, K)
    delta = (theta - psi[:, None] + np.pi) % (2 * np.pi) - np.pi
    inside = np.abs(delta) <= omega[:, None]
    jj, kk = np.nonzero(inside)
    th = theta[jj, kk]
    dl = delta[jj, kk]
    k = kd[jj]
    root = np.sqrt(np.maximum(a.radius**2 - (k * np.sin(dl)) ** 2, 0.0))
    s_near = k * np.cos(dl) - root
    s_far = k * np.cos(dl) + root
    cx_, cy_ = np.cos(th), np.sin(th)
    col = np.r_[jj, jj]
    s = np.r_[s_near, s_far]
    ox = np.r_[qx[jj], qx[jj]]
    oy = np.r_[qy[jj], qy[jj]]
    sx = ox + s * np.r_[cx_, cx_]
    sy = oy + s * np.r_[cy_, cy_]
    dx, dy = ox - sx, oy - sy
    ll = np.hypot(dx, dy)
    ta = np.r_[np.zeros_like(s_near), (s_far - s_near) / np.maximum(s_far, 1e-12)]
    # where the segment enters the target's base
    fx, fy = sx - bx, sy - by
    qa = dx * dx + dy * dy
    qb = 2 * (fx * dx + fy * dy)
    qc = fx * fx + fy * fy - b.radius**2
    tb = (-qb - np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))) / (2 * np.maximum(qa, 1e-12))
    tb = np.clip(tb, 0.0, 1.0)
    t1, t2 = _spans(sx, sy, dx, dy, ll, ta, tb, obs)  # (N, K)
    tops = np.r_[obs.top, obs.ch]
    ha = a.height
    hit = t1 <= t2
    with np.errstate(divide="ignore", invalid="ignore"):
        low = (tops[None, :] - ha * (1.0 - t2)) / t2
        high = ha + (tops[None, :] - ha) / t1
    need = np.where(tops[None, :] <= ha, low, high)
    need = np.where(np.isinf(tops)[None, :], np.inf, need)
    need = np.where(hit, np.nan_to_num(need, nan=np.inf, posinf=np.inf), -np.inf)
    zseg = need.max(axis=1) if need.shape[1] else np.full(len(sx), -np.inf)
    zmin = np.full(columns, np.inf)
    np.minimum.at(zmin, col, zseg)
    seen = b.height - np.clip(zmin, 0.0, b.height)
    fraction = float(seen.sum() / (columns * b.height)) if b.height > 0 else 0.0
    hidden: set[str] = set()
    hidden_cols = np.flatnonzero(zmin > 1e-9)
    if len(hidden_cols):
        # in each strip not fully seen, the obstacles that set the best line's height
        order = np.lexsort((zseg, col))
        first = np.ones(len(order), dtype=np.bool_)
        first[1:] = col[order][1:] != col[order][:-1]
        best = order[first]
        best_col = col[best]
        rows = best[zmin[best_col] > 1e-9]
        level = np.minimum(zseg[rows], 1e300)[:, None] - 1e-9
        ks = np.flatnonzero((need[rows] >= level).any(axis=0))
        hidden.update(obs.ids(table, int(k)) for k in ks)
    patch = _largest_patch(seen, 2 * b.radius / columns)
    return Visibility(min(1.0, max(0.0, fraction)), tuple(sorted(hidden)), patch)


def patch_core(body: Body, side: float) -> Body:
    """The body a clear line must reach for a square of `side` of its silhouette to be
    seen: the same base, `side` lower (less a hair for the patch test's tolerance).

    Why: a square of side s seen means some strip of the silhouette is seen to a depth
    of s, so a clear line from the shooter's top reaches a point of the silhouette (a
    point of the base's disc) at most s below the top; raising that end raises every
    point of the line and keeps it clear (module docstring, 1.), so a clear line reaches
    the top of the lowered body. No clear line to it: no patch that large. Too low a
    body to lower (or s = 0): the body itself."""
    height = body.height - side + 1e-6
    if side <= 0.0 or height <= 0.0:
        return body
    return replace(body, height=height)


def _largest_patch(seen: FloatArray, width: float) -> float:
    """Side of the largest square that fits in the seen part of the silhouette.

    Strip j is seen from its lowest reached height up to the top (a line to a point is
    still clear to any point above it), so a square of side s fits when some run of
    consecutive strips at least s wide is seen to a depth of s in every strip. Strips are
    `width` wide and judged at their centre lines, so the answer is good to a strip."""
    best = 0.0
    run = seen
    for k in range(1, len(seen) + 1):
        if k > 1:
            run = np.minimum(run[:-1], seen[k - 1 :])
        deepest = float(run.max())
        best = max(best, min(k * width, deepest))
        if deepest <= k * width:
            break  # wider runs are no deeper
    return best


def _spans(
    px: FloatArray,
    py: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    ll: FloatArray,
    ta: FloatArray,
    tb: FloatArray,
    obs: _Obstacles,
) -> tuple[FloatArray, FloatArray]:
    """(N, K): first and last segment parameter inside each obstacle within [ta, tb]
    (t1 > t2 when the segment misses it)."""
    parts1: list[FloatArray] = []
    parts2: list[FloatArray] = []
    tac, tbc = ta[:, None], tb[:, None]
    if len(obs.pieces):
        wx = obs.x0[None, :] - px[:, None]
        wy = obs.y0[None, :] - py[:, None]
        dxc, dyc = dx[:, None], dy[:, None]
        denom = dxc * obs.ey[None, :] - dyc * obs.ex[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (wx * obs.ey[None, :] - wy * obs.ex[None, :]) / denom
            u = (wx * dyc - wy * dxc) / denom
        ok = (u >= 0) & (u <= 1) & (t >= tac) & (t <= tbc) & (denom != 0)
        entering = denom < 0
        inf = np.inf
        t_in = np.where(ok & entering, t, inf)
        t_out = np.where(ok & ~entering, t, inf)
        min_in = np.minimum.reduceat(t_in, obs.offsets, axis=1)
        min_out = np.minimum.reduceat(t_out, obs.offsets, axis=1)
        t_in2 = np.where(ok & entering, t, -inf)
        t_out2 = np.where(ok & ~entering, t, -inf)
        max_in = np.maximum.reduceat(t_in2, obs.offsets, axis=1)
        max_out = np.maximum.reduceat(t_out2, obs.offsets, axis=1)
        # starting inside: the first crossing leaves; ending inside: the last one enters
        t1 = np.where(min_out < min_in, np.broadcast_to(tac, min_in.shape), min_in)
        t2 = np.where(max_in > max_out, np.broadcast_to(tbc, max_in.shape), max_out)
        parts1.append(t1)
        parts2.append(t2)
    if len(obs.bodies):
        fx = px[:, None] - obs.cx[None, :]
        fy = py[:, None] - obs.cy[None, :]
        qa = (dx * dx + dy * dy)[:, None]
        qb = 2 * (fx * dx[:, None] + fy * dy[:, None])
        qc = fx * fx + fy * fy - obs.cr[None, :] ** 2
        disc = qb * qb - 4 * qa * qc
        root = np.sqrt(np.maximum(disc, 0.0))
        lo = np.maximum((-qb - root) / (2 * qa), tac)
        hi = np.minimum((-qb + root) / (2 * qa), tbc)
        miss = (disc <= 0) | (hi < lo)
        parts1.append(np.where(miss, np.inf, lo))
        parts2.append(np.where(miss, -np.inf, hi))
    return np.concatenate(parts1, axis=1), np.concatenate(parts2, axis=1)


def sight(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    arc_degrees: float = 360.0,
    models_block: bool = True,
    witness: SightLine | None = None,
) -> Sight:
    """Line of fire, visible fraction and edge-to-edge distance in one answer.
    `witness`: a clear sight line between the two, found before (`clear_witnesses`);
    given one, the line of fire is not searched for again."""
    a = table.body(shooter)
    b = table.body(target)
    arc_ok = in_arc(a, b, arc_degrees)
    blockers: tuple[str, ...] = ()
    if witness is not None:
        clear = True
    else:
        clear, witness, blockers = _clear_sight(table, a, b, models_block)
    if clear:
        vis = _visibility(table, a, b, models_block, 48, 7)
        fraction, hidden, patch = vis.fraction, vis.hidden_by, vis.patch
    else:
        fraction, hidden, patch = 0.0, blockers, 0.0
    return Sight(
        shooter=a.id,
        target=b.id,
        in_arc=arc_ok,
        clear=clear,
        witness=witness,
        blockers=blockers if not clear else hidden,
        visible_fraction=fraction,
        hidden_by=hidden,
        distance=edge_distance(a, b),
        visible_patch=patch,
    )


def edge_distance(a: Body, b: Body) -> float:
    """Distance between two models, edge to edge (closest points of the bases)."""
    return max(0.0, math.hypot(b.at[0] - a.at[0], b.at[1] - a.at[1]) - a.radius - b.radius)


def point_distance(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


# ------------------------------------------------- lines over in-between tops (rims)
#
# For a piece of height strictly between the two tops, what matters is where the sight
# line crosses that height. Take the lower model's end p = a + ra u(phi) and the higher
# one's q = b + rb u(psi), both on the rims of the top discs (module docstring, step 1).
# Every pair (phi, psi) on that torus is a real sight line, and a clear line exists iff
# the clear set there is not empty. Its boundary lies on curves of three kinds, each of
# the form alpha(phi) cos psi + beta(phi) sin psi = gamma(phi) with alpha, beta, gamma
# of the form c0 + c1 cos phi + c2 sin phi:
#   corner v:          the line pq passes through v (a vertical edge of a prism);
#   top edge e of k:   m_k = (1 - t_k) p + t_k q, where the line is at k's height,
#                      lies on the line of e (the sight line grazes the top edge);
#   top of model o:    m_o lies on o's base circle (grazes its top rim).
# Take a component of the clear set and its point of largest phi (in a lift of phi that
# the component does not wrap across, else it meets a fixed slice phi0). There two
# boundary curves meet, or one curve folds (its tangent is parallel to psi). Where both
# curves are corners, or one corner folds, the point is on a line through two corners or
# through a corner tangent to b's base, which the tangent candidates already test; so the
# new candidates are the meeting points of a top curve with any curve and the folds of
# top curves (roots of trigonometric polynomials of degree <= 4, found as polynomial
# roots), and every crossing of the slice phi0 with the midpoints between them.
# Models in the way enter through the corners of a circumscribed 16-gon (their tangent
# curves are not of the form above): that part is not exact, see the README.

_RIM_SIDES = 16


def _trig(c: FloatArray) -> npt.NDArray[np.complex128]:
    """(N, 3) [c0, c1, c2] of c0 + c1 cos + c2 sin -> Laurent coefficients z^-1, z^0, z^1."""
    out = np.empty(c.shape, dtype=np.complex128)
    out[:, 0] = (c[:, 1] + 1j * c[:, 2]) / 2
    out[:, 1] = c[:, 0]
    out[:, 2] = (c[:, 1] - 1j * c[:, 2]) / 2
    return out


def _mul(
    x: npt.NDArray[np.complex128], y: npt.NDArray[np.complex128]
) -> npt.NDArray[np.complex128]:
    out = np.zeros((x.shape[0], x.shape[1] + y.shape[1] - 1), dtype=np.complex128)
    for i in range(x.shape[1]):
        out[:, i : i + y.shape[1]] += x[:, i : i + 1] * y
    return out


def _trig_roots(coef: npt.NDArray[np.complex128]) -> tuple[IntArray, FloatArray]:
    """Real roots phi of real trigonometric polynomials given by Laurent coefficients
    (N, 2m+1) for powers -m..m: (row, phi) for each root, polished by Newton steps."""
    m = (coef.shape[1] - 1) // 2
    size = np.abs(coef).max(axis=1) if coef.size else np.zeros(0)
    rows: list[IntArray] = []
    phis: list[FloatArray] = []
    live = size > 0
    mag = np.abs(coef) > 1e-12 * size[:, None]
    # effective degree: the highest power with a coefficient that is not negligible
    deg = np.zeros(len(coef), dtype=np.intp)
    for d in range(1, m + 1):
        deg = np.where(mag[:, m + d] | mag[:, m - d], d, deg)
    for d in range(1, m + 1):
        sel = np.flatnonzero(live & (deg == d))
        if not len(sel):
            continue
        poly = coef[sel, m - d : m + d + 1]  # z^0 .. z^2d after multiplying by z^d
        lead = poly[:, -1]
        comp = np.zeros((len(sel), 2 * d, 2 * d), dtype=np.complex128)
        comp[:, np.arange(1, 2 * d), np.arange(2 * d - 1)] = 1.0
        comp[:, :, -1] = -poly[:, :-1] / lead[:, None]
        z = np.linalg.eigvals(comp)
        near = np.abs(np.abs(z) - 1.0) < 1e-3
        r, _ = np.nonzero(near)
        rows.append(sel[r])
        phis.append(np.angle(z[near]))
    if not rows:
        return np.zeros(0, dtype=np.intp), np.zeros(0)
    row = np.concatenate(rows)
    phi = np.concatenate(phis)
    powers = np.arange(-m, m + 1)
    for _ in range(3):
        e = np.exp(1j * np.outer(phi, powers))
        g = np.real((coef[row] * e).sum(axis=1))
        dg = np.real((coef[row] * e * (1j * powers)).sum(axis=1))
        step = np.where(np.abs(dg) > 1e-12 * size[row], g / np.where(dg == 0, 1.0, dg), 0.0)
        phi = phi - np.clip(step, -1e-3, 1e-3)
    return row, phi


def _at(c: FloatArray, phi: FloatArray) -> FloatArray:
    """c0 + c1 cos phi + c2 sin phi for rows of c and matching phi."""
    result: FloatArray = c[:, 0] + c[:, 1] * np.cos(phi) + c[:, 2] * np.sin(phi)
    return result


def _over_tops(a: Body, b: Body, obs: _Obstacles) -> SightLine | None:
    """A clear sight line found among the rim candidates above, or None."""
    swap = a.height > b.height
    lo, hi = (b, a) if swap else (a, b)
    (ax, ay), ra, ha = lo.at, lo.radius, lo.height
    (bx, by), rb, hb = hi.at, hi.radius, hi.height
    span = hb - ha
    if span <= 0:
        return None
    # corners: every piece corner, and a 16-gon around each model in the way
    ang = 2 * np.pi * np.arange(_RIM_SIDES) / _RIM_SIDES
    grow = 1.0 / math.cos(math.pi / _RIM_SIDES) + 1e-6
    vx = np.concatenate((obs.x0, (obs.cx[:, None] + grow * obs.cr[:, None] * np.cos(ang)).ravel()))
    vy = np.concatenate((obs.y0, (obs.cy[:, None] + grow * obs.cr[:, None] * np.sin(ang)).ravel()))
    v0x, v0y = vx - ax, vy - ay
    b0x, b0y = bx - ax, by - ay
    zero = np.zeros(len(vx))
    corner_a = np.column_stack((rb * v0y, zero, zero - rb * ra))
    corner_b = np.column_stack((-rb * v0x, zero + rb * ra, zero))
    corner_g = np.column_stack((-(b0x * v0y - b0y * v0x), ra * (vy - by), -ra * (vx - bx)))
    # top edges of in-between pieces: m_k on the line of the edge
    mid_edge = obs.top[obs.owner] < hb
    t = (obs.top[obs.owner][mid_edge] - ha) / span
    ll = np.where(obs.elen[mid_edge] == 0, 1.0, obs.elen[mid_edge])
    nx, ny = -obs.ey[mid_edge] / ll, obs.ex[mid_edge] / ll
    ce = nx * obs.x0[mid_edge] + ny * obs.y0[mid_edge]
    z1 = np.zeros(len(t))
    edge_a = np.column_stack((t * rb * nx, z1, z1))
    edge_b = np.column_stack((t * rb * ny, z1, z1))
    edge_g = np.column_stack(
        (
            ce - (1 - t) * (nx * ax + ny * ay) - t * (nx * bx + ny * by),
            -(1 - t) * ra * nx,
            -(1 - t) * ra * ny,
        )
    )
    # top rims of in-between models in the way: m_o on the base circle
    mid_body = obs.ch < hb
    tm = (obs.ch[mid_body] - ha) / span
    wx = (1 - tm) * ax + tm * bx - obs.cx[mid_body]
    wy = (1 - tm) * ay + tm * by - obs.cy[mid_body]
    z2 = np.zeros(len(tm))
    k2 = 2 * tm * rb
    rim_a = np.column_stack((k2 * wx, k2 * (1 - tm) * ra, z2))
    rim_b = np.column_stack((k2 * wy, z2, k2 * (1 - tm) * ra))
    rim_g = np.column_stack(
        (
            obs.cr[mid_body] ** 2 - (tm * rb) ** 2 - wx**2 - wy**2 - ((1 - tm) * ra) ** 2,
            -2 * (1 - tm) * ra * wx,
            -2 * (1 - tm) * ra * wy,
        )
    )
    al = np.concatenate((corner_a, edge_a, rim_a))
    be = np.concatenate((corner_b, edge_b, rim_b))
    ga = np.concatenate((corner_g, edge_g, rim_g))
    ncorner = len(vx)
    tops = np.arange(ncorner, len(al))
    phis: list[FloatArray] = []
    psis: list[FloatArray] = []
    if len(tops):
        # meeting points of a top curve with any other curve
        i, j = np.meshgrid(tops, np.arange(len(al)), indexing="ij")
        keep = (j < ncorner) | (j > i)
        i, j = i[keep], j[keep]
        tai, tbi, tgi = _trig(al[i]), _trig(be[i]), _trig(ga[i])
        taj, tbj, tgj = _trig(al[j]), _trig(be[j]), _trig(ga[j])
        num_c = _mul(tgi, tbj) - _mul(tgj, tbi)
        num_s = _mul(tai, tgj) - _mul(taj, tgi)
        det = _mul(tai, tbj) - _mul(taj, tbi)
        row, phi = _trig_roots(_mul(num_c, num_c) + _mul(num_s, num_s) - _mul(det, det))
        ri, rj = i[row], j[row]
        d = _at(al[ri], phi) * _at(be[rj], phi) - _at(al[rj], phi) * _at(be[ri], phi)
        cn = _at(ga[ri], phi) * _at(be[rj], phi) - _at(ga[rj], phi) * _at(be[ri], phi)
        sn = _at(al[ri], phi) * _at(ga[rj], phi) - _at(al[rj], phi) * _at(ga[ri], phi)
        ok = np.abs(d) > 1e-12
        phis.append(phi[ok])
        psis.append(np.arctan2(sn[ok], cn[ok]))
        # folds of top curves: alpha^2 + beta^2 = gamma^2
        ta_, tb_, tg_ = _trig(al[tops]), _trig(be[tops]), _trig(ga[tops])
        row, phi = _trig_roots(_mul(ta_, ta_) + _mul(tb_, tb_) - _mul(tg_, tg_))
        k = tops[row]
        phis.append(phi)
        fa, fb, fg = _at(al[k], phi), _at(be[k], phi), _at(ga[k], phi)
        fr = np.where(np.hypot(fa, fb) == 0, 1.0, np.hypot(fa, fb))
        psis.append(np.arctan2(fb, fa) + np.arccos(np.clip(fg / fr, -1.0, 1.0)))
    # the slice through the lower model's back point: every curve crossing, and between
    phi0 = math.atan2(ay - by, ax - bx)
    p0 = np.full(len(al), phi0)
    rho = np.hypot(_at(al, p0), _at(be, p0))
    th = np.arctan2(_at(be, p0), _at(al, p0))
    cut = np.abs(_at(ga, p0)) <= rho
    half = np.arccos(np.clip(_at(ga, p0)[cut] / np.where(rho[cut] == 0, 1.0, rho[cut]), -1, 1))
    cross = np.sort(np.concatenate((th[cut] + half, th[cut] - half)) % (2 * np.pi))
    if len(cross):
        gaps = np.diff(np.r_[cross, cross[0] + 2 * np.pi])
        cross = np.concatenate((cross, cross + gaps / 2))
    else:
        cross = np.array([phi0 + math.pi])
    phis.append(np.full(len(cross), phi0))
    psis.append(cross)
    phi = np.concatenate(phis)
    psi = np.concatenate(psis)
    px, py = ax + ra * np.cos(phi), ay + ra * np.sin(phi)
    qx, qy = bx + rb * np.cos(psi), by + rb * np.sin(psi)
    dx, dy = qx - px, qy - py
    dd = dx * dx + dy * dy
    dd = np.where(dd == 0, 1.0, dd)
    # the stretch outside both bases
    ta = np.clip(-2 * ((px - ax) * dx + (py - ay) * dy) / dd, 0.0, 1.0)
    tb = np.clip(1 - 2 * ((qx - bx) * dx + (qy - by) * dy) / dd, ta, 1.0)
    n = len(px)
    blocked = _blocked(px, py, dx, dy, np.full(n, ha), np.full(n, hb), ta, tb, obs)
    free = ~blocked.any(axis=1)
    if not free.any():
        return None
    k0 = int(np.argmax(free))
    start = Point3(float(px[k0]), float(py[k0]), ha)
    end = Point3(float(qx[k0]), float(qy[k0]), hb)
    return SightLine(end, start) if swap else SightLine(start, end)
