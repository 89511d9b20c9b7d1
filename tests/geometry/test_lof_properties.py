"""Properties: symmetry with all-round arcs, more scenery never shows more, rigid motions
change no ruling, the batch agrees with single rulings, witnesses are really clear."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.geometry import (
    Body,
    BodyId,
    Piece,
    PieceId,
    PieceKind,
    Table,
    line_of_fire,
    lines_of_fire,
    visibility,
)

coord = st.floats(min_value=2.0, max_value=22.0, allow_nan=False)


@st.composite
def rects(draw: st.DrawFn) -> tuple[float, float, float, float, float | None]:
    x, y = draw(coord), draw(coord)
    w = draw(st.floats(min_value=0.2, max_value=5.0))
    d = draw(st.floats(min_value=0.2, max_value=5.0))
    h = draw(st.one_of(st.none(), st.floats(min_value=0.3, max_value=4.0)))
    return (x, y, x + w, y + d, h)


def pieces_of(boxes: list[tuple[float, float, float, float, float | None]]) -> list[Piece]:
    return [
        Piece(PieceId(f"p{i}"), PieceKind.BUILDING, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), h)
        for i, (x0, y0, x1, y1, h) in enumerate(boxes)
    ]


def bodies_of(a: tuple[float, float], b: tuple[float, float], ha: float, hb: float) -> list[Body]:
    return [Body(BodyId("a"), a, 0.5, ha), Body(BodyId("b"), b, 0.5, hb)]


heights = st.floats(min_value=0.8, max_value=3.0)
boxes = st.lists(rects(), max_size=6)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


def apart(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return math.dist(a, b) > 1.2


@FAST
@given(boxes, coord, coord, coord, coord, heights, heights)
def test_all_round_rulings_are_symmetric(bx, ax_, ay_, tx, ty, ha, hb) -> None:  # type: ignore[no-untyped-def]
    a, b = (ax_, ay_), (tx, ty)
    if not apart(a, b):
        return
    t = Table.build(24, 24, pieces_of(bx), bodies_of(a, b, ha, hb))
    ab = line_of_fire(t, "a", "b", arc_degrees=360)
    ba = line_of_fire(t, "b", "a", arc_degrees=360)
    assert ab.lof == ba.lof


@FAST
@given(boxes, rects(), coord, coord, coord, coord, heights, heights)
def test_adding_scenery_never_shows_more(bx, extra, ax_, ay_, tx, ty, ha, hb) -> None:  # type: ignore[no-untyped-def]
    a, b = (ax_, ay_), (tx, ty)
    if not apart(a, b):
        return
    base = pieces_of(bx)
    more = pieces_of([*bx, extra])
    bodies = bodies_of(a, b, ha, hb)
    before = Table.build(24, 24, base, bodies)
    after = Table.build(24, 24, more, bodies)
    if not line_of_fire(before, "a", "b").clear:
        assert not line_of_fire(after, "a", "b").clear
    v0 = visibility(before, "a", "b").fraction
    v1 = visibility(after, "a", "b").fraction
    assert v1 <= v0 + 0.02


@FAST
@given(
    boxes,
    coord,
    coord,
    coord,
    coord,
    heights,
    heights,
    st.floats(min_value=-180, max_value=180),
    st.floats(min_value=-20, max_value=20),
    st.floats(min_value=-20, max_value=20),
)
def test_moving_and_turning_the_table_changes_no_ruling(  # type: ignore[no-untyped-def]
    bx, ax_, ay_, tx, ty, ha, hb, turn, dx, dy
) -> None:
    a, b = (ax_, ay_), (tx, ty)
    if not apart(a, b):
        return
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))

    def move(p: tuple[float, float]) -> tuple[float, float]:
        return (c * p[0] - s * p[1] + dx, s * p[0] + c * p[1] + dy)

    ps = pieces_of(bx)
    facing_a = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) + 60.0
    t0 = Table.build(
        24, 24, ps, [Body(BodyId("a"), a, 0.5, ha, facing_a), Body(BodyId("b"), b, 0.5, hb)]
    )
    moved = [Piece(p.id, p.kind, tuple(move(q) for q in p.footprint), p.height) for p in ps]
    t1 = Table.build(
        24,
        24,
        moved,
        [
            Body(BodyId("a"), move(a), 0.5, ha, facing_a + turn),
            Body(BodyId("b"), move(b), 0.5, hb),
        ],
    )
    for arc in (90.0, 360.0):
        r0 = line_of_fire(t0, "a", "b", arc_degrees=arc)
        r1 = line_of_fire(t1, "a", "b", arc_degrees=arc)
        assert (r0.clear, r0.in_arc) == (r1.clear, r1.in_arc)


def test_batch_agrees_with_single_rulings_on_the_big_table() -> None:
    from game.scenario import load_scenario
    from game.scenario.tables import table_from_scenario

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "tables" / "big-infinity.toml"
    t = table_from_scenario(load_scenario(path))
    ids = [b.id for b in t.bodies]
    pairs = list(itertools.permutations(ids[:12], 2))
    batch = lines_of_fire(t, pairs, arc_degrees=180)
    for (a, b), r in zip(pairs, batch, strict=True):
        single = line_of_fire(t, a, b, arc_degrees=180)
        assert (r.clear, r.in_arc) == (single.clear, single.in_arc), (a, b)
        if r.witness is not None:
            w = r.witness
            assert math.dist((w.start.x, w.start.y), t.body(a).at) <= t.body(a).radius + 1e-6
            assert math.dist((w.end.x, w.end.y), t.body(b).at) <= t.body(b).radius + 1e-6
