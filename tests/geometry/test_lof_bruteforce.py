"""Brute force against the exact engine for pieces of in-between height.

A dense sampler of 3D sight lines (end points on a polar grid over both top discs, a
few heights) on small seeded random tables whose pieces stand between the two models'
heights (plus a few taller ones to make gaps). Whenever the sampler finds a clear line
the engine must find one too, and every witness the engine returns must be clear when
checked independently with shapely: the 2D segment against each footprint, with the
line's height where it enters and leaves the footprint against the piece's height.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, Polygon

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, line_of_fire
from game.geometry.lof import SightLine

Seg = tuple[tuple[float, float, float], tuple[float, float, float]]


def _clear_lines(
    starts: np.ndarray, ends: np.ndarray, table: Table, a: Body, b: Body, margin: float
) -> np.ndarray:
    """Which 3D segments (rows of x, y, z) are clear: for every piece, each stretch of the
    2D segment (outside both bases) inside the footprint (shrunk by `margin`) lies at or
    above the piece's top at both its ends (the height is linear along the segment)."""
    d2 = ends[:, :2] - starts[:, :2]
    ll = np.einsum("ij,ij->i", d2, d2)
    # the stretch outside both bases: past where the segment leaves a's base, before it
    # first enters b's (a segment starting inside a base leaves it once)
    t0 = np.maximum(_circle_params(starts[:, :2], d2, a)[1], 0.0)
    t1 = np.minimum(_circle_params(starts[:, :2], d2, b)[0], 1.0)
    t1 = np.maximum(t1, t0)
    p0 = starts[:, :2] + t0[:, None] * d2
    p1 = starts[:, :2] + t1[:, None] * d2
    outside = shapely.linestrings(np.stack((p0, p1), axis=1))
    ok = np.ones(len(starts), dtype=bool)
    for piece in table.pieces:
        poly = Polygon(piece.footprint)
        if margin:
            poly = poly.buffer(-margin, join_style="mitre")
        inside = shapely.intersection(outside, poly)
        parts, owner = shapely.get_parts(inside, return_index=True)
        long = shapely.length(parts) > 1e-9  # a touch (point or zero length) is clear
        xy, k = shapely.get_coordinates(parts[long], return_index=True)
        n = owner[long][k]
        t = ((xy[:, 0] - starts[n, 0]) * d2[n, 0] + (xy[:, 1] - starts[n, 1]) * d2[n, 1]) / ll[n]
        z = starts[n, 2] + t * (ends[n, 2] - starts[n, 2])
        ok[n[z < piece.top - margin]] = False
    return ok


def _circle_params(p: np.ndarray, d: np.ndarray, body: Body) -> tuple[np.ndarray, np.ndarray]:
    """Parameters where the lines p + t d meet the body's base circle (first, last)."""
    f = p - np.array(body.at)
    qa = np.einsum("ij,ij->i", d, d)
    qb = 2 * np.einsum("ij,ij->i", f, d)
    qc = np.einsum("ij,ij->i", f, f) - body.radius**2
    root = np.sqrt(np.maximum(qb * qb - 4 * qa * qc, 0.0))
    return (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)


def _disc_grid(body: Body, rings: int, spokes: int) -> np.ndarray:
    pts = [body.at]
    for i in range(1, rings + 1):
        r = body.radius * i / rings
        for k in range(spokes):
            ang = 2 * math.pi * (k + 0.5 * (i % 2)) / spokes
            pts.append((body.at[0] + r * math.cos(ang), body.at[1] + r * math.sin(ang)))
    return np.array(pts)


def sample_clear(table: Table, a: Body, b: Body) -> Seg | None:
    """A clear sight line found by dense sampling of both cylinders, or None."""
    pa = _disc_grid(a, 5, 20)
    pb = _disc_grid(b, 5, 20)
    for fa, fb in ((1.0, 1.0), (0.8, 1.0), (1.0, 0.8)):
        ia, ib = np.meshgrid(np.arange(len(pa)), np.arange(len(pb)), indexing="ij")
        s = np.column_stack((pa[ia.ravel()], np.full(ia.size, a.height * fa)))
        e = np.column_stack((pb[ib.ravel()], np.full(ib.size, b.height * fb)))
        ok = _clear_lines(s, e, table, a, b, margin=1e-6)
        if ok.any():
            n = int(np.argmax(ok))
            return (tuple(s[n]), tuple(e[n]))  # type: ignore[return-value]
    return None


def witness_is_clear(table: Table, a: Body, b: Body, w: SightLine) -> bool:
    s = np.array([[w.start.x, w.start.y, w.start.z]])
    e = np.array([[w.end.x, w.end.y, w.end.z]])
    in_a = math.dist((w.start.x, w.start.y), a.at) <= a.radius + 1e-6 and w.start.z <= a.height
    in_b = math.dist((w.end.x, w.end.y), b.at) <= b.radius + 1e-6 and w.end.z <= b.height
    return in_a and in_b and bool(_clear_lines(s, e, table, a, b, margin=1e-5)[0])


def random_table(seed: int) -> tuple[Table, Body, Body]:
    rng = random.Random(seed)
    ha, hb = rng.uniform(0.8, 1.4), rng.uniform(2.0, 3.0)
    if rng.random() < 0.5:
        ha, hb = hb, ha
    a = Body(BodyId("a"), (1.5, rng.uniform(3.0, 9.0)), rng.choice((0.5, 0.6, 0.79)), ha)
    b = Body(BodyId("b"), (10.5, rng.uniform(3.0, 9.0)), rng.choice((0.5, 0.6, 0.79)), hb)
    low, high = min(ha, hb), max(ha, hb)
    pieces: list[Piece] = []
    keep_clear = Point(a.at).buffer(a.radius + 0.05).union(Point(b.at).buffer(b.radius + 0.05))
    while len(pieces) < rng.randint(2, 6):
        x, y = rng.uniform(2.0, 10.0), rng.uniform(0.0, 12.0)
        w, d = rng.uniform(0.1, 2.5), rng.uniform(0.1, 4.0)
        ang = rng.uniform(0, math.pi)
        c, s = math.cos(ang), math.sin(ang)
        corners = [
            (x + c * u - s * v, y + s * u + c * v) for u, v in ((0, 0), (w, 0), (w, d), (0, d))
        ]
        if Polygon(corners).intersects(keep_clear):
            continue
        h = rng.uniform(low + 0.05, high - 0.05) if rng.random() < 0.75 else None
        kind = PieceKind.WALL if h is not None else PieceKind.BUILDING
        pieces.append(Piece(PieceId(f"p{len(pieces)}"), kind, tuple(corners), h))
    return Table.build(12, 12, pieces, (a, b)), a, b


@pytest.mark.parametrize("seed", [*range(40), 143])  # 28 and 143 were missed before
def test_engine_agrees_with_dense_sampling(seed: int) -> None:
    table, a, b = random_table(seed)
    r = line_of_fire(table, "a", "b")
    found = sample_clear(table, a, b)
    if found is not None:
        assert r.clear, f"sampler found a clear line {found} the engine missed"
    if r.witness is not None:
        assert witness_is_clear(table, a, b, r.witness)
