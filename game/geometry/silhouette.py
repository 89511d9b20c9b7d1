"""How much of the target's silhouette clear sight lines reach: the visible fraction,
the largest square patch seen, and what hides the rest.

Visible fraction: the target's silhouette is the rectangle (base diameter x height)
across the line of centres. For each of `columns` vertical strips we find, over sight
lines from the shooter's top to the strip's centre line, the lowest height of the strip
that some clear line reaches; obstacles taller than the line are exact angular shadows
(directions through every corner, just either side, are included so a narrow gap is
never stepped over) and lower pieces give the height a line must clear them at.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.geometry.answers import Visibility
from game.geometry.blocking import EPS, Obstacles, nearby
from game.geometry.compiled import strips_need
from game.geometry.table import Body, BodyId, FloatArray, IntArray, Table

_NUDGE = 1e-7  # radians either side of a corner direction
STRIPS = 48  # vertical strips of the silhouette the visible fraction is measured over
SPREAD = 7  # sight lines from across the shooter's base to each strip


def visibility(
    table: Table,
    shooter: BodyId | str,
    target: BodyId | str,
    *,
    models_block: bool = True,
    columns: int = STRIPS,
    spread: int = SPREAD,
) -> Visibility:
    """Share of the target's silhouette some clear sight line reaches, and who hides the rest."""
    a = table.body(shooter)
    b = table.body(target)
    return visibility_of(table, a, b, models_block, columns, spread)


@dataclass(frozen=True, slots=True)
class _Working:
    """The visible fraction's working: per strip of the silhouette the lowest height a
    clear line reaches (`zmin`), and per tried line its strip, the height it clears
    (`zseg`) and the height each obstacle makes it need (`need`)."""

    zmin: FloatArray  # (columns,)
    zseg: FloatArray  # (lines,)
    col: IntArray  # (lines,)
    need: FloatArray  # (obstacles, lines): a row per obstacle (cheap to reduce over)
    obs: Obstacles

    def hiding(self) -> tuple[IntArray, npt.NDArray[np.bool_]]:
        """The strips not fully seen, and for each the obstacles that set the height of
        its best line (the ones hiding it)."""
        zmin, zseg, col = self.zmin, self.zseg, self.col
        hidden_cols = np.flatnonzero(zmin > 1e-9)
        if not len(hidden_cols):
            return hidden_cols, np.zeros((0, self.need.shape[0]), dtype=np.bool_)
        order = np.lexsort((zseg, col))
        first = np.ones(len(order), dtype=np.bool_)
        first[1:] = col[order][1:] != col[order][:-1]
        best = order[first]
        best_col = col[best]
        rows = best[zmin[best_col] > 1e-9]
        level = np.minimum(zseg[rows], 1e300)[:, None] - 1e-9
        need = self.need[:, rows].T  # (rows, obstacles)
        return col[rows], need >= level


def visibility_of(
    table: Table, a: Body, b: Body, models_block: bool, columns: int, spread: int
) -> Visibility:
    work = _working(table, a, b, models_block, columns, spread)
    if work is None:
        return Visibility(1.0, (), min(2 * b.radius, b.height))
    seen = b.height - work.zmin.clip(0.0, b.height)
    fraction = float(seen.sum() / (columns * b.height)) if b.height > 0 else 0.0
    hidden: set[str] = set()
    _, by_strip = work.hiding()
    if len(by_strip):
        # in each strip not fully seen, the obstacles that set the best line's height
        ks = np.flatnonzero(by_strip.any(axis=0))
        hidden.update(work.obs.ids(table, int(k)) for k in ks)
    patch = largest_patch(seen, 2 * b.radius / columns)
    return Visibility(min(1.0, max(0.0, fraction)), tuple(sorted(hidden)), patch)


@dataclass(frozen=True, slots=True)
class Strips:
    """The target's silhouette as the visible fraction measures it, strip by strip:
    `width` x `height` inches, cut into vertical strips across the line of centres (from
    the shooter's left to its right); strip j is seen from `low[j]` up to the top and
    hidden below that by the obstacles `hidden_by[j]` (`sight`'s fraction and patch are
    read from these same strips)."""

    width: float
    height: float
    low: tuple[float, ...]
    hidden_by: tuple[tuple[str, ...], ...]

    @property
    def seen(self) -> tuple[float, ...]:
        """Per strip, the height of it that is seen (from `low` to the top)."""
        return tuple(self.height - min(max(z, 0.0), self.height) for z in self.low)

    @property
    def fraction(self) -> float:
        if self.height <= 0:
            return 0.0
        return min(1.0, max(0.0, sum(self.seen) / (len(self.low) * self.height)))

    @property
    def patch(self) -> float:
        """Side of the largest square seen (`Sight.visible_patch`)."""
        return largest_patch(np.array(self.seen), self.width / len(self.low))


def silhouette_strips(
    table: Table, shooter: BodyId | str, target: BodyId | str, *, models_block: bool = True
) -> Strips:
    """The strips behind `sight`'s visible fraction, with who hides each one."""
    a = table.body(shooter)
    b = table.body(target)
    work = _working(table, a, b, models_block, STRIPS, SPREAD)
    width = 2 * b.radius
    if work is None:
        return Strips(width, b.height, (0.0,) * STRIPS, ((),) * STRIPS)
    low = tuple(float(z) for z in np.clip(work.zmin, 0.0, b.height))
    names: list[tuple[str, ...]] = [()] * STRIPS
    cols, by_strip = work.hiding()
    for j, row in zip(cols, by_strip, strict=True):
        names[int(j)] = tuple(sorted({work.obs.ids(table, int(k)) for k in np.flatnonzero(row)}))
    return Strips(width, b.height, low, tuple(names))


