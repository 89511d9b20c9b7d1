"""Infinity cover readings (seed 000, FACTS 3.5)."""

from __future__ import annotations

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, sight
from game.rules.infinity.cover import InfinityCover, read_cover


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


A = Body(BodyId("a"), (2, 10), 0.5, 1.6)
B = Body(BodyId("b"), (20, 10), 0.5, 1.6)


def reading(*pieces: Piece) -> InfinityCover:
    t = Table.build(24, 24, pieces, (A, B))
    return read_cover(t, sight(t, "a", "b", arc_degrees=180)).level


def wall(x0: float, x1: float, height: float | None) -> Piece:
    return Piece(PieceId("w"), PieceKind.WALL, box(x0, 5, x1, 15), height)


def test_open_ground_is_no_cover() -> None:
    assert reading() is InfinityCover.NONE


def test_low_wall_in_contact_gives_partial_even_when_seen_over() -> None:
    t = Table.build(24, 24, (wall(19.2, 19.45, 1.0),), (A, B))
    s = sight(t, "a", "b")
    assert s.lof  # the line passes over the wall
    r = read_cover(t, s)
    assert r.level is InfinityCover.PARTIAL
    assert r.pieces == ("w",)
    assert 'within 0.1" of w' in r.reason


def test_low_wall_away_from_the_target_gives_no_cover() -> None:
    assert reading(wall(12, 12.3, 1.0)) is InfinityCover.NONE


def test_low_wall_behind_the_target_gives_no_cover() -> None:
    assert reading(wall(20.55, 20.8, 1.0)) is InfinityCover.NONE


def test_full_wall_between_is_total() -> None:
    assert reading(wall(12, 12.3, None)) is InfinityCover.TOTAL


def test_a_sliver_over_a_wall_top_is_no_line_of_fire() -> None:
    # FACTS 3.5: at least about a 3x3 mm patch must be seen; a wall exactly as tall as
    # both models leaves only lines grazing its top
    from game.rules.infinity.cover import has_lof

    t = Table.build(24, 24, (wall(10, 10.3, 1.6),), (A, B))
    s = sight(t, "a", "b", arc_degrees=180)
    assert s.lof  # geometry: a clear sight line exists
    assert not has_lof(s, 3.0)
    r = read_cover(t, s, 3.0)
    assert r.level is InfinityCover.TOTAL
    assert "sliver" in r.reason and "3x3 mm" in r.reason
    assert has_lof(s, 0.0)  # without the rule value the grazing line still counts
    assert read_cover(t, s).level is not InfinityCover.TOTAL


def test_a_low_wall_leaves_more_than_the_minimum_patch() -> None:
    from game.rules.infinity.cover import has_lof

    t = Table.build(24, 24, (wall(19.2, 19.45, 1.0),), (A, B))
    s = sight(t, "a", "b", arc_degrees=180)
    assert has_lof(s, 3.0)
    assert read_cover(t, s, 3.0).level is InfinityCover.PARTIAL


def test_the_minimum_patch_is_read_from_the_rule_data(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from game.errors import InputError
    from game.rules.infinity.cover import MIN_PATCH_KEY
    from game.scenario.rule_values import load_rule_values

    assert load_rule_values("infinity")[MIN_PATCH_KEY] == 3.0
    assert load_rule_values("no-such-system") == {}
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "rules.toml").write_text('[min_visible_patch_mm]\nvalue = "three"\n')
    with pytest.raises(InputError, match="min_visible_patch_mm"):
        load_rule_values("x", tmp_path)
