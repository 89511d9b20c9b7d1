"""The whole-leg sweep (game.geometry.sweep): the stretches of a leg from which a clear
sight line joins a watcher and a mover, from which the mover is in the watcher's arc,
and from which it is within a reach, found exactly rather than at points 0.5" apart."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, clear_lines, in_arc
from game.geometry.sweep import (
    _separated,
    arc_spans,
    clear_spans,
    convex_apart,
    polygon_point_gap,
    reach_spans,
    surely_hidden,
)

Point = tuple[float, float]


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def at(leg: tuple[Point, Point], t: float) -> Point:
    (x0, y0), (x1, y1) = leg
    return (x0 + t * (x1 - x0), y0 + t * (y1 - y0))


WATCHER = Body(BodyId("w"), (2.0, 10.0), 0.5, 1.6)
# a full-height wall 1" deep with a slit 0.1" wide at y = 10
SLIT = Table.build(
    20,
    20,
    [
        Piece(PieceId("below"), PieceKind.BUILDING, box(6, 0, 7, 9.95)),
        Piece(PieceId("above"), PieceKind.BUILDING, box(6, 10.05, 7, 20)),
    ],
    [WATCHER],
)
# a small base (0.1" across) walking across the narrow beam 1" behind the wall
MOVER = Body(BodyId("m"), (8.0, 8.25), 0.05, 1.6)
LEG = ((8.0, 8.25), (8.0, 11.75))


def clear_at(table: Table, leg: tuple[Point, Point], ts: np.ndarray) -> list[bool]:
    return clear_lines(table, [(WATCHER, replace(MOVER, at=at(leg, float(t)))) for t in ts])


def test_a_gap_clear_for_less_than_half_an_inch_of_the_leg_is_found() -> None:
    length = math.dist(*LEG)
    # the premise, checked densely: one clear stretch, shorter than 0.5", and the old
    # points 0.5" apart (both ends included) all miss it
    ts = np.linspace(0.0, 1.0, 3501)
    dense = np.array(clear_at(SLIT, LEG, ts))
    seen = ts[dense]
    assert 0.0 < (seen.max() - seen.min()) * length < 0.5
    assert not any(clear_at(SLIT, LEG, np.arange(0.0, length + 1e-9, 0.5) / length))
    spans = clear_spans(SLIT, WATCHER, MOVER, LEG)
    assert len(spans) == 1
    lo, hi = spans[0]
    step = 1.0 / 3500
    assert lo == pytest.approx(seen.min(), abs=step) and hi == pytest.approx(seen.max(), abs=step)
    # inside the stretch a clear line is there, just outside none
    assert all(clear_at(SLIT, LEG, np.linspace(lo, hi, 9)[1:-1]))
    assert not any(clear_at(SLIT, LEG, np.array([lo - 2 * step, hi + 2 * step])))


def test_a_leg_with_no_clear_line_has_no_stretch_and_an_open_one_is_whole() -> None:
    blocked = ((8.0, 2.0), (8.0, 6.0))  # behind the lower wall all the way
    assert clear_spans(SLIT, WATCHER, MOVER, blocked) == []
    assert clear_spans(Table.build(20, 20, [], [WATCHER]), WATCHER, MOVER, LEG) == [(0.0, 1.0)]


def test_a_leg_grazing_the_arc_edge_is_in_the_arc_only_where_the_arc_admits_it() -> None:
    # facing +x with a 180 degree arc: the edge is the line x = 2 through the centre; the
    # leg passes behind it and its base (0.5") reaches across the edge only near x = 1.6
    watcher = replace(WATCHER, facing=0.0)
    leg = ((-1.0, 4.0), (1.6, 8.0))
    down = ((1.6, 8.0), (-1.0, 12.0))
    for part in (leg, down):
        spans = arc_spans(watcher, 0.5, part, 180.0)
        assert len(spans) == 1
        lo, hi = spans[0]
        # from exactly where the centre comes within the base radius of the edge, x = 1.5
        (x0, _), (x1, _) = part
        t_edge = (1.5 - x0) / (x1 - x0)
        assert (lo, hi) == pytest.approx(tuple(sorted((t_edge, 1.0 if x1 > x0 else 0.0))))
        for t in np.linspace(0.0, 1.0, 201):
            inside = lo - 1e-9 <= t <= hi + 1e-9
            body = Body(BodyId("m"), at(part, float(t)), 0.5, 1.6)
            assert in_arc(watcher, body, 180.0) == inside or abs(t - t_edge) < 1e-6


def test_reach_is_edge_to_edge_along_the_whole_leg() -> None:
    leg = ((2.0, 20.0), (2.0, 0.0))  # straight through the watcher's spot
    spans = reach_spans(WATCHER, 0.5, leg, 8.0)
    (lo, hi) = spans[0]
    # within 8" edge to edge: centres within 9" of (2, 10), so y from 1 to 19
    assert len(spans) == 1
    assert at(leg, lo)[1] == pytest.approx(19.0) and at(leg, hi)[1] == pytest.approx(1.0)


@pytest.mark.parametrize("arc", [90.0, 120.0, 180.0, 270.0])
def test_arc_and_reach_stretches_agree_with_the_point_tests_on_random_legs(arc: float) -> None:
    # the quick answers (a leg wholly inside the arc or the reach, or wholly out of reach)
    # and the swept ones alike: every point of the leg away from a stretch's end is in a
    # stretch exactly when in_arc / the edge-to-edge distance says so
    rng = np.random.default_rng(13)
    for _ in range(150):
        watcher = Body(BodyId("w"), tuple(rng.uniform(8, 12, 2)), 0.5, 1.6, rng.uniform(-180, 180))
        start = tuple(rng.uniform(4, 16, 2))
        leg = (start, tuple(np.add(start, rng.uniform(-6, 6, 2))))
        arc_stretches = arc_spans(watcher, 0.5, leg, arc)
        near = reach_spans(watcher, 0.5, leg, 3.0)
        for t in np.linspace(0.0, 1.0, 61):
            body = Body(BodyId("m"), at(leg, float(t)), 0.5, 1.6)
            for spans, truth in (
                (arc_stretches, in_arc(watcher, body, arc)),
                (near, math.dist(body.at, watcher.at) - 1.0 <= 3.0),
            ):
                if any(abs(t - end) < 1e-6 for span in spans for end in span):
                    continue
                assert any(lo <= t <= hi for lo, hi in spans) == truth


def _random_table(rng: np.random.Generator, heights: tuple[float | None, ...]) -> Table:
    """A 20" table with a few boxes and walls of the given heights (None: full height)
    and two models in the way."""
    pieces = []
    for k in range(int(rng.integers(2, 6))):
        x, y = rng.uniform(3, 17, 2)
        w, d = (rng.uniform(0.2, 3), rng.uniform(0.2, 0.5))[:: 1 if rng.random() < 0.5 else -1]
        height = heights[int(rng.integers(len(heights)))]
        pieces.append(Piece(PieceId(f"p{k}"), PieceKind.BUILDING, box(x, y, x + w, y + d), height))
    bodies = [
        Body(BodyId(f"b{k}"), tuple(rng.uniform(3, 17, 2)), 0.5, float(rng.choice([1.0, 1.4])))
        for k in range(2)
    ]
    return Table.build(20, 20, pieces, bodies)


def _random_leg(
    rng: np.random.Generator, watcher: Body, table: Table
) -> tuple[Point, Point] | None:
    """A leg whose bases keep off the watcher's base and every piece (as a move does)."""
    start = tuple(rng.uniform(1, 19, 2))
    leg = (start, tuple(np.clip(np.add(start, rng.uniform(-5, 5, 2)), 1, 19)))
    line = LineString(leg)
    if line.distance(ShapelyPoint(watcher.at)) <= watcher.radius + MOVER_RADIUS:
        return None
    if any(line.distance(poly) <= MOVER_RADIUS for poly in table.polygons):
        return None
    return leg  # type: ignore[return-value]