def _working(
    table: Table, a: Body, b: Body, models_block: bool, columns: int, spread: int
) -> _Working | None:
    """The strips' working, or None when nothing can hide any of the target."""
    ax, ay = a.at
    bx, by = b.at
    dist = math.hypot(bx - ax, by - ay)
    if dist <= a.radius + b.radius + EPS:
        return None
    obs = nearby(table, a, b, min_top=0.0, models_block=models_block)
    if obs.empty:
        return None
    # the silhouette: `columns` strips across the line of centres, through b's centre
    px_, py_ = -(by - ay) / dist, (bx - ax) / dist
    u = _across(columns)
    ur = u * b.radius
    qx = bx + ur * px_
    qy = by + ur * py_
    # directions from each strip toward the shooter's base
    kx, ky = ax - qx, ay - qy
    kd = np.hypot(kx, ky)
    psi = np.arctan2(ky, kx)
    omega = np.arcsin(np.minimum(a.radius / kd, 1.0))  # np.clip: the ratio is not negative
    dirs = [psi[:, None] + omega[:, None] * _spread(spread)[None, :]]
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
    flat = np.flatnonzero(inside)  # row by row, as np.nonzero
    jj = flat // theta.shape[1]
    th = theta.ravel()[flat]
    dl = delta.ravel()[flat]
    # the rest (each direction's two lines, what they cross, the heights needed) is one
    # compiled loop; the trigonometry stays numpy's, as before
    zmin, zseg, col, need = strips_need(
        jj,
        kd,
        qx,
        qy,
        (np.sin(dl), np.cos(dl), np.cos(th), np.sin(th)),
        a.radius**2,
        bx,
        by,
        b.radius**2,
        a.height,
        columns,
        (obs.offsets, obs.x0, obs.y0, obs.ex, obs.ey, obs.top),
        (obs.cx, obs.cy, obs.cr, obs.ch),
    )
    return _Working(zmin, zseg, col, need, obs)


_ACROSS: dict[int, FloatArray] = {}
_SPREAD: dict[int, FloatArray] = {}


def _across(columns: int) -> FloatArray:
    """The strips' centre lines across the silhouette, -1 .. 1 (kept per count; read
    only)."""
    found = _ACROSS.get(columns)
    if found is None:
        found = _ACROSS[columns] = (np.arange(columns) + 0.5) / columns * 2.0 - 1.0
    return found


def _spread(spread: int) -> FloatArray:
    """Where across the shooter's base each strip's lines aim, -0.999 .. 0.999 of its
    angular half width (kept per count; read only)."""
    found = _SPREAD.get(spread)
    if found is None:
        found = _SPREAD[spread] = np.linspace(-0.999, 0.999, spread)
    return found


def patch_core(body: Body, side: float) -> Body:
    """The body a clear line must reach for a square of `side` of its silhouette to be
    seen: the same base, `side` lower (less a hair for the patch test's tolerance).

    Why: a square of side s seen means some strip of the silhouette is seen to a depth
    of s, so a clear line from the shooter's top reaches a point of the silhouette (a
    point of the base's disc) at most s below the top; raising that end raises every
    point of the line and keeps it clear (`game.geometry.lof`, step 1), so a clear line reaches
    the top of the lowered body. No clear line to it: no patch that large. Too low a
    body to lower (or s = 0): the body itself."""
    height = body.height - side + 1e-6
    if side <= 0.0 or height <= 0.0:
        return body
    return Body(body.id, body.at, body.radius, height, body.facing, body.side, body.unit)


def largest_patch(seen: FloatArray, width: float) -> float:
    """Side of the largest square that fits in the seen part of the silhouette.

    Strip j is seen from its lowest reached height up to the top (a line to a point is
    still clear to any point above it), so a square of side s fits when some run of
    consecutive strips at least s wide is seen to a depth of s in every strip. Strips are
    `width` wide and judged at their centre lines, so the answer is good to a strip."""
    depths = [float(x) for x in seen]  # tens of strips: plain floats beat numpy calls
    n = len(depths)
    if n and min(depths) == max(depths):
        return min(n * width, depths[0])  # every strip as deep: one run of all of them
    # the widest run of strips around each strip seen at least as deep as it: a square
    # as deep as strip i fits in min(run * width, depth i); the best over all strips is
    # the best over all widths k of min(k * width, deepest run of k) (one pass each way)
    left = [0] * n
    right = [n - 1] * n
    stack: list[int] = []
    for i in range(n):
        while stack and depths[stack[-1]] >= depths[i]:
            stack.pop()
        left[i] = stack[-1] + 1 if stack else 0
        stack.append(i)
    stack = []
    for i in range(n - 1, -1, -1):
        while stack and depths[stack[-1]] >= depths[i]:
            stack.pop()
        right[i] = stack[-1] - 1 if stack else n - 1
        stack.append(i)
    best = 0.0
    for i in range(n):
        best = max(best, min((right[i] - left[i] + 1) * width, depths[i]))
    return best
