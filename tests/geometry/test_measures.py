"""Stray-shot lines, blasts, templates and scatter paths."""

from __future__ import annotations

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, edge_distance
from game.geometry.measures import blast_hits, pieces_near, scatter, template_hits, within_of_line


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def b(i: str, x: float, y: float) -> Body:
    return Body(BodyId(i), (x, y), 0.5, 1.6)


WALL = Piece(PieceId("wall"), PieceKind.WALL, box(10, 0, 10.3, 8), 1.0)
WOODS = Piece(PieceId("woods"), PieceKind.AREA, box(14, 12, 18, 16), 2.0)


def test_edge_distance_and_contact() -> None:
    t = Table.build(24, 24, [WALL], [b("a", 2, 10), b("m", 10.85, 4)])
    assert abs(edge_distance(t.body("a"), b("z", 6, 10)) - 3.0) < 1e-12
    assert pieces_near(t, t.body("m"), 0.1) == ("wall",)
    assert pieces_near(t, t.body("m"), 0.01) == ()


def test_stray_candidates_sorted_nearest_the_shooter() -> None:
    t = Table.build(
        24,
        24,
        [],
        [b("s", 2, 10), b("t", 20, 10), b("far", 15, 11.4), b("near", 6, 9), b("out", 9, 12.6)],
    )
    assert within_of_line(t, "s", "t") == ("near", "far")


def test_blast_stops_at_walls_not_at_woods() -> None:
    t = Table.build(
        24, 24, [WALL, WOODS], [b("x", 9.2, 4), b("y", 11.2, 4), b("z", 13, 14), b("w", 16, 18)]
    )
    # centre just west of the wall: x is hit, y is behind the wall
    assert blast_hits(t, (9.0, 5.0), 2.5) == ("x",)
    # centre in the woods: area terrain stops nothing
    assert set(blast_hits(t, (15.0, 15.5), 2.6)) == {"z", "w"}


def test_template_from_its_narrow_end() -> None:
    t = Table.build(24, 24, [WALL], [b("x", 6, 4), b("y", 12, 4), b("side", 6, 8)])
    hits = template_hits(t, (3.0, 4.0), 0.0, 8.0, 2.5)
    assert hits == ("x",)  # y is beyond the wall; side is outside the teardrop


def test_scatter_stops_at_the_first_wall_and_leaves_the_table() -> None:
    t = Table.build(24, 24, [WALL, WOODS], [])
    hit = scatter(t, (8.0, 4.0), 0.0, 6.0)
    assert hit.stopped_by == "wall" and abs(hit.end[0] - 10.0) < 1e-9 and not hit.left_table
    through = scatter(t, (12.0, 14.0), 0.0, 4.0)
    assert through.stopped_by is None and abs(through.end[0] - 16.0) < 1e-9
    off = scatter(t, (22.0, 20.0), 90.0, 6.0)
    assert off.left_table
