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

from game.geometry import compiled
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


@dataclass(frozen=True, slots=True)
class Segments:
    """Sight segments p + t d for t in [0, 1], climbing from height h0 to h1; the
    stretch [ta, tb] lies outside both models' own bases."""

    px: FloatArray
    py: FloatArray
    dx: FloatArray
    dy: FloatArray
    h0: FloatArray
    h1: FloatArray
    ta: FloatArray
    tb: FloatArray


def seg_point_dist(
    ax: float, ay: float, bx: float, by: float, px: FloatArray, py: FloatArray
) -> FloatArray:
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    # np.minimum(np.maximum(...)) is np.clip without its Python wrapper
    t = (
        np.minimum(np.maximum(((px - ax) * dx + (py - ay) * dy) / ll, 0.0), 1.0)
        if ll > 0
        else 0.0 * px
    )
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
    ba = table.body_arrays
    index = table.body_index
    chosen, bodies = compiled.nearby(
        (float(ax), float(ay), float(bx), float(by)),
        float(reach),
        float(min_top),
        (pa.top, pa.minx, pa.maxx, pa.miny, pa.maxy, pa.solid, pa.cx, pa.cy, pa.radius),
        solid_only,
        (ba.x, ba.y, ba.r, ba.h),
        models_block,
        (index.get(a.id, -1), index.get(b.id, -1)),
    )
    return gather(table, chosen, bodies)


def point_to_edges(
    px: float, py: float, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
) -> FloatArray:
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy
    ll = np.where(ll == 0, 1.0, ll)
    t = np.minimum(np.maximum(((px - x0) * dx + (py - y0) * dy) / ll, 0.0), 1.0)
    result: FloatArray = np.hypot(px - (x0 + t * dx), py - (y0 + t * dy))
    return result


_PieceEdges = tuple[
    FloatArray,  # top
    IntArray,  # offsets
    FloatArray,  # x0
    FloatArray,  # y0
    FloatArray,  # ex
    FloatArray,  # ey
    FloatArray,  # elen
    IntArray,  # owner
    FloatArray,  # in_x
    FloatArray,  # in_y
    FloatArray,  # out_x
    FloatArray,  # out_y
    BoolArray,  # reflex
]


def _piece_edges(table: Table, chosen: IntArray) -> _PieceEdges:
    """The edge arrays of the chosen pieces, contiguous: they depend on the scenery alone,
    so each selection is worked out once and kept in the table's scenery memo (read
    only: no caller writes into an Obstacles' arrays)."""
    memo = table.scenery_memo
    cache = memo.get("edges")
    if not isinstance(cache, dict):
        cache = memo["edges"] = {}
    key = chosen.tobytes()
    found = cache.get(key)
    if found is not None:
        edges: _PieceEdges = found
        return edges
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
    edges = (
        pa.top[chosen],
        offsets,
        pa.x0[idx],
        pa.y0[idx],
        ex,
        ey,
        np.hypot(ex, ey),
        owner,
        pa.in_x[idx],
        pa.in_y[idx],
        pa.out_x[idx],
        pa.out_y[idx],
        pa.reflex[idx],
    )
    if len(cache) > 4096:
        cache.clear()
    cache[key] = edges
    return edges


def gather(table: Table, chosen: IntArray, bodies: IntArray) -> Obstacles:
    top, offsets, x0, y0, ex, ey, elen, owner, in_x, in_y, out_x, out_y, reflex = _piece_edges(
        table, chosen
    )
    ba = table.body_arrays
    return Obstacles(
        pieces=chosen,
        top=top,
        offsets=offsets,
        x0=x0,
        y0=y0,
        ex=ex,
        ey=ey,
        elen=elen,
        owner=owner,
        in_x=in_x,
        in_y=in_y,
        out_x=out_x,
        out_y=out_y,
        reflex=reflex,
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
    interior below its top for some t in [ta, tb]. Touching is clear.

    Per segment and edge: where the segment is below the piece's top (its height
    range), a transversal crossing of the edge's interior inside that range blocks; a
    segment through a corner blocks if it heads into the corner's interior wedge
    (`into_wedge`); along a seam, two faces on the line with the interior on either
    side, overlapping, block. A model blocks where the segment, within its height
    range, passes strictly inside its base. One compiled loop
    (`game.geometry.kernels.blocked_by`): the arrays are small (tens of segments, tens
    of edges), so numpy calls would cost more than the arithmetic."""
    return compiled.blocked_by(
        (px, py, dx, dy, h0, h1, ta, tb),
        (
            obs.top,
            obs.offsets,
            obs.x0,
            obs.y0,
            obs.ex,
            obs.ey,
            obs.elen,
            obs.in_x,
            obs.in_y,
            obs.out_x,
            obs.out_y,
            obs.reflex,
        ),
        (obs.cx, obs.cy, obs.cr, obs.ch),
        EPS,
        _ANGLE_EPS,
    )


def into_wedge(
    out_x: FloatArray,
    out_y: FloatArray,
    in_x: FloatArray,
    in_y: FloatArray,
    reflex: BoolArray,
    ux: FloatArray,
    uy: FloatArray,
) -> tuple[BoolArray, BoolArray]:
    """Whether a line through a corner (edges out of and into it, reflex or not) with
    direction (ux, uy) heads into the corner's interior wedge going forward, and going
    backward."""
    c_out = out_x * uy - out_y * ux
    c_in = in_x * uy - in_y * ux
    fwd_in: BoolArray = np.where(
        reflex,
        (c_out > _ANGLE_EPS) | (c_in > _ANGLE_EPS),
        (c_out > _ANGLE_EPS) & (c_in > _ANGLE_EPS),
    )
    bwd_in: BoolArray = np.where(
        reflex,
        (c_out < -_ANGLE_EPS) | (c_in < -_ANGLE_EPS),
        (c_out < -_ANGLE_EPS) & (c_in < -_ANGLE_EPS),
    )
    return fwd_in, bwd_in
