"""Necromunda cover readings (FACTS 2.3): partial below half hidden, full at half or more."""

from __future__ import annotations

from game.geometry import Body, BodyId, Piece, PieceId, PieceKind, Table, sight
from game.rules.necromunda.cover import NecromundaCover, read_cover


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


A = Body(BodyId("a"), (2, 10), 0.5, 1.6)
B = Body(BodyId("b"), (20, 10), 0.5, 1.6, 180.0)


def level(height: float | None, x0: float = 19.2, x1: float = 19.45) -> NecromundaCover:
    wall = Piece(PieceId("w"), PieceKind.WALL, box(x0, 5, x1, 15), height)
    t = Table.build(24, 24, (wall,), (A, B))
    return read_cover(sight(t, "a", "b", arc_degrees=90)).level


def test_none_partial_full_by_hidden_share() -> None:
    assert level(0.0001) is NecromundaCover.NONE
    assert level(0.4) is NecromundaCover.PARTIAL  # about a quarter hidden
    assert level(1.2) is NecromundaCover.FULL  # about three quarters hidden
    assert level(None, 10, 10.3) is NecromundaCover.FULL  # not visible at all


def test_reason_names_the_piece() -> None:
    wall = Piece(PieceId("crate-2"), PieceKind.OBSTACLE, box(19.2, 5, 19.45, 15), 0.4)
    t = Table.build(24, 24, (wall,), (A, B))
    r = read_cover(sight(t, "a", "b"))
    assert r.level is NecromundaCover.PARTIAL
    assert "crate-2" in r.reason
