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

# A side without its own `colour` whose id or name is one of these words is drawn in
# that colour (tester13: an imported map's `red` listed first was drawn blue); the
# others take SIDE_COLOURS in the file's order, skipping those taken by name.
NAMED_COLOURS: dict[str, Colour] = {
    "blue": SIDE_COLOURS[0],
    "red": SIDE_COLOURS[1],
    "yellow": SIDE_COLOURS[2],
    "purple": SIDE_COLOURS[3],
    "teal": SIDE_COLOURS[4],
    "orange": SIDE_COLOURS[5],
    "green": (70, 160, 60),
}

MARGIN = 28  # pixels around the table for grid labels
TITLE = 34  # pixels above the table for the title

# The window's overlays and panel.
PANEL_BG: Colour = (22, 24, 28)
PANEL_RULE: Colour = (70, 74, 82)
DIM: Colour = (150, 154, 162)
SELECT: Colour = (255, 255, 255)
TARGET: Colour = (255, 210, 60)
LOF_YES: Colour = (40, 200, 90)
LOF_NO: Colour = (230, 50, 50)
NEUTRAL: Colour = (250, 250, 250)
RULER: Colour = (255, 150, 30)
RINGS: Colour = (30, 60, 110)
WARN: Colour = (255, 170, 90)
SHADE = (20, 20, 24, 170)
HIDES: Colour = (245, 130, 40)
DRAFT: Colour = (120, 230, 255)
ROUTE: Colour = (240, 240, 255)
SHOT_HIT: Colour = (255, 60, 40)
SHOT_MISS: Colour = (235, 235, 210)
DEAD: Colour = (120, 120, 120)
WOUND: Colour = (220, 30, 30)
BLAST: Colour = (255, 120, 20)
SCATTER: Colour = (255, 200, 120)
REFUSED: Colour = (230, 50, 50)
UNDER_FOE: Colour = (255, 60, 40)
UNDER_FRIEND: Colour = (80, 200, 255)
RISK: Colour = (255, 150, 220)
GROUP: Colour = (150, 255, 150)  # the models nominated for a group activation
FLAME: Colour = (255, 110, 0)
TAG: Colour = (60, 60, 140)
