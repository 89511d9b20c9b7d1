"""The visible fraction against an independent reference, on seeded random tables.

The silhouette is the engine's: a vertical rectangle through the target's centre,
across the line of centres, the base's width by the model's height. For one eye point
S (on the shooter's top disc: raising the eye only raises the line) and one column of
the silhouette, the lowest height z a clear line reaches is exact: along the 2D segment
from S to the column, the line's height at fraction t is hs + (z - hs) t, so a piece of
height H crossed at t needs z >= hs + (H - hs) / t at each end of each stretch inside
it. The reference takes the best eye point of a dense grid for each column and
averages the seen share of the height over 120 columns. Issue 3 asks for the
engine within 0.02 of the exact value; on these tables it stays within about 0.013.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, Polygon

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, visibility
from tests.geometry.test_lof_bruteforce import _circle_params, _disc_grid

COLUMNS = 120


def reference_fraction(table: Table, a: Body, b: Body) -> float:
    (ax, ay), (bx, by) = a.at, b.at
    dist = math.hypot(bx - ax, by - ay)
    px, py = -(by - ay) / dist, (bx - ax) / dist
    u = (np.arange(COLUMNS) + 0.5) / COLUMNS * 2.0 - 1.0
    q = np.column_stack((bx + u * b.radius * px, by + u * b.radius * py))
    eyes = _disc_grid(a, 16, 64)
    ie, iq = np.meshgrid(np.arange(len(eyes)), np.arange(COLUMNS), indexing="ij")
    s = eyes[ie.ravel()]
    e = q[iq.ravel()]
    d = e - s
    # only the stretch outside both bases can be blocked
    t0 = np.maximum(_circle_params(s, d, a)[1], 0.0)
    t1 = np.clip(_circle_params(s, d, b)[0], t0, 1.0)
    hs = a.height
    need = np.zeros(len(s))
    lines = shapely.linestrings(np.stack((s + t0[:, None] * d, s + t1[:, None] * d), axis=1))
    for piece, poly in zip(table.pieces, table.polygons, strict=True):
        inter = shapely.intersection(lines, poly)
        crossing = shapely.length(inter) > 1e-9  # a touch is not a crossing
        if not crossing.any():
            continue
        coords, index = shapely.get_coordinates(inter[crossing], return_index=True)
        rows = np.flatnonzero(crossing)[index]
        dd = d[rows]
        t = np.einsum("ij,ij->i", coords - s[rows], dd) / np.einsum("ij,ij->i", dd, dd)
        top = math.inf if piece.height is None else piece.height
        with np.errstate(divide="ignore"):
            z = np.where(t > 1e-12, hs + (top - hs) / np.maximum(t, 1e-12), math.inf)
        np.maximum.at(need, rows, z)
    seen = np.clip(b.height - need, 0.0, b.height).reshape(len(eyes), COLUMNS).max(axis=0)
    return float(seen.mean() / b.height)


def random_table(seed: int) -> tuple[Table, Body, Body]:
    rng = random.Random(seed)
    a = Body(
        BodyId("a"), (1.5, rng.uniform(4.0, 8.0)), rng.choice((0.49, 0.79)), rng.uniform(0.8, 2.2)
    )
    b = Body(BodyId("b"), (rng.uniform(7.0, 11.0), rng.uniform(4.0, 8.0)), rng.choice((0.49, 0.79)),
             rng.uniform(0.8, 2.2))  # fmt: skip
    keep_clear = Point(a.at).buffer(a.radius + 0.05).union(Point(b.at).buffer(b.radius + 0.05))
    pieces: list[Piece] = []
    while len(pieces) < rng.randint(1, 5):
        # pieces in the corridor between the two models, where they matter
        f, off = rng.uniform(0.15, 0.85), rng.uniform(-1.6, 1.6)
        (ax, ay), (bx, by) = a.at, b.at
        x = ax + f * (bx - ax) - off * (by - ay) / math.dist(a.at, b.at) - 0.5
        y = ay + f * (by - ay) + off * (bx - ax) / math.dist(a.at, b.at) - 0.5
        w, dp = rng.uniform(0.1, 1.2), rng.uniform(0.1, 1.5)
        ang = rng.uniform(0, math.pi)
        c, sn = math.cos(ang), math.sin(ang)
        corners = [
            (x + c * p - sn * r, y + sn * p + c * r) for p, r in ((0, 0), (w, 0), (w, dp), (0, dp))
        ]
        if Polygon(corners).intersects(keep_clear):
            continue
        h = rng.uniform(0.2, 2.6) if rng.random() < 0.8 else None
        pieces.append(Piece(PieceId(f"p{len(pieces)}"), PieceKind.WALL, tuple(corners), h))
    return Table.build(12, 12, pieces, (a, b)), a, b


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(30))
def test_visible_fraction_is_within_two_hundredths_of_the_reference(seed: int) -> None:
    table, a, b = random_table(seed)
    engine = visibility(table, "a", "b", models_block=False).fraction
    reference = reference_fraction(table, a, b)
    # The reference's eye grid can only miss lines, so it errs low by a little.
    assert abs(engine - reference) <= 0.02, (seed, engine, reference)
