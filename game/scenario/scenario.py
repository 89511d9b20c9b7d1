"""A loaded, checked scenario: what the rest of the game reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from game.errors import Problem
from game.rules.data import MM_PER_INCH, Profile, Weapon
from game.rules.registry import Ruleset
from game.scenario.model import Header, ObjectiveEntry, SceneryKind, SideEntry

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Piece:
    """A scenery piece: a prism with a simple polygon footprint (thin walls already
    thickened) and a height in inches (None = taller than anything)."""

    id: str
    kind: SceneryKind
    height: float | None
    footprint: tuple[Point, ...]
    label: str | None = None


@dataclass(frozen=True, slots=True)
class PlacedModel:
    """A model on the table, its profile resolved."""

    id: str
    side: str
    profile: str
    at: Point
    facing: float
    unit: str | None
    state: str | None
    base_mm: float
    height: float
    weapons: tuple[str, ...]
    lieutenant: bool = False
    name: str | None = None  # the scenario's name for it, if it gives one

    @property
    def radius(self) -> float:
        """Base radius in inches."""
        return self.base_mm / MM_PER_INCH / 2


@dataclass(frozen=True, slots=True)
class Scenario:
    path: Path
    header: Header
    ruleset: Ruleset
    scenery: tuple[Piece, ...]
    sides: tuple[SideEntry, ...]
    models: tuple[PlacedModel, ...]
    objectives: tuple[ObjectiveEntry, ...] = ()
    profiles: dict[str, Profile] = field(default_factory=dict)
    weapons: dict[str, Weapon] = field(default_factory=dict)
    # rule values from assets/<system>/rules.toml (game.scenario.rule_values), by name
    rule_values: dict[str, float] = field(default_factory=dict)
    # The file's text as it was read: a save carries it, so a game replays anywhere.
    text: str = ""
    # What keeps a valid table from being played (a side with no models), each at its
    # line: the editor and import may write such a table, a work in progress; validate,
    # scenarios and the commands that play it say so.
    unplayable: tuple[Problem, ...] = ()
    # What validate refuses but a game plays through, as files written before the check
    # was made do (a `unit` where the system has none; the system's `advise` part).
    advice: tuple[Problem, ...] = ()

    def model(self, model_id: str) -> PlacedModel:
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    def piece(self, piece_id: str) -> Piece:
        for p in self.scenery:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def side(self, side_id: str) -> SideEntry:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)
