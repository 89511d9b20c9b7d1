"""What the sequencer asks of the table's geometry, with the models where they are now."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from game.geometry import Table
from game.rules.cover import Cover

Point = tuple[float, float]

__all__ = ["Blocked", "Cover", "Placement", "RouteSight", "Sight", "Sighting", "Stretch"]


@dataclass(frozen=True, slots=True)
class Sighting:
    """Line of fire from a shooter to a target as the rules read it."""

    lof: bool
    in_arc: bool
    cover: Cover
    distance: float
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Blocked:
    """What keeps a base from moving along a path: `why` in a sentence ("the base would
    pass through barn"), and `by` the id of the scenery piece or model it would pass
    through, or None when the path leaves the table (`off_table`)."""

    why: str
    by: str | None = None

    @property
    def off_table(self) -> bool:
        return self.by is None


@dataclass(frozen=True, slots=True)
class Placement:
    at: Point
    facing: float
    present: bool = True  # False for a removed (dead) model


Stretch = tuple[Point, Point]  # a stretch of a route, from one point to another


@dataclass(frozen=True, slots=True)
class RouteSight:
    """What a watcher has of a model moving along a route, for the whole route.

    `seen`: the stretches where a clear sight line reaches deep enough into the mover's
    silhouette for the minimum visible patch with the mover at least partly in the
    watcher's arc (exact, see `game.geometry.sweep`), each holding a point where the full
    sighting was confirmed; `seen_at`: the first such point. `near`: the stretches where
    the mover is within the reach asked for, edge to edge."""

    seen: tuple[Stretch, ...]
    seen_at: Point | None
    near: tuple[Stretch, ...]


class Sight(Protocol):
    def sighting(
        self, placements: Mapping[str, Placement], shooter: str, target: str
    ) -> Sighting: ...

    def distance(self, placements: Mapping[str, Placement], a: str, b: str) -> float:
        """Edge to edge between two bases, in inches."""
        ...

    def in_arc(self, placements: Mapping[str, Placement], a: str, b: str) -> bool:
        """Whether b is at least partly inside a's arc (no sight lines drawn)."""
        ...

    def clear_to(
        self, placements: Mapping[str, Placement], asks: Sequence[tuple[str, str, Point]]
    ) -> list[bool]:
        """For each (watcher, model, point): whether any clear sight line joins the watcher
        and `model` standing at `point` (no arc, no visible patch: False means no LoF)."""
        ...

    def route_sight(
        self,
        placements: Mapping[str, Placement],
        watcher: str,
        mover: str,
        route: Sequence[Point],
        facing: float,
        *,
        reach: float = 0.0,
        sees: Callable[[Sighting], bool] | None = None,
        first: bool = False,
    ) -> RouteSight:
        """Where along `route` the watcher has line of fire to the mover (read by `sees`)
        and where the mover is within `reach` of it: stretches for the whole route."""
        ...

    def table_at(self, placements: Mapping[str, Placement]) -> Table:
        """The table's geometry with the models placed, for templates and blasts."""
        ...

    def path_blocked(
        self, placements: Mapping[str, Placement], model: str, path: tuple[Point, ...]
    ) -> Blocked | None:
        """What keeps the base from moving along `path` (scenery, a model, the table's
        edge), or None."""
        ...
