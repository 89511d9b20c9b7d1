"""What blocks the sight segments of many pairs at once: each pair ("group") with its own
nearby pieces and models, held ragged in flat arrays, every segment tested against its
own group's obstacles only.

The tests are `game.geometry.blocking.blocked_by`'s, entry by entry: the same
arithmetic in the same order on the same numbers, so each (segment, obstacle) answer is
the one `blocked_by` gives for that pair's `nearby` obstacles, to the last bit. What
changes is the count of numpy calls: a few dozen for thousands of pairs rather than a
few dozen per pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.geometry.blocking import EPS, Segments, into_wedge
from game.geometry.table import Body, BoolArray, FloatArray, IntArray, Table


@dataclass(frozen=True, slots=True)
class Ends:
    """The two ends of many pairs, column by column: a's centre, base radius and height,
    then b's."""

    ax: FloatArray
    ay: FloatArray
    ar: FloatArray
    ah: FloatArray
    bx: FloatArray
    by: FloatArray
    br: FloatArray
    bh: FloatArray

    @staticmethod
    def of(pairs: Sequence[tuple[Body, Body]]) -> Ends:
        rows = np.array(
            [(*a.at, a.radius, a.height, *b.at, b.radius, b.height) for a, b in pairs]
        ).reshape(-1, 8)
        return Ends(*(rows[:, i] for i in range(8)))

    def take(self, which: IntArray | BoolArray) -> Ends:
        """The pairs `which` picks (indices, repeats allowed, or a mask)."""
        return Ends(
            self.ax[which],
            self.ay[which],
            self.ar[which],
            self.ah[which],
            self.bx[which],
            self.by[which],
            self.br[which],
            self.bh[which],
        )


@dataclass(frozen=True, slots=True)
class Groups:
    """The obstacles near each of G pairs: pieces and models, by group in table order.
    Entry ranges of group g: `piece_start[g]:piece_start[g + 1]` and so on."""

    pieces: IntArray  # table index per group-piece
    piece_start: IntArray  # (G + 1)
    bodies: IntArray  # table index per group-model
    body_start: IntArray  # (G + 1)

    def piece_count(self) -> IntArray:
        result: IntArray = np.diff(self.piece_start)
        return result

    def edges(self, table: Table, gs: IntArray) -> tuple[IntArray, IntArray]:
        """The table edges of the pieces of groups `gs`, group by group (piece by piece,
        each piece's edges in order), and how many each group has."""
        pa = table.arrays
        npc = self.piece_count()[gs]
        pieces = self.pieces[np.repeat(self.piece_start[gs], npc) + ragged_arange(npc)]
        counts = pa.count[pieces]
        edges: IntArray = np.repeat(pa.start[pieces], counts) + ragged_arange(counts)
        per_group = np.bincount(
            np.repeat(np.arange(len(gs), dtype=np.intp), npc), weights=counts, minlength=len(gs)
        ).astype(np.intp)
        return edges, per_group

    def body_count(self) -> IntArray:
        result: IntArray = np.diff(self.body_start)
        return result


def _starts(counts: IntArray) -> IntArray:
    out = np.zeros(len(counts) + 1, dtype=np.intp)
    np.cumsum(counts, out=out[1:])
    return out


def ragged_arange(counts: IntArray) -> IntArray:
    """0..n-1 for each n of `counts`, one after the other."""
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.intp)
    ends = np.cumsum(counts)
    result: IntArray = np.arange(total, dtype=np.intp) - np.repeat(ends - counts, counts)
    return result


def _edge_arrays(table: Table) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each edge's vector and length (as `blocking._piece_edges` works them out), once."""
    memo = table.scenery_memo
    found = memo.get("edge_vectors")
    if found is None:
        pa = table.arrays
        ex = pa.x1 - pa.x0
        ey = pa.y1 - pa.y0
        found = memo["edge_vectors"] = (ex, ey, np.hypot(ex, ey))
    result: tuple[FloatArray, FloatArray, FloatArray] = found  # type: ignore[assignment]
    return result