MOVER_RADIUS = 0.5


@pytest.mark.parametrize("mover_height", [0.882, 1.0, 1.2])
def test_a_leg_proved_out_of_sight_at_once_has_no_clear_line_anywhere(mover_height: float) -> None:
    # the quick proof (one convex obstacle across the hull, taller than any line where
    # it crosses: walls as tall as the troopers, in-between heights near the lower one)
    # answers only where every point of the leg, tested densely, has no clear line; the
    # watcher and the leg on either side of a wall of a random height, other pieces and
    # models about
    rng = np.random.default_rng(29)
    heights = (0.9, 0.95, 1.0, 1.1, 1.2, 2.5, None)
    proved = 0
    for _ in range(300):
        others = _random_table(rng, heights)
        x0, y0 = rng.uniform(4, 10), rng.uniform(8, 11)
        wall = Piece(
            PieceId("wall"),
            PieceKind.WALL,
            box(x0, y0, x0 + rng.uniform(1, 8), y0 + rng.uniform(0.1, 1.0)),
            heights[int(rng.integers(len(heights)))],
        )
        table = Table.build(20, 20, [*others.pieces, wall], others.bodies)
        below = rng.random() < 0.5
        wy = rng.uniform(1, 7) if below else rng.uniform(13, 19)
        watcher = Body(BodyId("w"), (rng.uniform(3, 17), wy), 0.5, 1.0)
        if any(
            poly.distance(ShapelyPoint(watcher.at)) <= watcher.radius for poly in table.polygons
        ):
            continue
        start = (rng.uniform(3, 17), rng.uniform(13, 19) if below else rng.uniform(1, 7))
        leg = (start, tuple(np.clip(np.add(start, rng.uniform(-4, 4, 2)), 1, 19)))
        line = LineString(leg)
        if any(line.distance(poly) <= MOVER_RADIUS for poly in table.polygons):
            continue
        mover = Body(BodyId("m"), leg[0], MOVER_RADIUS, mover_height)
        chosen = np.arange(len(table.pieces))
        bodies = np.arange(len(table.bodies))
        if not _separated(table, chosen, bodies, watcher, mover, leg):  # type: ignore[arg-type]
            continue
        proved += 1
        ts = np.linspace(0.0, 1.0, 81)
        pairs = [(watcher, replace(mover, at=at(leg, float(t)))) for t in ts]  # type: ignore[arg-type]
        assert not any(clear_lines(table, pairs))
    assert proved >= 20


