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
_inline = _compiled(inline="always")


@_inline
def _max(a, b):
    """np.maximum: NaN wins."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


@_inline
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
    obstacle (`silhouette._spans`), the height each obstacle makes it need, and per
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


@_inline
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


@_inline
def _height_range(h0, h1, top, ta, tb):
    """`blocking._height_range` for one segment and one obstacle: where the segment is
    strictly below the top, within [ta, tb]."""
    dh = h1 - h0
    thr = (top - h0) / (1.0 if dh == 0 else dh)
    above = dh == 0 and h0 >= top
    lo = thr if dh < 0 else (np.inf if above else 0.0)
    hi = thr if dh > 0 else (-np.inf if above else 1.0)
    return _max(lo, ta), _min(hi, tb)


@_inline
def _py_min(a, b):
    """Python's min of two."""
    return b if b < a else a


@_inline
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
