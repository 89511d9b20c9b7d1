"""What geometry answers about a shooter and a target: sight lines, the line-of-fire
ruling, the visible share of the silhouette, and all of it with the distance."""

from __future__ import annotations

from dataclasses import dataclass

from game.geometry.table import BodyId


@dataclass(frozen=True, slots=True)
class Point3:
    x: float
    y: float
    z: float


@dataclass(frozen=True, slots=True)
class SightLine:
    """A 3D segment from a point of the shooter's cylinder to a point of the target's."""

    start: Point3
    end: Point3


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """The exact answer: `clear` says a clear sight line exists, `lof` adds the arc."""

    shooter: BodyId
    target: BodyId
    in_arc: bool
    clear: bool
    witness: SightLine | None
    blockers: tuple[str, ...]  # pieces / models across the centre line when not clear

    @property
    def lof(self) -> bool:
        return self.in_arc and self.clear


@dataclass(frozen=True, slots=True)
class Visibility:
    """Share of the target's silhouette that some clear sight line reaches (within 0.02)."""

    fraction: float
    hidden_by: tuple[str, ...]  # ids of the pieces / models hiding the rest
    # side (inches) of the largest square of the silhouette that clear lines reach
    patch: float = 0.0


@dataclass(frozen=True, slots=True)
class Sight:
    """Everything geometry says about one shooter and one target; rules read it."""

    shooter: BodyId
    target: BodyId
    in_arc: bool
    clear: bool
    witness: SightLine | None
    blockers: tuple[str, ...]
    visible_fraction: float
    hidden_by: tuple[str, ...]
    distance: float
    visible_patch: float = 0.0  # side of the largest square seen (Visibility.patch)

    @property
    def lof(self) -> bool:
        return self.in_arc and self.clear
