"""The whole-leg sweep (game.geometry.sweep): the stretches of a leg from which a clear
sight line joins a watcher and a mover, from which the mover is in the watcher's arc,
and from which it is within a reach, found exactly rather than at points 0.5" apart."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, clear_lines, in_arc
from game.geometry.sweep import arc_spans, clear_spans, reach_spans

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
