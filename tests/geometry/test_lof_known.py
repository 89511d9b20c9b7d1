"""Known answers for line of fire, visibility and cover-relevant measures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, line_of_fire, sight
from game.geometry.lof import EPS, SightLine


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def piece(pid: str, shape: tuple[tuple[float, float], ...], height: float | None = None,
          kind: PieceKind = PieceKind.BUILDING) -> Piece:  # fmt: skip
    return Piece(PieceId(pid), kind, shape, height)


def body(bid: str, x: float, y: float, *, r: float = 0.5, h: float = 1.6,
         facing: float = 0.0) -> Body:  # fmt: skip
    return Body(BodyId(bid), (x, y), r, h, facing)


SHOOTER = body("a", 2, 10)
TARGET = body("b", 20, 10, facing=180)


def table(*pieces: Piece, extra: tuple[Body, ...] = ()) -> Table:
    return Table.build(24, 24, pieces, (SHOOTER, TARGET, *extra))


def _point_in_cylinder(p: tuple[float, float, float], b: Body) -> bool:
    return math.dist(p[:2], b.at) <= b.radius + 1e-6 and -1e-9 <= p[2] <= b.height + 1e-9


def _witness_ok(w: SightLine | None, a: Body, b: Body) -> None:
    assert w is not None
    assert _point_in_cylinder((w.start.x, w.start.y, w.start.z), a)
    assert _point_in_cylinder((w.end.x, w.end.y, w.end.z), b)


def test_open_table_is_clear_with_centre_witness() -> None:
    r = line_of_fire(table(), "a", "b", arc_degrees=180)
    assert r.lof and r.in_arc and r.clear
    _witness_ok(r.witness, SHOOTER, TARGET)


def test_wall_fully_between_blocks() -> None:
    r = line_of_fire(table(piece("w", box(10, 5, 11, 15), kind=PieceKind.WALL)), "a", "b")
    assert not r.clear and not r.lof
    assert r.witness is None
    assert r.blockers == ("w",)


def test_narrow_gap_off_the_centre_line_is_found() -> None:
    # two full-height walls leave a 0.05" slot at y in (10.3, 10.35): the centre line is shut
    t = table(piece("w1", box(10, 0, 11, 10.3)), piece("w2", box(10, 10.35, 11, 20)))
    r = line_of_fire(t, "a", "b")
    assert r.clear
    _witness_ok(r.witness, SHOOTER, TARGET)
    w = r.witness
    assert w is not None
    # the witness really threads the slot: at x = 10 and x = 11 it is inside (10.3, 10.35)
    for x in (10.0, 11.0):
        s = (x - w.start.x) / (w.end.x - w.start.x)
        y = w.start.y + s * (w.end.y - w.start.y)
        assert 10.3 - 1e-6 <= y <= 10.35 + 1e-6


def test_closing_the_gap_blocks() -> None:
    t = table(piece("w1", box(10, 0, 11, 10.3)), piece("w2", box(10, 10.3, 11, 20)))
    assert not line_of_fire(t, "a", "b").clear


def test_gap_too_narrow_for_the_geometry_blocks() -> None:
    # a slot aimed away from both bases: nothing passes through it to the target
    t = table(piece("w1", box(10, 0, 11, 13.0)), piece("w2", box(10, 13.05, 11, 24)))
    assert not line_of_fire(t, "a", "b").clear


def test_corner_grazed_is_clear() -> None:
    # the only lines past the two blocks touch their corners exactly (a zero-width gap
    # at y = 10 between corners (10, 10) and (11, 10)); touching is clear
    t = table(piece("c", box(10, 10, 11, 20)), piece("d", box(10, 0, 11, 10)))
    assert not line_of_fire(t, "a", "b").clear  # they share an edge: a solid wall
    t2 = table(piece("c", box(10, 10, 11, 20)), piece("d", box(11, 0, 12, 10)))
    r = line_of_fire(t2, "a", "b")
    assert r.clear  # the line y = 10 runs along both faces and through the shared corner
    _witness_ok(r.witness, SHOOTER, TARGET)


def test_corner_entered_by_a_hair_blocks() -> None:
    t = table(piece("c", box(10, 10 - 10 * EPS, 11, 20)), piece("d", box(11, 0, 12, 10 + 10 * EPS)))
    assert not line_of_fire(t, "a", "b").clear


def test_target_behind_the_arc() -> None:
    behind = body("a", 2, 10, facing=180)
    t = Table.build(24, 24, (), (behind, TARGET))
    r = line_of_fire(t, "a", "b", arc_degrees=180)
    assert r.clear and not r.in_arc and not r.lof
    assert line_of_fire(t, "a", "b", arc_degrees=360).lof


def test_target_partly_in_a_narrow_arc() -> None:
    # target centre 46 degrees off the facing; its base pokes into a 90 degree arc
    d = 5.0
    ang = math.radians(45 + math.degrees(math.asin(0.5 / d)) * 0.5)
    tgt = body("b", 2 + d * math.cos(ang), 10 + d * math.sin(ang))
    t = Table.build(24, 24, (), (SHOOTER, tgt))
    assert line_of_fire(t, "a", "b", arc_degrees=90).in_arc
    far = body("b", 2 + d * math.cos(math.radians(52)), 10 + d * math.sin(math.radians(52)))
    t = Table.build(24, 24, (), (SHOOTER, far))
    assert not line_of_fire(t, "a", "b", arc_degrees=90).in_arc


def test_model_in_the_way_blocks_only_when_models_block() -> None:
    big = body("m", 11, 10, r=2.0, h=3.0)
    t = table(extra=(big,))
    assert not line_of_fire(t, "a", "b", models_block=True).clear
    assert line_of_fire(t, "a", "b", models_block=False).clear
    small = body("m", 11, 10, r=0.5, h=1.6)
    r = line_of_fire(table(extra=(small,)), "a", "b", models_block=True)
    assert r.clear  # lines pass either side of a base no wider than the two ends


def test_low_wall_is_seen_over_and_hides_the_lower_part() -> None:
    low = piece("lw", box(10, 5, 10.3, 15), height=1.0, kind=PieceKind.WALL)
    s = sight(table(low), "a", "b")
    assert s.clear
    assert s.visible_fraction < 0.99
    assert "lw" in s.hidden_by
    high = piece("hw", box(10, 5, 10.3, 15), height=1.7, kind=PieceKind.WALL)
    assert not line_of_fire(table(high), "a", "b").clear  # taller than both: every line is below
    level = piece("hw", box(10, 5, 10.3, 15), height=1.6, kind=PieceKind.WALL)
    assert line_of_fire(table(level), "a", "b").clear  # exactly as tall: the line touches its top


def test_mid_height_wall_near_the_tall_target() -> None:
    # shooter 1.2" tall, target 3" tall, wall 2" high just in front of the target: lines
    # from the shooter's top climb over it to the target's top
    a = body("a", 2, 10, h=1.2)
    b = body("b", 20, 10, h=3.0)
    wall = piece("w", box(18, 0, 18.3, 24), height=2.0, kind=PieceKind.WALL)
    t = Table.build(24, 24, (wall,), (a, b))
    r = line_of_fire(t, "a", "b")
    assert r.clear
    _witness_ok(r.witness, a, b)
    # the same wall just in front of the short shooter blocks every line
    wall2 = piece("w", box(3, 0, 3.3, 24), height=2.0, kind=PieceKind.WALL)
    assert not line_of_fire(Table.build(24, 24, (wall2,), (a, b)), "a", "b").clear


def test_visible_fraction_half_hidden_by_a_block() -> None:
    # a full-height block covering the near half of the target as seen along the axis;
    # with lines from anywhere on the shooter's base, the share seen is between 0.4 and 0.7
    t = table(piece("blk", box(15, 10, 16, 20)))
    s = sight(t, "a", "b")
    assert s.clear
    assert 0.4 < s.visible_fraction < 0.8
    assert s.hidden_by == ("blk",)


@pytest.mark.parametrize("height", [0.5, 1.0, 1.4])
def test_low_wall_in_contact_hides_about_its_height(height: float) -> None:
    # a wall touching the target, same height models: seen from the shooter's top (1.6),
    # lines to the target's front pass over the wall; hidden share is close to h/1.6
    wall = piece("lw", box(19.2, 5, 19.5, 15), height=height, kind=PieceKind.WALL)
    s = sight(table(wall), "a", "b")
    assert s.clear
    expected = 1 - height / 1.6
    assert abs(s.visible_fraction - expected) < 0.06


def test_visible_patch_is_the_largest_square_seen() -> None:
    # open ground: the whole silhouette (1" wide, 1.6" tall) is seen, the square is 1"
    assert sight(table(), "a", "b").visible_patch == pytest.approx(1.0)
    # a wall as tall as both models: the only clear lines graze its top, nothing is seen
    level = piece("lw", box(10, 5, 10.3, 15), height=1.6, kind=PieceKind.WALL)
    s = sight(table(level), "a", "b")
    assert s.clear and s.visible_fraction < 0.01 and s.visible_patch < 0.01
    # a 1" wall touching the target leaves about the top 0.6" seen across the base
    low = piece("lw", box(19.2, 5, 19.5, 15), height=1.0, kind=PieceKind.WALL)
    assert 0.5 < sight(table(low), "a", "b").visible_patch < 0.65


def test_largest_patch_needs_a_run_of_strips_as_wide_as_it_is_deep() -> None:
    from game.geometry.silhouette import largest_patch as _largest_patch

    seen = np.array([0.0, 1.0, 1.0, 1.0, 0.0])
    assert _largest_patch(seen, 0.5) == pytest.approx(1.0)  # two strips, 1" wide and deep
    assert _largest_patch(seen, 0.2) == pytest.approx(0.6)  # three strips, 0.6" wide
    assert _largest_patch(np.array([0.0, 0.3, 0.0, 0.3]), 1.0) == pytest.approx(0.3)
