"""Geometry never reaches GEOS with a bad value: NaN or infinite numbers are refused at the
geometry layer's entry points with a clear error (issue 18: a model at NaN used to crash
the process inside GEOS)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from game.geometry import (
    Body,
    BodyId,
    NotFiniteError,
    Piece,
    PieceId,
    PieceKind,
    Table,
    clear_lines,
    sight,
)
from game.geometry.measures import blast_hits, pieces_near, scatter, template_hits

BAD = (math.nan, math.inf, -math.inf)
SQUARE = ((10.0, 10.0), (12.0, 10.0), (12.0, 12.0), (10.0, 12.0))


def table() -> Table:
    return Table.build(
        24,
        24,
        [Piece(PieceId("box"), PieceKind.BUILDING, SQUARE, 2.0)],
        [Body(BodyId("a"), (4.0, 4.0), 0.5, 1.0), Body(BodyId("b"), (20.0, 20.0), 0.5, 1.0)],
    )


@pytest.mark.parametrize("bad", BAD)
def test_a_model_with_a_number_that_is_not_finite_is_refused(bad: float) -> None:
    with pytest.raises(NotFiniteError, match="model a: the position"):
        Body(BodyId("a"), (bad, 4.0), 0.5, 1.0)
    with pytest.raises(NotFiniteError, match="model a: the base radius and height"):
        Body(BodyId("a"), (4.0, 4.0), 0.5, bad)
    with pytest.raises(NotFiniteError, match="model a: the facing"):
        Body(BodyId("a"), (4.0, 4.0), 0.5, 1.0, facing=bad)


@pytest.mark.parametrize("bad", BAD)
def test_a_piece_or_table_with_a_number_that_is_not_finite_is_refused(bad: float) -> None:
    with pytest.raises(NotFiniteError, match="piece p: a footprint corner"):
        Piece(PieceId("p"), PieceKind.WALL, ((0.0, 0.0), (bad, 0.0), (1.0, 1.0)), 1.0)
    with pytest.raises(NotFiniteError, match="piece p: the height"):
        Piece(PieceId("p"), PieceKind.WALL, SQUARE, bad)
    with pytest.raises(NotFiniteError, match="width and depth"):
        Table.build(bad, 24)


def test_a_piece_without_a_height_is_still_taller_than_anything() -> None:
    assert Piece(PieceId("p"), PieceKind.BUILDING, SQUARE).top == math.inf


@pytest.mark.parametrize("bad", BAD)
def test_moving_a_model_to_a_number_that_is_not_finite_is_refused(bad: float) -> None:
    t = table()
    with pytest.raises(NotFiniteError):
        t.moved("a", (bad, 3.0))
    with pytest.raises(NotFiniteError):
        t.moved("a", (3.0, 3.0), facing=bad)
    with pytest.raises(NotFiniteError):
        clear_lines(t, [(replace(t.body("a"), at=(3.0, bad)), t.body("b"))])
    # the table itself is untouched and still answers: the box stands across the diagonal
    assert not sight(t, "a", "b").clear
    assert sight(t.moved("a", (4.0, 20.0)), "a", "b").clear


@pytest.mark.parametrize("bad", BAD)
def test_area_measures_refuse_numbers_that_are_not_finite(bad: float) -> None:
    t = table()
    with pytest.raises(NotFiniteError, match="marker"):
        blast_hits(t, (bad, 5.0), 1.5)
    with pytest.raises(NotFiniteError, match="marker"):
        blast_hits(t, (5.0, 5.0), bad)
    with pytest.raises(NotFiniteError, match="template"):
        template_hits(t, (4.0, 4.0), bad, 8.0, 2.0)
    with pytest.raises(NotFiniteError, match="scatter"):
        scatter(t, (4.0, 4.0), 45.0, bad)
    with pytest.raises(NotFiniteError, match="reach"):
        pieces_near(t, t.body("a"), bad)
