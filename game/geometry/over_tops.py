"""Sight lines over the top edges of pieces of in-between height: candidate end points
on the rims of the two top discs, found as roots of trigonometric polynomials.

For a piece of height strictly between the two tops, what matters is where the sight
line crosses that height. Take the lower model's end p = a + ra u(phi) and the higher
one's q = b + rb u(psi), both on the rims of the top discs (`game.geometry.lof`, step 1).
Every pair (phi, psi) on that torus is a real sight line, and a clear line exists iff
the clear set there is not empty. Its boundary lies on curves of three kinds, each of
the form alpha(phi) cos psi + beta(phi) sin psi = gamma(phi) with alpha, beta, gamma
of the form c0 + c1 cos phi + c2 sin phi:
  corner v:          the line pq passes through v (a vertical edge of a prism);
  top edge e of k:   m_k = (1 - t_k) p + t_k q, where the line is at k's height,
                     lies on the line of e (the sight line grazes the top edge);
  top of model o:    m_o lies on o's base circle (grazes its top rim).
Take a component of the clear set and its point of largest phi (in a lift of phi that
the component does not wrap across, else it meets a fixed slice phi0). There two
boundary curves meet, or one curve folds (its tangent is parallel to psi). Where both
curves are corners, or one corner folds, the point is on a line through two corners or
through a corner tangent to b's base, which the tangent candidates already test; so the
new candidates are the meeting points of a top curve with any curve and the folds of
top curves (roots of trigonometric polynomials of degree <= 4, found as polynomial
roots), and every crossing of the slice phi0 with the midpoints between them.
Models in the way enter through the corners of a circumscribed 16-gon (their tangent
curves are not of the form above): that part is not exact, see the README.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from game.geometry.answers import Point3, SightLine
from game.geometry.blocking import Obstacles, blocked_by
from game.geometry.table import Body, FloatArray, IntArray

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
    # a constant term outweighing all the others (by a tenth) leaves no root anywhere
    # near the unit circle (|sum c_k z^k| <= sum |c_k| 1.001^4 there): no eigenvalues
    # to find for it; each polynomial's roots are found on their own, so the others'
    # are the same either way
    mag_all = np.abs(coef)
    live = (size > 0) & (mag_all[:, m] <= 1.1 * (mag_all.sum(axis=1) - mag_all[:, m]))
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


def line_over_tops(a: Body, b: Body, obs: Obstacles) -> SightLine | None:
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
    blocked = blocked_by(px, py, dx, dy, np.full(n, ha), np.full(n, hb), ta, tb, obs)
    free = ~blocked.any(axis=1)
    if not free.any():
        return None
    k0 = int(np.argmax(free))
    start = Point3(float(px[k0]), float(py[k0]), ha)
    end = Point3(float(qx[k0]), float(qy[k0]), hb)
    return SightLine(end, start) if swap else SightLine(start, end)
