"""Game state: immutable, replaced whole by each accepted declaration, so an illegal
declaration leaves it exactly as it was."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Self

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ModelState:
    """A model now: where it stands, which way it faces, its state and markers.

    `status` is the rule system's state name ("normal", "prone", "pinned", ...);
    `markers` count things such as wound or pin markers; `flags` are facts such
    as "activated" or "out-of-ammo"."""

    id: str
    side: str
    at: Point
    facing: float
    status: str
    wounds: int = 0
    markers: tuple[tuple[str, int], ...] = ()
    flags: frozenset[str] = frozenset()

    def marker(self, name: str) -> int:
        return dict(self.markers).get(name, 0)

    def with_marker(self, name: str, count: int) -> Self:
        markers = dict(self.markers)
        if count:
            markers[name] = count
        else:
            markers.pop(name, None)
        return dataclasses.replace(self, markers=tuple(sorted(markers.items())))

    def replace(self, **changes: object) -> Self:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment. `models` keep the scenario's order."""

    turn: int
    active: str
    sides: tuple[str, ...]
    models: tuple[ModelState, ...]
    finished: bool = False
    winner: str | None = None

    def model(self, model_id: str) -> ModelState:
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    def with_model(self, new: ModelState) -> Self:
        models = tuple(new if m.id == new.id else m for m in self.models)
        return dataclasses.replace(self, models=models)

    def replace(self, **changes: object) -> Self:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def side_models(self, side: str) -> tuple[ModelState, ...]:
        return tuple(m for m in self.models if m.side == side)

    def other_side(self, side: str) -> str:
        others = [s for s in self.sides if s != side]
        return others[0] if others else side
