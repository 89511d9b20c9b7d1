"""Compiled loops for the sight-line hot paths (numba, cached on disk).

Each kernel is the numpy code it replaces written as loops: the same arithmetic in the
same order on the same numbers, so the same answers to the last bit (no `fastmath`;
numpy's error model: a division by zero gives inf or NaN, as in numpy). What they save
is the fixed cost of tens of small numpy calls. Transcendental functions stay with
numpy, outside the kernels: its vectorised sin/cos/arctan2 differ from the platform's
libm in the last bits on some processors (AVX-512), and the answers must not change.

This module imports numba: import it only where a kernel is first used
(`game.geometry.compiled`), so commands that draw no sight line never load it. The
compiled code is kept in numba's cache (beside this file, or in the user's cache folder
when this folder is read-only), so only the first run after an install compiles.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numba
import numpy as np


def _compiled(**options: Any) -> Callable[[Callable[..., Any]], Any]:
    """numba.njit with numpy's error model and the on-disk cache; where numba finds no
    folder to keep the cache in (this one read-only and no user cache folder), each
    process compiles its own (a few seconds, once)."""

    def wrap(kernel: Callable[..., Any]) -> Any:
        try:
            return numba.njit(cache=True, error_model="numpy", **options)(kernel)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return numba.njit(error_model="numpy", **options)(kernel)

    return wrap


_jit = _compiled(nogil=True)
# helpers of the kernels, each compiled once and linked into the kernels that call it
# (numba's own inline="always" doubled the first compile, 5.9 -> 10.9 s, for no gain)
_helper = _compiled()


@_helper
def _max(a, b):
    """np.maximum: NaN wins."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


