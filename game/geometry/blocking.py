"""Which sight segments the scenery and the models in the way block, tested exactly.

DESIGN.md "Geometry model (2.5D)". A sight line joins a point of the shooter's cylinder
to a point of the target's. It is blocked where it passes through the interior of a
prism (footprint interior, strictly below the top) or, when the rule system says
models block, through another model's cylinder. A line that only touches an edge, a
corner or a top (within `EPS` inches) is clear. The part of a line inside the
shooter's or the target's own base is inside that model and is never blocked.

The pieces and models near a pair of bases are gathered into contiguous arrays
(`nearby`, `gather`) and many segments are tested against them in one pass
(`blocked_by`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.geometry.table import Body, BoolArray, FloatArray, IntArray, Table

EPS = 1e-7  # inches: a line this close to an edge, corner or top only touches it
_ANGLE_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Obstacles:
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


def seg_point_dist(
    ax: float, ay: float, bx: float, by: float, px: FloatArray, py: FloatArray
) -> FloatArray:
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = np.clip(((px - ax) * dx + (py - ay) * dy) / ll, 0.0, 1.0) if ll > 0 else 0.0 * px
    result: FloatArray = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
    return result


def nearby(
    table: Table,
    a: Body,
    b: Body,
    *,
    min_top: float,
    models_block: bool,
    reach: float | None = None,
    solid_only: bool = False,
) -> Obstacles:
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
    pick &= seg_point_dist(ax, ay, bx, by, pa.cx, pa.cy) <= reach + pa.radius
    chosen = np.flatnonzero(pick)
    ba = table.body_arrays
    if models_block and len(ba.x):
        d = seg_point_dist(ax, ay, bx, by, ba.x, ba.y) - ba.r
        sel = (d <= reach) & (ba.h > min_top)
        for own in (a.id, b.id):
            if own in table.body_index:
                sel[table.body_index[own]] = False
        bodies = np.flatnonzero(sel)
    else:
        bodies = np.zeros(0, dtype=np.intp)
    return gather(table, chosen, bodies)


def point_to_edges(
    px: float, py: float, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
) -> FloatArray:
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    ll = np.where(ll == 0, 1.0, ll)
    t = np.clip(((px - x0) * dx + (py - y0) * dy) / ll, 0.0, 1.0)
    result: FloatArray = np.hypot(px - (x0 + t * dx), py - (y0 + t * dy))
    return result


def gather(table: Table, chosen: IntArray, bodies: IntArray) -> Obstacles:
    pa = table.arrays
    if len(chosen):
        counts = pa.count[chosen]
        mask = np.zeros(len(pa.top), dtype=np.bool_)
        mask[chosen] = True
        idx = np.flatnonzero(mask[pa.piece])
        offsets = run_starts(counts)
        owner = np.repeat(np.arange(len(chosen)), counts).astype(np.intp)
    else:
        idx = np.zeros(0, dtype=np.intp)
        offsets = np.zeros(0, dtype=np.intp)
        owner = np.zeros(0, dtype=np.intp)
    ex = pa.x1[idx] - pa.x0[idx]
    ey = pa.y1[idx] - pa.y0[idx]
    ba = table.body_arrays
    return Obstacles(
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


def run_starts(counts: IntArray) -> IntArray:
    out = np.zeros(len(counts), dtype=np.intp)
    np.cumsum(counts[:-1], out=out[1:])
    return out


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


def blocked_by(
    px: FloatArray,
    py: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    h0: FloatArray,
    h1: FloatArray,
    ta: FloatArray,
    tb: FloatArray,
    obs: Obstacles,
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
    obs: Obstacles,
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
