"""The scenario file format (TOML), as pydantic models of each table in the file.

See DESIGN.md, "Scenario file". Rule data ([[profile]], [[weapon]]) is validated by
the rule system's own models (game.rules.<system>.data).
"""

from __future__ import annotations

import math
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

# A coordinate in inches. Whether a point is on the table is checked against the table's
# size; this bound only keeps arithmetic on far-off points from overflowing.
MAX_COORDINATE = 10_000
Coordinate = Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
Point = tuple[Coordinate, Coordinate]
ID_PATTERN = r"^[A-Za-z0-9_.\-]+$"  # letters, digits, _ . - (no spaces)
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
Text = Annotated[str, Field(max_length=2_000)]
# Limits on what one file may hold: generous for any real table (README, "Limits").
MAX_POINTS = 200  # points in one scenery polygon or line
MAX_SCENERY = 500  # scenery pieces in a scenario
MAX_SCENERY_POINTS = 5_000  # points in all of a scenario's scenery together
MAX_MODELS = 200  # models in a scenario
MAX_SIDES = 16
MAX_OBJECTIVES = 100
MAX_TABLE = 240  # inches, either side of the table
MIN_TABLE = 2  # inches, either side: room for one large base


class Strict(BaseModel):
    # Every number must be finite: NaN and infinite values are refused where written.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class SceneryKind(StrEnum):
    """How rules treat a piece (DESIGN.md, geometry model)."""

    BUILDING = "building"
    WALL = "wall"
    OBSTACLE = "obstacle"
    AREA = "area"

    @property
    def solid(self) -> bool:
        """Models cannot stand inside it."""
        return self is not SceneryKind.AREA


class Header(Strict):
    """[scenario]"""

    name: str = Field(min_length=1, max_length=200)
    ruleset: str = Field(max_length=64)
    table: tuple[
        Annotated[float, Field(ge=MIN_TABLE, le=MAX_TABLE)],
        Annotated[float, Field(ge=MIN_TABLE, le=MAX_TABLE)],
    ]
    description: Text = ""
    turns: int = Field(default=3, ge=1, le=50, description="turn limit")
    # which saving-roll rule (FACTS 3.2); read by the systems that have a choice of them.
    saves: Literal["n5", "codeone"] = "n5"


class SceneryEntry(Strict):
    """[[scenery]]: a polygon footprint, or a line with a thickness for thin walls."""

    id: Id
    kind: SceneryKind
    height: float | None = Field(default=None, gt=0, le=100)
    polygon: list[Point] | None = Field(default=None, max_length=MAX_POINTS)
    line: list[Point] | None = Field(default=None, max_length=MAX_POINTS)
    thickness: float = Field(default=0.25, gt=0, le=12)
    label: Text | None = None
    # the degrees the piece's own axes are turned from the table's, where its shape does
    # not tell them (a triangle turned in the editor): its handles and stretches follow
    # them. A quarter turn gives the same axes: from -45 to 45.
    axes: float | None = Field(default=None, ge=-45, le=45)

    @field_validator("line")
    @classmethod
    def _two_points(cls, line: list[Point] | None) -> list[Point] | None:
        # a check of the field alone, so the problem names the line `line = ...` is on
        if line is not None and len(line) < 2:
            raise ValueError("needs at least 2 points")
        return line

    @model_validator(mode="after")
    def _one_shape(self) -> SceneryEntry:
        if (self.polygon is None) == (self.line is None):
            raise ValueError("needs exactly one of polygon or line")
        return self

    @property
    def shape_axes(self) -> float | None:
        """The degrees the piece's own axes are turned from the table's where its shape
        tells them (`folded`): every side along one of two axes at right angles (a box,
        an L- or T-shaped building, a straight wall or one bent square); else None (a
        triangle: its `axes` key keeps them)."""
        pts = list(self.polygon if self.polygon is not None else self.line or [])
        ends = pts[1:] + pts[:1] if self.polygon is not None else pts[1:]
        sides = [(bx - ax, by - ay) for (ax, ay), (bx, by) in zip(pts, ends, strict=False)]
        sides = [side for side in sides if side != (0, 0)]
        if not sides:
            return 0.0
        ux, uy = sides[0]
        for vx, vy in sides[1:]:
            lengths = math.hypot(ux, uy) * math.hypot(vx, vy)
            if min(abs(ux * vx + uy * vy), abs(ux * vy - uy * vx)) > 1e-3 * lengths:
                return None  # neither along nor square (the 4 places kept bend one far less)
        return folded(math.degrees(math.atan2(uy, ux)))


def folded(degrees: float) -> float:
    """A turn of a piece's axes: in [-45, 45), a quarter turn being the same axes; 0
    where it is within a millionth of a degree of none."""
    degrees = (degrees + 45) % 90 - 45
    return 0.0 if abs(degrees) < 1e-6 else degrees


Channel = Annotated[int, Field(ge=0, le=255)]


# The automatic players' weight sets (game/ai/weights/): a side may name one.
TEMPERAMENTS = ("cautious", "balanced", "aggressive")
Temperament = Literal["cautious", "balanced", "aggressive"]
# `player` besides the rule system's automatic players by name ("simple", "search", ...)
HUMAN = "human"
AI = "ai"  # the computer, with the player the command chooses (the window: search)


class SideEntry(Strict):
    """[[side]]: `player` is "human", "ai" or an automatic player of the rule system by
    name (checked against the ruleset when the scenario is read); `temperament` the
    weight set of a player that takes one."""

    id: Id
    player: Id = AI
    temperament: Temperament | None = None
    name: Text | None = None
    # red, green, blue, each 0-255 (the window and pictures draw the side in it)
    colour: tuple[Channel, Channel, Channel] | None = None


class ModelEntry(Strict):
    """[[model]]"""

    id: Id
    side: Id
    profile: str = Field(min_length=1, max_length=200)
    at: Point
    facing: float = Field(default=0.0, ge=-3600, le=3600, description="degrees")
    unit: Id | None = None
    state: str | None = Field(default=None, max_length=64)
    base: float | None = Field(default=None, gt=0, le=200, description="base mm override")
    height: float | None = Field(default=None, gt=0, le=20, description="height override")
    weapons: tuple[Annotated[str, Field(max_length=200)], ...] | None = Field(
        default=None, max_length=50
    )
    lieutenant: StrictBool = False  # true or false: "yes" is refused, not read as true
    # what logs and pictures call it ("Zhanshi HMG"); without it, its id made readable
    name: Annotated[str, Field(min_length=1, max_length=80)] | None = None


class ObjectiveEntry(Strict):
    """[[objective]]: a point worth `points` at the end of the game to the side with more
    models able to act within `radius` inches of it (edge of base to point)."""

    id: Id
    at: Point
    radius: float = Field(default=2.0, gt=0, le=24)
    points: int = Field(default=1, ge=1, le=100)
    label: Text | None = None
