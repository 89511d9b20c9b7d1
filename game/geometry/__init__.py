"""Table geometry: scenery prisms, model cylinders, line of fire, visibility and measures.

Only shapely, numpy and numba (`kernels`, loaded at the first sight line); knows
nothing of rules (DESIGN.md, layers).
"""

from __future__ import annotations

from game.geometry.answers import LineOfFire, Point3, Sight, SightLine, Visibility
from game.geometry.blocking import EPS
from game.geometry.lof import clear_lines, clear_witnesses, in_arc, line_of_fire, lines_of_fire
from game.geometry.measures import edge_distance
from game.geometry.sight_answer import sight
from game.geometry.silhouette import Strips, patch_core, silhouette_strips, visibility
from game.geometry.table import (
    Body,
    BodyId,
    NotFiniteError,
    Piece,
    PieceId,
    PieceKind,
    Table,
    base_radius,
    require_finite,
)

__all__ = [
    "EPS",
    "Body",
    "BodyId",
    "LineOfFire",
    "NotFiniteError",
    "Piece",
    "PieceId",
    "PieceKind",
    "Point3",
    "Sight",
    "SightLine",
    "Strips",
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
    "require_finite",
    "sight",
    "silhouette_strips",
    "visibility",
]