def test_clear_stretches_agree_with_the_point_tests_on_random_legs() -> None:
    # pieces lower than both models or at least as tall as both (where the sweep is
    # exact), models in the way, troopers a little taller than the mover's patch core
    rng = np.random.default_rng(31)
    checked = 0
    for _ in range(150):
        table = _random_table(rng, (0.5, 1.0, 2.5, None))
        watcher = Body(BodyId("w"), tuple(rng.uniform(1, 19, 2)), 0.5, 1.0)
        if any(
            poly.distance(ShapelyPoint(watcher.at)) <= watcher.radius for poly in table.polygons
        ):
            continue
        leg = _random_leg(rng, watcher, table)
        if leg is None:
            continue
        mover = Body(BodyId("m"), leg[0], MOVER_RADIUS, 0.882)
        spans = clear_spans(table, watcher, mover, leg)
        ts = np.linspace(0.0, 1.0, 81)
        pairs = [(watcher, replace(mover, at=at(leg, float(t)))) for t in ts]
        truth = clear_lines(table, pairs)
        for t, clear in zip(ts, truth, strict=True):
            if any(abs(t - end) < 1e-6 for span in spans for end in span):
                continue
            assert any(lo <= t <= hi for lo, hi in spans) == clear
        checked += 1
    assert checked >= 60


def test_a_pair_proved_hidden_at_once_has_no_clear_line() -> None:
    # the same proof for one place of the mover (a leg of no length), which the table's
    # sight asks before the geometry's search: never says hidden where a line is clear
    rng = np.random.default_rng(37)
    proved = asked = 0
    for _ in range(40):
        table = _random_table(rng, (0.9, 1.0, 1.1, 2.5, None))
        for _ in range(25):
            watcher = Body(BodyId("w"), tuple(rng.uniform(1, 19, 2)), 0.5, 1.0)
            spot = tuple(rng.uniform(1, 19, 2))
            height = float(rng.choice([0.882, 1.0, 1.2]))
            mover = Body(BodyId("m"), spot, MOVER_RADIUS, height)  # type: ignore[arg-type]
            asked += 1
            if surely_hidden(table, watcher, mover, (spot, spot)):  # type: ignore[arg-type]
                proved += 1
                assert not clear_lines(table, [(watcher, mover)])[0]
    assert 30 <= proved < asked / 2


def test_convex_shapes_proved_apart_are_that_far_apart_as_shapely_measures() -> None:
    # surely_seen's triangles against the pieces: "apart" must never be said of a
    # triangle and a box nearer than the gap; a point's gap to a triangle is shapely's
    rng = np.random.default_rng(23)
    proved = 0
    for _ in range(3000):
        ax, ay, bx, by, cx, cy = rng.uniform(0, 10, 6)
        if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0:
            bx, by, cx, cy = cx, cy, bx, by  # counter-clockwise, as surely_seen's
        triangle = [(ax, ay), (bx, by), (cx, cy)]
        x0, y0 = rng.uniform(0, 10, 2)
        w, h = rng.uniform(0.1, 3, 2)
        box = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
        gap = float(rng.choice([1e-6, 0.05, 0.5]))
        far = shapely.distance(shapely.Polygon(triangle), shapely.Polygon(box))
        if convex_apart(triangle, box, gap):
            proved += 1
            assert far > gap
        px, py = rng.uniform(0, 10, 2)
        near = shapely.distance(shapely.Polygon(triangle), ShapelyPoint(px, py))
        assert polygon_point_gap(triangle, px, py) == pytest.approx(near, abs=1e-12)
    assert proved > 1000
