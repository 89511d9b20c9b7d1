"""Colours and sizes of the drawn table."""

from __future__ import annotations

from game.scenario import SceneryKind

Colour = tuple[int, int, int]

BACKGROUND: Colour = (28, 30, 34)
TABLE: Colour = (196, 186, 160)
GRID: Colour = (178, 168, 142)
GRID_MAJOR: Colour = (150, 140, 116)
TEXT: Colour = (235, 235, 235)
INK: Colour = (30, 30, 30)

SCENERY: dict[SceneryKind, Colour] = {
    SceneryKind.BUILDING: (110, 104, 98),
    SceneryKind.WALL: (70, 70, 76),
    SceneryKind.OBSTACLE: (142, 104, 62),
    SceneryKind.AREA: (96, 140, 78),
}
SCENERY_EDGE: dict[SceneryKind, Colour] = {
    SceneryKind.BUILDING: (60, 56, 52),
    SceneryKind.WALL: (30, 30, 34),
    SceneryKind.OBSTACLE: (90, 62, 30),
    SceneryKind.AREA: (58, 96, 44),
}

SIDE_COLOURS: tuple[Colour, ...] = (
    (50, 110, 220),
    (210, 56, 48),
    (236, 190, 40),
    (140, 70, 200),
    (40, 170, 150),
    (230, 120, 30),
)

MARGIN = 28  # pixels around the table for grid labels
TITLE = 34  # pixels above the table for the title