@_helper
def _min(a, b):
    """np.minimum: NaN wins."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a <= b else b


@_jit
def strips_need(
    jj,
    kd,
    qx,
    qy,
    sin_dl,
    cos_dl,
    cos_th,
    sin_th,
    ar2,
    bx,
    by,
    br2,
    ha,
    columns,
    offsets,
    x0,
    y0,
    ex,
    ey,
    top,
    cx,
    cy,
    cr,
    ch,
):
    """`silhouette._working` from the chosen directions on: each direction's two lines
    (near and far side of the shooter's base) to its strip, where each crosses each
    obstacle (the first and last parameter inside it, within the part outside both
    bases), the height each obstacle makes it need, and per
    strip the lowest height a clear line reaches. Returns (zmin, zseg, col, need)."""
    m = len(jj)
    n = 2 * m
    sx = np.empty(n)
    sy = np.empty(n)
    dx = np.empty(n)
    dy = np.empty(n)
    ta = np.empty(n)
    tb = np.empty(n)
    col = np.empty(n, dtype=np.intp)
    for i in range(m):
        k = kd[jj[i]]
        ks = k * sin_dl[i]
        root = np.sqrt(_max(ar2 - ks * ks, 0.0))
        along = k * cos_dl[i]
        s_near = along - root
        s_far = along + root
        for half in range(2):
            li = i + half * m
            s = s_near if half == 0 else s_far
            ox = qx[jj[i]]
            oy = qy[jj[i]]
            x = ox + s * cos_th[i]
            y = oy + s * sin_th[i]
            sx[li] = x
            sy[li] = y
            ddx = ox - x
            ddy = oy - y
            dx[li] = ddx
            dy[li] = ddy
            col[li] = jj[i]
            ta[li] = 0.0 if half == 0 else (s_far - s_near) / _max(s_far, 1e-12)
            fx = x - bx
            fy = y - by
            qa = ddx * ddx + ddy * ddy
            qb = 2 * (fx * ddx + fy * ddy)
            qc = fx * fx + fy * fy - br2
            t = (-qb - np.sqrt(_max(qb * qb - 4 * qa * qc, 0.0))) / (2 * _max(qa, 1e-12))
            tb[li] = _min(_max(t, 0.0), 1.0)
    n_p = len(offsets)
    n_b = len(cx)
    n_e = len(x0)
    need = np.empty((n_p + n_b, n))
    inf = np.inf
    lowest = -1.7976931348623157e308  # the lowest float, as np.finfo(np.float64).min
    for li in range(n):
        px = sx[li]
        py = sy[li]
        ddx = dx[li]
        ddy = dy[li]
        a = ta[li]
        b = tb[li]
        for p in range(n_p):
            end = offsets[p + 1] if p + 1 < n_p else n_e
            min_in = inf
            min_out = inf
            max_in = -inf
            max_out = -inf
            for e in range(offsets[p], end):
                wx = x0[e] - px
                wy = y0[e] - py
                denom = ddx * ey[e] - ddy * ex[e]
                t = (wx * ey[e] - wy * ex[e]) / denom
                u = (wx * ddy - wy * ddx) / denom
                if u >= 0 and u <= 1 and t >= a and t <= b and denom != 0:
                    if denom < 0:
                        min_in = _min(min_in, t)
                        max_in = _max(max_in, t)
                    else:
                        min_out = _min(min_out, t)
                        max_out = _max(max_out, t)
            t1 = a if min_out < min_in else min_in
            t2 = b if max_in > max_out else max_out
            need[p, li] = _need(top[p], ha, t1, t2, inf, lowest)
        for q in range(n_b):
            fx = px - cx[q]
            fy = py - cy[q]
            qa = ddx * ddx + ddy * ddy
            qb = 2 * (fx * ddx + fy * ddy)
            qc = fx * fx + fy * fy - cr[q] * cr[q]
            disc = qb * qb - 4 * qa * qc
            root = np.sqrt(_max(disc, 0.0))
            lo = _max((-qb - root) / (2 * qa), a)
            hi = _min((-qb + root) / (2 * qa), b)
            if disc <= 0 or hi < lo:
                t1, t2 = inf, -inf
            else:
                t1, t2 = lo, hi
            need[n_p + q, li] = _need(ch[q], ha, t1, t2, inf, lowest)
    zseg = np.empty(n)
    for li in range(n):
        z = -inf
        for r in range(n_p + n_b):
            z = _max(z, need[r, li])
        zseg[li] = z
    zmin = np.full(columns, inf)
    for li in range(n):
        zmin[col[li]] = _min(zmin[col[li]], zseg[li])
    return zmin, zseg, col, need


@_helper
def _need(tops, ha, t1, t2, inf, lowest):
    """The height a line needs to clear an obstacle of height `tops` it crosses over
    [t1, t2] (from `silhouette._working`): -inf where it misses it."""
    if not t1 <= t2:
        return -inf
    if np.isinf(tops):
        return inf
    need = (tops - ha * (1.0 - t2)) / t2 if tops <= ha else ha + (tops - ha) / t1
    if need != need:
        return inf
    return _max(need, lowest)


@_helper
def _height_range(h0, h1, top, ta, tb):
    """Where (as segment parameters) one segment is strictly below one obstacle's top,
    within [ta, tb] (outside both models' own bases)."""
    dh = h1 - h0
    thr = (top - h0) / (1.0 if dh == 0 else dh)
    above = dh == 0 and h0 >= top
    lo = thr if dh < 0 else (np.inf if above else 0.0)
    hi = thr if dh > 0 else (-np.inf if above else 1.0)
    return _max(lo, ta), _min(hi, tb)


@_helper
def _py_min(a, b):
    """Python's min of two."""
    return b if b < a else a


@_helper
def _py_max(a, b):
    """Python's max of two."""
    return b if b > a else a


@_jit
def blocked_by(
    px,
    py,
    dx,
    dy,
    h0,
    h1,
    ta,
    tb,
    top,
    offsets,
    x0,
    y0,
    ex,
    ey,
    elen,
    in_x,
    in_y,
    out_x,
    out_y,
    reflex,
    cx,
    cy,
    cr,
    ch,
    eps,
    angle_eps,
):
    """`blocking.blocked_by`, segment by segment and edge by edge: (N, pieces + models),
    whether segment n enters obstacle k's interior below its top within [ta, tb]."""
    n = len(px)
    n_p = len(offsets)
    n_e = len(x0)
    n_b = len(cx)
    out = np.zeros((n, n_p + n_b), dtype=np.bool_)
    lo = np.empty(n_e)
    hi = np.empty(n_e)
    edge_block = np.zeros(n_e, dtype=np.bool_)
    along = np.zeros(n_e, dtype=np.bool_)
    a_lo = np.empty(n_e)
    a_hi = np.empty(n_e)
    forward = np.zeros(n_e, dtype=np.bool_)
    for s in range(n):
        sdx = dx[s]
        sdy = dy[s]
        dl = np.hypot(sdx, sdy)
        if dl == 0:
            dl = 1.0
        et = eps / dl
        any_along = False
        for p in range(n_p):
            lo_p, hi_p = _height_range(h0[s], h1[s], top[p], ta[s], tb[s])
            end = offsets[p + 1] if p + 1 < n_p else n_e
            for e in range(offsets[p], end):
                lo[e] = lo_p
                hi[e] = hi_p
        for e in range(n_e):
            elo = lo[e]
            ehi = hi[e]
            lo_e = elo + et
            hi_e = ehi - et
            open_ = ehi > lo_e
            wx = x0[e] - px[s]
            wy = y0[e] - py[s]
            denom = sdx * ey[e] - sdy * ex[e]
            safe = 1.0 if denom == 0 else denom
            t = (wx * ey[e] - wy * ex[e]) / safe
            un = wx * sdy - wy * sdx
            ul = (un / safe) * elen[e]
            entering = denom < 0
            trans = np.abs(denom) > 1e-12 * dl * elen[e] and ul > eps and ul < elen[e] - eps
            blocked = trans and (
                (t > lo_e and t < hi_e) or (open_ and np.abs(t - (elo if entering else ehi)) <= et)
            )
            along[e] = False
            side = -un / dl
            if np.abs(side) <= eps:
                # through the start corner of edge e: blocked if heading into its wedge
                tv = (wx * sdx + wy * sdy) / (dl * dl)
                if tv >= elo - et and tv <= ehi + et:
                    ux = sdx / dl
                    uy = sdy / dl
                    c_out = out_x[e] * uy - out_y[e] * ux
                    c_in = in_x[e] * uy - in_y[e] * ux
                    if reflex[e]:
                        fwd_in = c_out > angle_eps or c_in > angle_eps
                        bwd_in = c_out < -angle_eps or c_in < -angle_eps
                    else:
                        fwd_in = c_out > angle_eps and c_in > angle_eps
                        bwd_in = c_out < -angle_eps and c_in < -angle_eps
                    if (tv < hi_e and fwd_in) or (tv > lo_e and bwd_in):
                        blocked = True
                if np.abs(side + denom / dl) <= eps:
                    # the edge lies on the segment's line: a seam, worked out below
                    along[e] = True
                    any_along = True
                    tv = (wx * sdx + wy * sdy) / (dl * dl)
                    proj = ex[e] * sdx + ey[e] * sdy
                    forward[e] = proj > 0
                    t_end = tv + proj / (dl * dl)
                    a_lo[e] = _max(_min(tv, t_end), elo)
                    a_hi[e] = _min(_max(tv, t_end), ehi)
            edge_block[e] = blocked
        if any_along:
            # two faces on the line, interior on either side, overlapping: a seam
            for i in range(n_e):
                if not (along[i] and forward[i]):
                    continue
                for j in range(n_e):
                    if not along[j] or forward[j]:
                        continue
                    gap = _py_min(a_hi[i], a_hi[j]) - _py_max(a_lo[i], a_lo[j])
                    if gap > et:
                        edge_block[i] = True
                        edge_block[j] = True
        for p in range(n_p):
            end = offsets[p + 1] if p + 1 < n_p else n_e
            for e in range(offsets[p], end):
                if edge_block[e]:
                    out[s, p] = True
                    break
        for q in range(n_b):
            blo, bhi = _height_range(h0[s], h1[s], ch[q], ta[s], tb[s])
            wx = cx[q] - px[s]
            wy = cy[q] - py[s]
            tc = (wx * sdx + wy * sdy) / (dl * dl)
            tcl = _min(_max(tc, blo), _max(blo, bhi))
            dist = np.hypot(wx - tcl * sdx, wy - tcl * sdy)
            out[s, n_p + q] = dist < cr[q] - eps and bhi > blo + et
    return out


# ------------------------------------------------ the sweep: one obstacle across the hull


@_helper
def _point_seg(px, py, ax, ay, bx, by):
    """`sweep._point_seg`: distance from a point to a segment."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    if ll > 0:
        t = ((px - ax) * dx + (py - ay) * dy) / ll
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    else:
        t = 0.0
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


@_helper
def _polygon_point_gap(xs, ys, start, n, px, py):
    """`sweep._polygon_point_gap`: distance from a point to a convex polygon (corners
    start .. start + n - 1, counter-clockwise; 0 inside it)."""
    inside = True
    best = np.inf
    for i in range(n):
        vx, vy = xs[start + i], ys[start + i]
        k = start + (i + 1) % n
        ux, uy = xs[k], ys[k]
        if (ux - vx) * (py - vy) - (uy - vy) * (px - vx) <= 0.0:
            inside = False
        gap = _point_seg(px, py, vx, vy, ux, uy)
        if gap < best:
            best = gap
    return 0.0 if inside else best


@_helper
def _polygon_leg_gap(xs, ys, start, n, ax, ay, bx, by):
    """Distance from the leg (a segment) to a convex polygon (corners start .. start +
    n - 1, counter-clockwise; 0 where they meet)."""
    best = _py_min(
        _polygon_point_gap(xs, ys, start, n, ax, ay), _polygon_point_gap(xs, ys, start, n, bx, by)
    )
    for i in range(n):
        vx, vy = xs[start + i], ys[start + i]
        k = start + (i + 1) % n
        ux, uy = xs[k], ys[k]
        best = _py_min(best, _point_seg(vx, vy, ax, ay, bx, by))
        o1 = (bx - ax) * (vy - ay) - (by - ay) * (vx - ax)
        o2 = (bx - ax) * (uy - ay) - (by - ay) * (ux - ax)
        o3 = (ux - vx) * (ay - vy) - (uy - vy) * (ax - vx)
        o4 = (ux - vx) * (by - vy) - (uy - vy) * (bx - vx)
        if o1 * o2 <= 0.0 and o3 * o4 <= 0.0:
            return 0.0
    return best


@_helper
def _deep_across(xs, ys, edges, start, n, ax, ay, bx, by):
    """Whether the segment passes `_DEEP` inside the convex polygon over some stretch
    (Cyrus-Beck clipping; `edges`: rows ex, ey, `_DEEP` times the length)."""
    dx, dy = bx - ax, by - ay
    lo, hi = 0.0, 1.0
    for i in range(start, start + n):
        vx, vy, ex, ey, need = xs[i], ys[i], edges[0, i], edges[1, i], edges[2, i]
        f0 = ex * (ay - vy) - ey * (ax - vx)
        f1 = ex * dy - ey * dx
        if f1 == 0.0:
            if f0 <= need:
                return False
        elif f1 > 0.0:
            lo = _py_max(lo, (need - f0) / f1)
        else:
            hi = _py_min(hi, (need - f0) / f1)
        if hi <= lo:
            return False
    return True


@_helper
def _highest_line(hw, hm, gap_w, gap_leg, longest, eps):
    """A height no sight line between the two bases reaches where it crosses an
    obstacle `gap_w` from the watcher's base and `gap_leg` from the leg's bases, with a
    margin beyond the blocking test's tolerance (`eps` along the line)."""
    if hw > hm:
        fall, gap = (hw - hm) * gap_w / longest, gap_w
    elif hm > hw:
        fall, gap = (hm - hw) * gap_leg / longest, gap_leg
    else:
        fall, gap = 0.0, _py_min(gap_w, gap_leg)
    high = _py_max(hw, hm)
    return high - fall + 1e-6 + eps * (1.0 + high) / gap


@_helper
def _later(a, b):
    """Python's `b > a` for (length, x0, y0, x1, y1) tuples."""
    for k in range(5):
        if a[k] != b[k]:
            return b[k] > a[k]
    return False


@_helper
def _outer_sides(wx, wy, rw, rm, x0, y0, x1, y1):
    """The two outer sides of the hull of the watcher's base and the leg's swept bases
    (segments of the outer tangents from base to base) and the longest line from the
    watcher's base to a base on the leg: (found, plus side, minus side, longest), not
    found where the bases meet. A side is (length, x0, y0, x1, y1); a leg in line with
    the watcher has both ends on one tangent, and the farther end's is the side."""
    none = (0.0, 0.0, 0.0, 0.0, 0.0)
    plus, minus = none, none
    has_plus, has_minus = False, False
    longest = 0.0
    ends = 1 if (x0 == x1 and y0 == y1) else 2
    for k in range(ends):
        ex, ey = (x0, y0) if k == 0 else (x1, y1)
        ox, oy = (x1, y1) if k == 0 else (x0, y0)
        length = math.hypot(ex - wx, ey - wy)
        longest = _py_max(longest, length + rw + rm)
        if length <= rw + rm:
            return False, none, none, longest
        phi = math.atan2(ey - wy, ex - wx)
        ang = math.acos((rm - rw) / length)
        for sign in (1.0, -1.0):
            nx, ny = math.cos(phi + sign * ang), math.sin(phi + sign * ang)
            c = nx * wx + ny * wy - rw
            if nx * ox + ny * oy - c >= rm - 1e-9:
                side = (length, wx - rw * nx, wy - rw * ny, ex - rm * nx, ey - rm * ny)
                if sign > 0:
                    if not has_plus or _later(plus, side):
                        plus = side
                    has_plus = True
                else:
                    if not has_minus or _later(minus, side):
                        minus = side
                    has_minus = True
    return has_plus and has_minus, plus, minus, longest


@_helper
def _separated(
    chosen, bodies, wx, wy, rw, hw, rm, hm, x0, y0, x1, y1, xs, ys, edges, pieces, spans,
    convex, body_x, body_y, body_r, body_h, eps, deep
):  # fmt: skip
    """`sweep._separated`, on the leg (x0, y0) - (x1, y1)."""
    found, s1, s2, longest = _outer_sides(wx, wy, rw, rm, x0, y0, x1, y1)
    if not found:
        return False
    low = _py_min(hw, hm)
    for q in chosen:
        top = pieces[0, q]
        if not convex[q] or top <= low:
            continue
        cx, cy, cr = pieces[1, q], pieces[2, q], pieces[3, q]
        if (
            _point_seg(cx, cy, s1[1], s1[2], s1[3], s1[4]) > cr
            or _point_seg(cx, cy, s2[1], s2[2], s2[3], s2[4]) > cr
        ):
            continue
        start, n = spans[0, q], spans[1, q]
        if not (
            _deep_across(xs, ys, edges, start, n, s1[1], s1[2], s1[3], s1[4])
            and _deep_across(xs, ys, edges, start, n, s2[1], s2[2], s2[3], s2[4])
        ):
            continue
        gap_w = _polygon_point_gap(xs, ys, start, n, wx, wy) - rw
        if gap_w <= 1e-7:
            continue
        gap_leg = _polygon_leg_gap(xs, ys, start, n, x0, y0, x1, y1) - rm
        if gap_leg > 1e-7 and top > _highest_line(hw, hm, gap_w, gap_leg, longest, eps):
            return True
    for b in bodies:
        cx, cy, cr, top = body_x[b], body_y[b], body_r[b], body_h[b]
        if top <= low:
            continue
        inner = cr - deep
        if not (
            _point_seg(cx, cy, s1[1], s1[2], s1[3], s1[4]) < inner
            and _point_seg(cx, cy, s2[1], s2[2], s2[3], s2[4]) < inner
        ):
            continue
        gap_w = math.hypot(cx - wx, cy - wy) - cr - rw
        gap_leg = _point_seg(cx, cy, x0, y0, x1, y1) - cr - rm
        apart = gap_w > 1e-7 and gap_leg > 1e-7
        if apart and top > _highest_line(hw, hm, gap_w, gap_leg, longest, eps):
            return True
    return False


@_jit
def separated_in_parts(
    chosen, bodies, wx, wy, rw, hw, rm, hm, x0, y0, x1, y1, splits, xs, ys, edges, pieces,
    spans, convex, body_x, body_y, body_r, body_h, eps, deep
):  # fmt: skip
    """`sweep._separated_in_parts`: the leg cut off by one obstacle, or else, halved up
    to `splits` times, each part by one of its own (0: `sweep._separated`)."""
    stack = [(x0, y0, x1, y1, splits)]
    while stack:
        ax, ay, bx, by, left = stack.pop()
        if _separated(
            chosen, bodies, wx, wy, rw, hw, rm, hm, ax, ay, bx, by, xs, ys, edges, pieces,
            spans, convex, body_x, body_y, body_r, body_h, eps, deep
        ):  # fmt: skip
            continue
        if left == 0:
            return False
        mx, my = (ax + bx) / 2, (ay + by) / 2
        stack.append((mx, my, bx, by, left - 1))
        stack.append((ax, ay, mx, my, left - 1))
    return True


# ------------------------------------------------------------- what is near a pair


@_helper
def _seg_point_dist(ax, ay, bx, by, px, py):
    """`blocking.seg_point_dist` for one point."""
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = _min(_max(((px - ax) * dx + (py - ay) * dy) / ll, 0.0), 1.0) if ll > 0 else 0.0 * px
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


@_jit
def nearby(
    ax, ay, bx, by, reach, min_top, top, minx, maxx, miny, maxy, solid, cx, cy, radius,
    solid_only, body_x, body_y, body_r, body_h, models_block, own_a, own_b
):  # fmt: skip
    """`blocking.nearby`'s picks: (pieces, models), table indices in table order."""
    hix, lox = _py_max(ax, bx) + reach, _py_min(ax, bx) - reach
    hiy, loy = _py_max(ay, by) + reach, _py_min(ay, by) - reach
    picked = np.empty(len(top), dtype=np.intp)
    n = 0
    for k in range(len(top)):
        if (
            top[k] > min_top
            and minx[k] <= hix
            and maxx[k] >= lox
            and miny[k] <= hiy
            and maxy[k] >= loy
            and (solid[k] or not solid_only)
            and _seg_point_dist(ax, ay, bx, by, cx[k], cy[k]) <= reach + radius[k]
        ):
            picked[n] = k
            n += 1
    models = np.empty(len(body_x), dtype=np.intp)
    m = 0
    if models_block:
        for k in range(len(body_x)):
            d = _seg_point_dist(ax, ay, bx, by, body_x[k], body_y[k]) - body_r[k]
            if d <= reach and body_h[k] > min_top and k != own_a and k != own_b:
                models[m] = k
                m += 1
    return picked[:n].copy(), models[:m].copy()


def compiled_afresh() -> int:
    """How many kernels (and helpers) this process compiled rather than loaded from
    numba's cache: more than 0 only in the first run after an install (or where no cache
    folder can be written)."""
    return sum(
        sum(item.stats.cache_misses.values())
        for item in list(globals().values())
        if isinstance(item, numba.core.registry.CPUDispatcher)
    )


# The kernels every rule system's sight lines call (their helpers are compiled with them).
ENTRY_KERNELS = ("strips_need", "blocked_by", "nearby")


def cached_here() -> bool:
    """Whether numba's cache holds the entry kernels compiled for this machine and this
    source, so that using them loads rather than compiles (False in the first run after
    an install). Reads numba's cache index (its private FunctionCache), the same look-up
    numba makes when a kernel is first called; where that cannot be read, True (nothing
    is said)."""
    try:
        for name in ENTRY_KERNELS:
            kernel = globals()[name]
            index = kernel._cache._cache_file._load_index()
            machine = kernel.targetctx.codegen().magic_tuple()
            if not any(key[1] == machine for key in index):
                return False
    except (AttributeError, LookupError, OSError, TypeError, ValueError):
        return True
    return True