def groups_near(
    table: Table, ends: Ends, own: tuple[IntArray, IntArray], models_block: bool
) -> Groups:
    """`blocking.nearby` for each pair (a, b) at once, with its default reach and
    `min_top` the lower of the two heights: the pieces and models it would pick, in the
    same order. `own`: each pair's two models' table indices (-1: not on the table)."""
    pa = table.arrays
    ng = len(ends.ax)
    reach = np.maximum(ends.ar, ends.br) + 1e-6
    low = np.minimum(ends.ah, ends.bh)
    hi_x = (np.maximum(ends.ax, ends.bx) + reach)[:, None]
    lo_x = (np.minimum(ends.ax, ends.bx) - reach)[:, None]
    hi_y = (np.maximum(ends.ay, ends.by) + reach)[:, None]
    lo_y = (np.minimum(ends.ay, ends.by) - reach)[:, None]
    # bounding boxes first (most pieces are far from most pairs), then the bounding circle
    # against the centre segment for the ones left, as `nearby` tests it
    g, p = np.nonzero(
        (pa.top > low[:, None])
        & (pa.minx <= hi_x)
        & (pa.maxx >= lo_x)
        & (pa.miny <= hi_y)
        & (pa.maxy >= lo_y)
    )
    near = _seg_point_dist(ends.take(g), pa.cx[p], pa.cy[p]) <= reach[g] + pa.radius[p]
    g_p, pieces = g[near], p[near]
    piece_start = _starts(np.bincount(g_p, minlength=ng).astype(np.intp))
    ba = table.body_arrays
    if models_block and len(ba.x):
        # a model within reach of the centre segment is within its box grown by reach
        # and the model's radius (and a hair): only those are measured
        g, m = np.nonzero(
            (ba.h > low[:, None])
            & (ba.x - ba.r <= hi_x + 1e-6)
            & (ba.x + ba.r >= lo_x - 1e-6)
            & (ba.y - ba.r <= hi_y + 1e-6)
            & (ba.y + ba.r >= lo_y - 1e-6)
        )
        mine = (m != own[0][g]) & (m != own[1][g])
        g, m = g[mine], m[mine]
        d = _seg_point_dist(ends.take(g), ba.x[m], ba.y[m]) - ba.r[m]
        within = d <= reach[g]
        g_b, bodies = g[within], m[within]
        body_start = _starts(np.bincount(g_b, minlength=ng).astype(np.intp))
    else:
        bodies = np.zeros(0, dtype=np.intp)
        body_start = np.zeros(ng + 1, dtype=np.intp)
    return Groups(
        pieces=pieces.astype(np.intp),
        piece_start=piece_start,
        bodies=bodies.astype(np.intp),
        body_start=body_start,
    )


def _seg_point_dist(ends: Ends, px: FloatArray, py: FloatArray) -> FloatArray:
    """`blocking.seg_point_dist` from each pair's centre segment to its point, entry by
    entry."""
    ax, ay, bx, by = ends.ax, ends.ay, ends.bx, ends.by
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    safe = np.where(ll > 0, ll, 1.0)
    t = np.where(
        ll > 0, np.minimum(np.maximum(((px - ax) * dx + (py - ay) * dy) / safe, 0.0), 1.0), 0.0
    )
    result: FloatArray = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
    return result


@dataclass(frozen=True, slots=True)
class Blocks:
    """Which of its group's obstacles each segment is blocked by. The pieces of segment s
    are entries `piece_at[s]:piece_at[s + 1]` of `piece` (in its group's order), its
    models entries `body_at[s]:body_at[s + 1]` of `body`."""

    piece: BoolArray
    piece_at: IntArray
    body: BoolArray
    body_at: IntArray
    hit: BoolArray  # per segment: blocked by something


