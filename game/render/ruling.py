"""What the interactive table asks when a player points at a target: a ruling provider.

The window does not compute lines of fire itself. It asks a `RulingProvider` once per
(shooter, target) pair when the pointer comes to rest on a new enemy, keeps the answer,
and draws it: the witness line (or a red "no line of fire" line), the blocking pieces,
and the provider's own text lines in the panel. Any object with these members will do;
the line-of-fire engine in `game.geometry` plugs in through `default_provider()`, which
gives `game.scenario.ruling.LofProvider` (the ruling `skirmish lof` prints).

No pygame here: providers are plain rules code and tests call them directly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from game.scenario import PlacedModel, Scenario

Point = tuple[float, float]


class Ruling(Protocol):
    """A line-of-fire ruling as the table shows it (read-only attributes)."""

    @property
    def lof(self) -> bool: ...
    @property
    def witness(self) -> tuple[Point, Point] | None: ...
    @property
    def blockers(self) -> Sequence[str]: ...
    @property
    def visible_fraction(self) -> float: ...
    @property
    def cover(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def distance(self) -> float: ...


class RulingProvider(Protocol):
    """Answers "can this model shoot that one?" for the table.

    `engine_loaded` is False for a stand-in that cannot rule on line of fire: the table
    then draws its line in a neutral colour instead of green or red. `describe` gives
    the panel's text lines for a ruling (a real engine gives what `skirmish lof` prints).
    """

    @property
    def name(self) -> str: ...
    @property
    def engine_loaded(self) -> bool: ...
    def rule(self, scenario: Scenario, shooter_id: str, target_id: str) -> Ruling: ...
    def describe(self, scenario: Scenario, ruling: Ruling) -> list[str]: ...


def edge_distance(a: PlacedModel, b: PlacedModel) -> float:
    """DESIGN.md: distances between models are edge to edge (closest points of the bases)."""
    centres = math.dist(a.at, b.at)
    return max(0.0, centres - a.radius - b.radius)


@dataclass(frozen=True, slots=True)
class DistanceRuling:
    """The stand-in's answer: distance and centre line only; no verdict on line of fire."""

    lof: bool
    witness: tuple[Point, Point] | None
    blockers: tuple[str, ...]
    visible_fraction: float
    cover: str
    reason: str
    distance: float


NOT_LOADED = "line of fire: engine not loaded"


class DistanceOnly:
    """A provider that measures but does not rule: used until `game.geometry` can rule."""

    name = "distance only"
    engine_loaded = False

    def rule(self, scenario: Scenario, shooter_id: str, target_id: str) -> DistanceRuling:
        shooter = scenario.model(shooter_id)
        target = scenario.model(target_id)
        return DistanceRuling(
            lof=False,
            witness=(shooter.at, target.at),
            blockers=(),
            visible_fraction=0.0,
            cover="unknown",
            reason=NOT_LOADED,
            distance=edge_distance(shooter, target),
        )

    def describe(self, scenario: Scenario, ruling: Ruling) -> list[str]:
        return [NOT_LOADED, f'distance {ruling.distance:.2f}" edge to edge (centre line drawn)']


def default_provider() -> RulingProvider:
    """The line-of-fire engine (`skirmish lof`'s own `LofProvider`, so the table shows
    exactly the ruling the command prints), else the distance-only stand-in."""
    try:
        from game.scenario.ruling import LofProvider
    except ImportError:
        return DistanceOnly()
    return LofProvider()
