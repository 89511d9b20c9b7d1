"""Table geometry: scenery prisms, model cylinders, line of fire, visibility and measures.

Only shapely and numpy; knows nothing of rules (DESIGN.md, layers).
"""

from __future__ import annotations

from game.geometry.lof import (
    EPS,
    LineOfFire,
    Point3,
    Sight,
    SightLine,
    Visibility,
    clear_lines,
    clear_witnesses,
    edge_distance,
    in_arc,
    line_of_fire,
    lines_of_fire,
    patch_core,
    sight,
    visibility,
)
from game.geometry.table import Body, BodyId, Piece, PieceId, PieceKind, Table, base_radius

__all__ = [
    "EPS",
    "Body",
    "BodyId",
    "LineOfFire",
    "Piece",
    "PieceId",
    "PieceKind",
    "Point3",
    "Sight",
    "SightLine",
    "Table",
    "Visibility",
    "base_radius",
    "clear_lines",
    "clear_witnesses",
    "edge_distance",
    "in_arc",
    "line_of_fire",
    "lines_of_fire",
    "patch_core",
    "sight",
    "visibility",
]