def _height_range(
    h0: FloatArray, h1: FloatArray, top: FloatArray, ta: FloatArray, tb: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The height range of `blocking.blocked_by` (where a segment is below a top, within
    [ta, tb]), entry by entry (flat arrays of one length)."""
    dh = h1 - h0
    thr = (top - h0) / np.where(dh == 0, 1.0, dh)
    above = (dh == 0) & (h0 >= top)
    lo = np.where(dh < 0, thr, np.where(above, np.inf, 0.0))
    hi = np.where(dh > 0, thr, np.where(above, -np.inf, 1.0))
    np.maximum(lo, ta, out=lo)
    np.minimum(hi, tb, out=hi)
    return lo, hi


def blocked_ragged(
    table: Table,
    groups: Groups,
    group: IntArray,
    seg: Segments,
) -> Blocks:
    """`blocking.blocked_by` for segments of many groups: segment s (in group[s]) against
    its group's obstacles. Touching is clear."""
    px, py, dx, dy, h0, h1, ta, tb = seg.px, seg.py, seg.dx, seg.dy, seg.h0, seg.h1, seg.ta, seg.tb
    n = len(px)
    dlen = np.hypot(dx, dy)
    dlen[dlen == 0] = 1.0
    et = EPS / dlen
    pa = table.arrays
    ba = table.body_arrays
    # pieces: every (segment, piece of its group), then every edge of those
    npc = np.diff(groups.piece_start)[group]
    piece_at = _starts(npc)
    rs = np.repeat(np.arange(n, dtype=np.intp), npc)
    run_piece = groups.pieces[np.repeat(groups.piece_start[group], npc) + ragged_arange(npc)]
    lo_run, hi_run = _height_range(h0[rs], h1[rs], pa.top[run_piece], ta[rs], tb[rs])
    ne = pa.count[run_piece]
    run_of = np.repeat(np.arange(len(rs), dtype=np.intp), ne)
    s = rs[run_of]
    e = np.repeat(pa.start[run_piece], ne) + ragged_arange(ne)
    lo, hi = lo_run[run_of], hi_run[run_of]
    ets = et[s]
    dls = dlen[s]
    dxs, dys = dx[s], dy[s]
    all_ex, all_ey, all_elen = _edge_arrays(table)
    ex, ey, elen = all_ex[e], all_ey[e], all_elen[e]
    lo_e = lo + ets
    hi_e = hi - ets
    open_ = hi > lo_e
    wx = pa.x0[e] - px[s]
    wy = pa.y0[e] - py[s]
    denom = dxs * ey - dys * ex
    safe = np.where(denom == 0, 1.0, denom)
    t = (wx * ey - wy * ex) / safe
    un = wx * dys - wy * dxs
    ul = (un / safe) * elen
    entering = denom < 0
    trans = (np.abs(denom) > 1e-12 * dls * elen) & (ul > EPS) & (ul < elen - EPS)
    edge_block = trans & (
        ((t > lo_e) & (t < hi_e)) | (open_ & (np.abs(t - np.where(entering, lo, hi)) <= ets))
    )
    side = -un / dls
    on_line = np.abs(side) <= EPS
    if on_line.any():
        i = np.flatnonzero(on_line)
        _corners(i, e[i], edge_block, dxs[i], dys[i], dls[i], wx[i], wy[i], lo, hi, ets, table)
        along = on_line & (np.abs(side + denom / dls) <= EPS)
        if along.any():
            _seams(along, s, wx, wy, dxs, dys, dls, lo, hi, ets, ex, ey, edge_block)
    # per (segment, piece): its edges are consecutive
    piece: BoolArray = (
        np.logical_or.reduceat(edge_block, _starts(ne)[:-1])
        if len(e)
        else np.zeros(len(rs), dtype=np.bool_)
    )
    # models: every (segment, model of its group)
    nb = np.diff(groups.body_start)[group]
    sb = np.repeat(np.arange(n, dtype=np.intp), nb)
    kb = np.repeat(groups.body_start[group], nb) + ragged_arange(nb)
    body_idx = groups.bodies[kb]
    lo, hi = _height_range(h0[sb], h1[sb], ba.h[body_idx], ta[sb], tb[sb])
    dxb, dyb, dlb = dx[sb], dy[sb], dlen[sb]
    wx = ba.x[body_idx] - px[sb]
    wy = ba.y[body_idx] - py[sb]
    tc = (wx * dxb + wy * dyb) / (dlb * dlb)
    tcl = np.minimum(np.maximum(tc, lo), np.maximum(lo, hi))
    dist = np.hypot(wx - tcl * dxb, wy - tcl * dyb)
    body: BoolArray = (dist < ba.r[body_idx] - EPS) & (hi > lo + et[sb])
    hit = np.zeros(n, dtype=np.bool_)
    hit[rs[piece]] = True
    hit[sb[body]] = True
    return Blocks(piece=piece, piece_at=piece_at, body=body, body_at=_starts(nb), hit=hit)


def _corners(
    i: IntArray,
    e: IntArray,
    edge_block: BoolArray,
    dx: FloatArray,
    dy: FloatArray,
    d: FloatArray,
    wx: FloatArray,
    wy: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    et: FloatArray,
    table: Table,
) -> None:
    """`blocking.blocked_by`'s corners for the entries i (segment through the start vertex of table
    edge e): marks the ones heading into the corner's interior wedge."""
    pa = table.arrays
    tv = (wx * dx + wy * dy) / (d * d)
    lo_, hi_, et_ = lo[i], hi[i], et[i]
    on = (tv >= lo_ - et_) & (tv <= hi_ + et_)
    if not on.any():
        return
    fwd_in, bwd_in = into_wedge(
        pa.out_x[e], pa.out_y[e], pa.in_x[e], pa.in_y[e], pa.reflex[e], dx / d, dy / d
    )
    vert = on & (((tv < hi_ - et_) & fwd_in) | ((tv > lo_ + et_) & bwd_in))
    edge_block[i[vert]] = True


def _seams(
    along: BoolArray,
    s: IntArray,
    wx: FloatArray,
    wy: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    dl: FloatArray,
    lo: FloatArray,
    hi: FloatArray,
    et: FloatArray,
    ex: FloatArray,
    ey: FloatArray,
    edge_block: BoolArray,
) -> None:
    """`blocking.blocked_by`'s seams for the entries on a segment's line: a face on it with the
    interior on one side, overlapping one with the interior on the other, blocks."""
    i = np.flatnonzero(along)
    dd = dl[i] * dl[i]
    tv = (wx[i] * dx[i] + wy[i] * dy[i]) / dd
    proj = ex[i] * dx[i] + ey[i] * dy[i]
    forward = proj > 0
    t_end = tv + proj / dd
    a_lo = np.maximum(np.minimum(tv, t_end), lo[i])
    a_hi = np.minimum(np.maximum(tv, t_end), hi[i])
    seg = s[i]
    out = np.zeros(len(i), dtype=np.bool_)
    for n in np.unique(seg):
        mine = np.flatnonzero(seg == n)
        left = mine[forward[mine]]
        right = mine[~forward[mine]]
        for p in left:
            for q in right:
                if min(a_hi[p], a_hi[q]) - max(a_lo[p], a_lo[q]) > et[i[p]]:
                    out[p] = out[q] = True
    edge_block[i[out]] = True
