"""The scenario file format (TOML), as pydantic models of each table in the file.

See DESIGN.md, "Scenario file". Rule data ([[profile]], [[weapon]]) is validated by
the rule system's own models (game.rules.<system>.data).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Point = tuple[float, float]
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.\-]+$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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

    name: str = Field(min_length=1)
    ruleset: str
    table: tuple[Annotated[float, Field(gt=0, le=240)], Annotated[float, Field(gt=0, le=240)]]
    description: str = ""
    turns: int = Field(default=3, ge=1, le=50, description="turn limit")
    # which saving-roll rule (FACTS 3.2); read by the systems that have a choice of them.
    saves: Literal["n5", "codeone"] = "n5"


class SceneryEntry(Strict):
    """[[scenery]]: a polygon footprint, or a line with a thickness for thin walls."""

    id: Id
    kind: SceneryKind
    height: float | None = Field(default=None, gt=0, le=100)
    polygon: list[Point] | None = None
    line: list[Point] | None = None
    thickness: float = Field(default=0.25, gt=0, le=12)
    label: str | None = None

    @model_validator(mode="after")
    def _one_shape(self) -> SceneryEntry:
        if (self.polygon is None) == (self.line is None):
            raise ValueError("give exactly one of polygon or line")
        if self.line is not None and len(self.line) < 2:
            raise ValueError("a line needs at least 2 points")
        return self


class SideEntry(Strict):
    """[[side]]"""

    id: Id
    player: Literal["human", "ai"] = "ai"
    name: str | None = None
    colour: tuple[int, int, int] | None = None


class ModelEntry(Strict):
    """[[model]]"""

    id: Id
    side: Id
    profile: str = Field(min_length=1)
    at: Point
    facing: float = 0.0
    unit: Id | None = None
    state: str | None = None
    base: float | None = Field(default=None, gt=0, le=200, description="base mm override")
    height: float | None = Field(default=None, gt=0, le=20, description="height override")
    weapons: tuple[str, ...] | None = None
    lieutenant: bool = False


class ObjectiveEntry(Strict):
    """[[objective]]: a point worth `points` at the end of the game to the side with more
    models able to act within `radius` inches of it (edge of base to point)."""

    id: Id
    at: Point
    radius: float = Field(default=2.0, gt=0, le=24)
    points: int = Field(default=1, ge=1, le=100)
    label: str | None = None
